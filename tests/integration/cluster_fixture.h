#pragma once
// A real cluster in a temporary directory for integration tests: `minicluster up` with the
// built binaries, commands run in its login shell, `minicluster down` at the end.

#include <QString>
#include <QStringList>
#include <QTemporaryDir>

// Whether bubblewrap can make a user namespace on this machine (tests of the bubblewrap sandbox
// skip when it cannot).
bool bubblewrapWorks();
// The non-empty lines of a command's output.
QStringList outputLines(const QString &text);
// The whole of a file as UTF-8; empty when it cannot be read.
QString readTextFile(const QString &path);

struct ShellResult {
    int exitCode = -1;
    QString out;
    QString err;
};

class ClusterFixture {
public:
    // `sandbox`: "auto", "bubblewrap" or "plain".
    explicit ClusterFixture(const QString &sandbox = QStringLiteral("auto"));
    ~ClusterFixture();

    // `extra`: more arguments for `minicluster up` (--limits MODE, --time-scale N).
    bool up(const QStringList &extra = {});
    // Before up(): the cluster's etc/slurm.conf is the default preset's with `key`=`value`
    // (e.g. KillWait=1 so that tests do not wait 30 s).
    bool setSlurmConf(const QString &key, const QString &value);
    // Runs `minicluster --dir DIR [--user USER] shell -c COMMAND`; gives up after `timeoutMs`
    // (workflow managers poll for longer than the default).
    ShellResult shell(const QString &command, const QString &user = QString(),
        int timeoutMs = kDefaultTimeoutMs) const;
    ShellResult minicluster(const QStringList &args, int timeoutMs = kDefaultTimeoutMs) const;

    static constexpr int kDefaultTimeoutMs = 60000;

    QString dir() const { return m_dir.path() + QStringLiteral("/cluster"); }
    // A file in the emulated user's home, as the host sees it.
    QString homeFile(const QString &user, const QString &name) const;
    QString lastError() const { return m_lastError; }

private:
    QTemporaryDir m_dir;
    QString m_sandbox;
    QString m_lastError;
    bool m_started = false;
};
