// login1's sessions are bounded per user, as a systemd user slice bounds them on a real login
// node (LoginPolicy's MemoryMax and TasksMax): a fork bomb typed in alice's shell stops at her
// TasksMax, while bob's shell and the laptop go on forking.
#include "cluster_fixture.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

namespace {

constexpr int kTasksMax = 40;

// `python3 bomb.py LIMIT SECONDS` forks children that sleep SECONDS until a fork fails or LIMIT
// are made, and says how far it got.
const char *const kBomb = R"(cat > bomb.py <<'END'
import os, sys, time
limit, seconds, n = int(sys.argv[1]), int(sys.argv[2]), 0
try:
    while n < limit:
        if os.fork() == 0:
            time.sleep(seconds)
            os._exit(0)
        n += 1
except OSError as e:
    print("fork failed:", e.strerror, flush=True)
print("children:", n, flush=True)
END
)";

int childrenIn(const QString &out)
{
    auto match = QRegularExpression(QStringLiteral("children: (\\d+)")).match(out);
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

} // namespace

class LoginLimitsTest : public QObject {
    Q_OBJECT
private slots:
    void forkBombInALoginShellStopsAtTasksMaxAndAClassmateGoesOn();
};

void LoginLimitsTest::forkBombInALoginShellStopsAtTasksMaxAndAClassmateGoesOn()
{
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    QFile preset(QStringLiteral(MC_SOURCE_DIR "/emulator/presets/default/minicluster.conf"));
    QVERIFY(preset.open(QIODevice::ReadOnly));
    QString conf = QString::fromUtf8(preset.readAll());
    conf.replace(
        QRegularExpression(QStringLiteral("^LoginPolicy=.*$"), QRegularExpression::MultilineOption),
        QStringLiteral("LoginPolicy=throttle CpuShare=0.5 Window=60 Grace=30 ThrottleShare=0.1 "
                       "MemoryMax=1024 TasksMax=%1")
            .arg(kTasksMax));
    QFile site(cluster.dir() + QStringLiteral("/etc/minicluster.conf"));
    QVERIFY(site.open(QIODevice::WriteOnly));
    site.write(conf.toUtf8());
    site.close();
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));

    const QString status = cluster.minicluster({QStringLiteral("status")}).out;
    QVERIFY2(status.contains(QStringLiteral("login node limits: each user's sessions together: "
                                            "at most 1024 MiB of memory, at most %1 processes")
                                 .arg(kTasksMax)),
        qPrintable(status));
    if (status.contains(QStringLiteral("limits: rlimit")) && ::geteuid() == 0) {
        QSKIP("no cgroup here and root ignores RLIMIT_NPROC: login1's processes are not bounded");
    }

    // A fork refused at TasksMax is explained on alice's terminal, as a CPU hog is warned (read
    // from the cgroup: not without one, where RLIMIT_NPROC bounds the processes silently).
    if (!status.contains(QStringLiteral("limits: rlimit"))) {
        ShellResult again = cluster.shell(
            QString::fromLatin1(kBomb) + QStringLiteral("python3 bomb.py 1000 2; sleep 3"),
            QStringLiteral("alice"));
        QVERIFY2(again.err.contains(QStringLiteral("login1: your sessions reached the login node's "
                                                   "limit of %1 processes (TasksMax)")
                                        .arg(kTasksMax)),
            qPrintable(again.out + again.err));
        QVERIFY2(again.err.contains(QStringLiteral("sbatch (batch) or salloc (interactive)")),
            qPrintable(again.err));
    }

    // alice's bomb, left running in the background with its children.
    ShellResult started = cluster.shell(QString::fromLatin1(kBomb)
        + QStringLiteral("setsid python3 bomb.py 1000 12 > bomb.out 2>&1 < /dev/null &"));
    QCOMPARE(started.exitCode, 0);
    const QString bombOut = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("bomb.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(bombOut).contains(QStringLiteral("children:")), 30000);
    const QString out = readTextFile(bombOut);
    QVERIFY2(out.contains(QStringLiteral("fork failed: Resource temporarily unavailable")),
        qPrintable(out));
    QVERIFY2(childrenIn(out) > 0 && childrenIn(out) < kTasksMax, qPrintable(out));

    // Meanwhile bob, a classmate on the same login node, forks as many as alice could not.
    ShellResult bob = cluster.shell(
        QString::fromLatin1(kBomb) + QStringLiteral("python3 bomb.py %1 1").arg(kTasksMax / 2),
        QStringLiteral("bob"));
    QVERIFY2(bob.out.contains(QStringLiteral("children: %1").arg(kTasksMax / 2)),
        qPrintable(bob.out + bob.err));
    // And the laptop.
    pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        ::_exit(0);
    }
    int status2 = 0;
    QCOMPARE(::waitpid(child, &status2, 0), child);

    // Once the bomb's children have ended, alice logs in again (her cgroup then goes at down).
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("echo back")).out, QStringLiteral("back\n"), 30000);
}

QTEST_GUILESS_MAIN(LoginLimitsTest)
#include "login_limits_test.moc"
