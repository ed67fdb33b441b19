#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>

#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace {

QString binary()
{
    return QStringLiteral(MC_BIN_DIR "/minicluster");
}

// A cluster run as root gives each user a real uid of its own (mc/proto/identity.h): what
// the test wrote into a user's folders (as root) becomes that user's, as if the user had
// written it.
void giveWrittenFilesToTheirUsers(const QString &clusterDir)
{
    namespace fs = std::filesystem;
    if (::geteuid() != 0) {
        return;
    }
    const fs::path dir = clusterDir.toStdString();
    std::vector<fs::path> tops;
    std::error_code ec;
    for (const char *area : {"home", "scratch"}) {
        for (const auto &e : fs::directory_iterator(dir / area, ec)) {
            tops.push_back(e.path());
        }
    }
    for (const auto &account : fs::directory_iterator(dir / "project", ec)) {
        for (const auto &e : fs::directory_iterator(account.path(), ec)) {
            tops.push_back(e.path());
        }
    }
    for (const auto &top : tops) {
        struct stat owner { };
        if (::lstat(top.c_str(), &owner) != 0 || owner.st_uid == 0) {
            continue;
        }
        for (auto it = fs::recursive_directory_iterator(top, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            struct stat st { };
            if (::lstat(it->path().c_str(), &st) == 0 && st.st_uid == 0) {
                [[maybe_unused]] int rc = ::lchown(it->path().c_str(), owner.st_uid, owner.st_gid);
            }
        }
    }
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
    giveWrittenFilesToTheirUsers(dir());
    return minicluster(args, timeoutMs);
}

QString ClusterFixture::homeFile(const QString &user, const QString &name) const
{
    return dir() + QStringLiteral("/home/") + user + QLatin1Char('/') + name;
}
