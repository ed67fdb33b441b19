// run/ is the daemons' (issue #18). With users on ids of their own (root, bubblewrap), a
// student's shell and jobs reach the sockets, the storage node's usage snapshot and their own
// history by name, but cannot list run/ nor read the daemons' pid files and settings or a
// classmate's history. As an ordinary user (no ids of its own for each emulated user), `up`
// and `status` say plainly that users are not isolated from each other.
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <pwd.h>
#include <unistd.h>

namespace {

// Each attempt prints "<what> served" or "<what> denied".
constexpr const char *kProbe = R"SH(
try() { what=$1; shift; if "$@" > /dev/null 2>&1; then echo "$what served"; else echo "$what denied"; fi; }
try list ls /opt/minicluster/run
try pid cat /opt/minicluster/run/ctld.pid
try args cat /opt/minicluster/run/noded-args
try history cat /opt/minicluster/run/history/bob
try own-history cat /opt/minicluster/run/history/alice
try squeue squeue -h
try diskusage diskusage_report
)SH";

bool deniedAndServed(const QString &out)
{
    for (const char *denied : {"list", "pid", "args", "history"}) {
        if (!out.contains(QLatin1String(denied) + QStringLiteral(" denied"))) {
            return false;
        }
    }
    for (const char *served : {"own-history", "squeue", "diskusage"}) {
        if (!out.contains(QLatin1String(served) + QStringLiteral(" served"))) {
            return false;
        }
    }
    return true;
}

} // namespace

class RunDirTest : public QObject {
    Q_OBJECT
private slots:
    void aStudentCannotListOrReadRunButReachesTheSockets();
    void asAnOrdinaryUserUpAndStatusSayUsersAreNotIsolated();
};

void RunDirTest::aStudentCannotListOrReadRunButReachesTheSockets()
{
    if (!bubblewrapWorks() || ::geteuid() != 0) {
        QSKIP("users are isolated only as root with bubblewrap (minicluster status says so)");
    }
    ClusterFixture cluster(QStringLiteral("bubblewrap"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // bob's shell leaves its history (a `-c` command is noted in it).
    QCOMPARE(cluster.shell(QStringLiteral("true"), QStringLiteral("bob")).exitCode, 0);

    const QString inShell = cluster.shell(QString::fromLatin1(kProbe)).out;
    QVERIFY2(deniedAndServed(inShell), qPrintable(inShell));

    // The same from a batch job on a compute node.
    QFile script(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("probe.sh")));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QByteArrayLiteral("#!/bin/bash\n") + kProbe);
    script.close();
    QVERIFY(cluster.shell(QStringLiteral("sbatch -o probe.out probe.sh"))
                .out.contains(QStringLiteral("Submitted batch job")));
    const QString out = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("probe.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(out).contains(QStringLiteral("diskusage ")), 60000);
    QVERIFY2(deniedAndServed(readTextFile(out)), qPrintable(readTextFile(out)));
}

// As root the test drops to `nobody` with setpriv (a throwaway account with no home), as an
// ordinary user it runs as itself: either way no subordinate ids are used, so every emulated
// user is the one real uid.
void RunDirTest::asAnOrdinaryUserUpAndStatusSayUsersAreNotIsolated()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList prefix;
    if (::geteuid() == 0) {
        const passwd *nobody = ::getpwnam("nobody");
        if (!nobody) {
            QSKIP("no user 'nobody' to run as");
        }
        if (::chown(dir.path().toUtf8().constData(), nobody->pw_uid, nobody->pw_gid) != 0) {
            QSKIP("cannot give the temporary directory to nobody");
        }
        prefix = {QStringLiteral("setpriv"), QStringLiteral("--reuid"),
            QString::number(nobody->pw_uid), QStringLiteral("--regid"),
            QString::number(nobody->pw_gid), QStringLiteral("--clear-groups"),
            QStringLiteral("--")};
    }
    const QString cluster = dir.path() + QStringLiteral("/cluster");
    auto run = [&](const QStringList &args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), dir.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), dir.path());
        p.setProcessEnvironment(env);
        p.setWorkingDirectory(dir.path());
        QStringList argv = prefix;
        argv << QStringLiteral(MC_BIN_DIR "/minicluster") << QStringLiteral("--dir") << cluster
             << args;
        p.start(argv.takeFirst(), argv);
        p.waitForFinished(120000);
        return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    };
    if (::geteuid() == 0) {
        // The build must be reachable by nobody (a build below a 0700 home is not).
        QProcess probe;
        probe.start(QStringLiteral("setpriv"),
            prefix.mid(1) << QStringLiteral(MC_BIN_DIR "/minicluster") << QStringLiteral("--help"));
        probe.waitForFinished(20000);
        if (probe.exitCode() != 0) {
            QSKIP("the build directory is not reachable by nobody");
        }
    }
    const QString up = run({QStringLiteral("up")});
    const QString status = run({QStringLiteral("status")});
    const QString down = run({QStringLiteral("down")});
    QVERIFY2(up.contains(QStringLiteral("minicluster: cluster up in ")), qPrintable(up));
    QVERIFY2(up.contains(QStringLiteral("minicluster: users are not isolated (")), qPrintable(up));
    QVERIFY2(status.contains(QStringLiteral("users: not isolated (")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("classmates can read and kill each other's work")),
        qPrintable(status));
}

QTEST_GUILESS_MAIN(RunDirTest)
#include "run_dir_test.moc"
