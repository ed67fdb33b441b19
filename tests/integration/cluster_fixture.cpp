#include "cluster_fixture.h"

#include <QProcess>

namespace {

QString binary()
{
    return QStringLiteral(MC_BIN_DIR "/minicluster");
}

} // namespace

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

ShellResult ClusterFixture::minicluster(const QStringList &args) const
{
    QProcess p;
    p.start(binary(), QStringList{QStringLiteral("--dir"), dir()} + args);
    ShellResult r;
    if (!p.waitForFinished(60000)) {
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

bool ClusterFixture::up()
{
    ShellResult r = minicluster({QStringLiteral("--sandbox"), m_sandbox, QStringLiteral("up")});
    m_started = true;
    m_lastError = r.out + r.err;
    return r.exitCode == 0;
}

ShellResult ClusterFixture::shell(const QString &command, const QString &user) const
{
    QStringList args;
    if (!user.isEmpty()) {
        args << QStringLiteral("--user") << user;
    }
    args << QStringLiteral("shell") << QStringLiteral("-c") << command;
    return minicluster(args);
}

QString ClusterFixture::homeFile(const QString &user, const QString &name) const
{
    return dir() + QStringLiteral("/home/") + user + QLatin1Char('/') + name;
}
