#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>

namespace {

QString binary()
{
    return QStringLiteral(MC_BIN_DIR "/minicluster");
}

} // namespace

bool bubblewrapWorks()
{
    return QProcess::execute(QStringLiteral("bwrap"),
               {QStringLiteral("--unshare-user"), QStringLiteral("--ro-bind"), QStringLiteral("/"),
                   QStringLiteral("/"), QStringLiteral("/bin/true")})
        == 0;
}

QStringList outputLines(const QString &text)
{
    return text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QString readTextFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

ClusterFixture::ClusterFixture(const QString &sandbox)
    : m_dir(QStringLiteral("/tmp/mc-test-XXXXXX"))
    , m_sandbox(sandbox)
{ }

ClusterFixture::~ClusterFixture()
{
    if (m_started) {
        minicluster({QStringLiteral("down")});
    }
}

ShellResult ClusterFixture::minicluster(const QStringList &args, int timeoutMs) const
{
    QProcess p;
    p.start(binary(), QStringList{QStringLiteral("--dir"), dir()} + args);
    ShellResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

bool ClusterFixture::setSlurmConf(const QString &key, const QString &value)
{
    QString etc = dir() + QStringLiteral("/etc");
    QString target = etc + QStringLiteral("/slurm.conf");
    QFile preset(QStringLiteral(MC_SOURCE_DIR "/emulator/presets/default/slurm.conf"));
    QString text;
    if (QFile::exists(target)) {
        QFile current(target);
        if (!current.open(QIODevice::ReadOnly)) {
            return false;
        }
        text = QString::fromUtf8(current.readAll());
    } else if (preset.open(QIODevice::ReadOnly)) {
        text = QString::fromUtf8(preset.readAll());
    } else {
        return false;
    }
    QRegularExpression line(
        QStringLiteral("^") + key + QStringLiteral("=.*$"), QRegularExpression::MultilineOption);
    QString entry = key + QLatin1Char('=') + value;
    if (text.contains(line)) {
        text.replace(line, entry);
    } else {
        text += entry + QLatin1Char('\n');
    }
    QDir().mkpath(etc);
    QFile out(target);
    return out.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && out.write(text.toUtf8()) == text.toUtf8().size();
}

bool ClusterFixture::up(const QStringList &extra)
{
    ShellResult r = minicluster(QStringList{QStringLiteral("--sandbox"), m_sandbox} + extra
        + QStringList{QStringLiteral("up")});
    m_started = true;
    m_lastError = r.out + r.err;
    return r.exitCode == 0;
}

ShellResult ClusterFixture::shell(const QString &command, const QString &user, int timeoutMs) const
{
    QStringList args;
    if (!user.isEmpty()) {
        args << QStringLiteral("--user") << user;
    }
    args << QStringLiteral("shell") << QStringLiteral("-c") << command;
    return minicluster(args, timeoutMs);
}

QString ClusterFixture::homeFile(const QString &user, const QString &name) const
{
    return dir() + QStringLiteral("/home/") + user + QLatin1Char('/') + name;
}
