#pragma once
// Shared by the storage_*_test.cpp integration tests: files, the cluster's minicluster.conf
// with a test's own storage policy, and the controller's cluster clock.

#include "cluster_fixture.h"
#include "mc/proto/client.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

namespace storage_test {

inline QString readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

inline bool writeFile(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && f.write(text.toUtf8()) == text.toUtf8().size();
}

// The part of `out` from the line "== name" to the next "== " line: one command's output in
// a shell run that echoes such headers between commands.
inline QString section(const QString &out, const QString &name)
{
    qsizetype from = out.indexOf(QStringLiteral("== ") + name);
    qsizetype to = out.indexOf(QStringLiteral("\n== "), from + 1);
    return out.mid(from, to < 0 ? -1 : to - from);
}

// Before up(): the default preset's minicluster.conf with its storage lines replaced by `policy`.
inline bool setStoragePolicy(const ClusterFixture &cluster, const QString &policy)
{
    QString text
        = readFile(QStringLiteral(MC_SOURCE_DIR "/emulator/presets/default/minicluster.conf"));
    text.remove(QRegularExpression(QStringLiteral("^(Filesystem|StorageCheckInterval)=.*\\n"),
        QRegularExpression::MultilineOption));
    QDir().mkpath(cluster.dir() + QStringLiteral("/etc"));
    return writeFile(cluster.dir() + QStringLiteral("/etc/minicluster.conf"), text + policy);
}

// The controller's `clock` request: fast-forwards the cluster clock by `seconds`; the reply's
// `now`, or -1 when the controller refused or is unreachable.
inline qint64 advanceClock(const ClusterFixture &cluster, qint64 seconds)
{
    mc::proto::Client client;
    std::string error;
    if (!client.connect((cluster.dir() + QStringLiteral("/run/ctld.sock")).toStdString(), error)) {
        return -1;
    }
    mc::proto::Json request = mc::proto::Json::object();
    request.set("op", "clock");
    request.set("advance", static_cast<std::int64_t>(seconds));
    auto reply = client.call(request, error);
    if (!reply || !(*reply)["ok"].toBool()) {
        return -1;
    }
    return (*reply)["now"].toInt();
}

} // namespace storage_test
