#include "mc/gui/storage_files.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>
#include <sys/stat.h>

namespace mc::gui {

std::optional<UsageSnapshotData> parseUsageSnapshot(const QString &text)
{
    UsageSnapshotData data;
    bool seen = false;
    for (const QString &raw : text.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) {
            continue;
        }
        const QStringList f = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (f.size() == 2 && f[0] == QLatin1String("measured_at")) {
            data.measuredAt = f[1].toLongLong();
            seen = true;
        } else if (f.size() == 6) {
            data.entries.append({f[0], f[1], f[2].toLongLong(), f[3].toLongLong(),
                f[4].toLongLong(), f[5].toLongLong()});
        }
    }
    if (!seen) {
        return std::nullopt;
    }
    return data;
}

QHash<QString, qint64> parsePurgeList(const QString &text)
{
    QHash<QString, qint64> listed;
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const auto tab = line.indexOf(QLatin1Char('\t'));
        if (tab > 0) {
            listed.insert(line.mid(tab + 1), line.left(tab).toLongLong());
        }
    }
    return listed;
}

TreeFacts scanFiles(const QString &root, int keep, int limit)
{
    TreeFacts facts;
    facts.exists = QFileInfo(root).isDir();
    if (!facts.exists) {
        return facts;
    }
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
        QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (facts.count >= limit) {
            facts.truncated = true;
            break;
        }
        struct stat st { };
        if (::lstat(QFile::encodeName(path).constData(), &st) != 0) {
            continue;
        }
        ++facts.count;
        facts.bytes += static_cast<qint64>(st.st_size);
        facts.files.append({path, static_cast<qint64>(st.st_size),
            static_cast<qint64>(std::max(st.st_atime, st.st_ctime))});
        if (facts.files.size() > 4 * keep) {
            std::sort(facts.files.begin(), facts.files.end(),
                [](const FileFacts &a, const FileFacts &b) { return a.lastUse < b.lastUse; });
            facts.files.resize(keep);
        }
    }
    std::sort(facts.files.begin(), facts.files.end(),
        [](const FileFacts &a, const FileFacts &b) { return a.lastUse < b.lastUse; });
    if (facts.files.size() > keep) {
        facts.files.resize(keep);
    }
    return facts;
}

QString slurmTmpdirOnHost(
    const QString &clusterDir, const QString &node, const QString &user, qint64 jobId)
{
    return QDir(clusterDir)
        .filePath(QStringLiteral("nodes/%1/localscratch/%2.%3.0").arg(node, user).arg(jobId));
}

QString ageText(qint64 seconds)
{
    seconds = std::max<qint64>(0, seconds);
    if (seconds >= 86400) {
        return QStringLiteral("%1 d").arg(seconds / 86400);
    }
    if (seconds >= 3600) {
        return QStringLiteral("%1 h").arg(seconds / 3600);
    }
    if (seconds >= 60) {
        return QStringLiteral("%1 min").arg(seconds / 60);
    }
    return QStringLiteral("%1 s").arg(seconds);
}

QString sizeText(qint64 bytes)
{
    static const char *const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    return unit == 0
        ? QStringLiteral("%1 B").arg(bytes)
        : QStringLiteral("%1 %2").arg(value, 0, 'f', 1).arg(QLatin1String(kUnits[unit]));
}

} // namespace mc::gui
