// Daemons killed with SIGKILL in the middle of jobs: the controller comes back with its queue
// and every accounting record; a lost node is marked down, its job ends NODE_FAIL, the rest of
// the cluster goes on, and restarting the node brings it back.
#include "cluster_fixture.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <csignal>

namespace {

QString readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

pid_t pidIn(const QString &path)
{
    return static_cast<pid_t>(readFile(path).trimmed().toInt());
}

bool alive(pid_t pid)
{
    return pid > 0 && ::kill(pid, 0) == 0;
}

QString nodeLine(const ClusterFixture &cluster, const QString &node)
{
    const QStringList lines = cluster.minicluster({QStringLiteral("status")})
                                  .out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const auto &line : lines) {
        if (line.trimmed().startsWith(node + QLatin1Char(' '))) {
            return line.simplified();
        }
    }
    return {};
}

} // namespace

class FaultTest : public QObject {
    Q_OBJECT

private slots:
    void controllerKilledMidJobLosesNoJobAndNoRecord();
    void nodeDaemonKilledMidJobMarksNodeDownAndRestartBringsItBack();
    void downAfterTheControllerDiedStopsTheOtherDaemons();
};

void FaultTest::controllerKilledMidJobLosesNoJobAndNoRecord()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult submit = cluster.shell(QStringLiteral(
        "for i in 1 2 3 4 5; do sbatch -J j$i -o j$i.out --wrap 'sleep 2; echo done'; done"));
    QCOMPARE(submit.out.count(QStringLiteral("Submitted batch job")), 5);
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("squeue -h -t R -o %i")).out.count(QLatin1Char('\n')), 5,
        10000);

    pid_t ctld = pidIn(cluster.dir() + QStringLiteral("/run/ctld.pid"));
    QVERIFY(alive(ctld));
    QCOMPARE(::kill(ctld, SIGKILL), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(ctld), 5000);
    // The jobs end while no controller listens; the nodes keep their end reports.
    QTRY_VERIFY_WITH_TIMEOUT(
        readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("j5.out")))
            == QStringLiteral("done\n"),
        15000);

    ShellResult restart = cluster.minicluster({QStringLiteral("up")});
    QCOMPARE(restart.exitCode, 0);
    QVERIFY2(restart.out.startsWith(QStringLiteral("minicluster: restarted controller")),
        qPrintable(restart.out + restart.err));

    QTRY_COMPARE_WITH_TIMEOUT(cluster.shell(QStringLiteral("sacct -n -o JobID,State -j 1,2,3,4,5"))
                                  .out.count(QStringLiteral("COMPLETED")),
        10, 10000);
    ShellResult next = cluster.shell(QStringLiteral("sbatch -o /dev/null --wrap true"));
    QCOMPARE(next.out, QStringLiteral("Submitted batch job 6\n"));
}

void FaultTest::nodeDaemonKilledMidJobMarksNodeDownAndRestartBringsItBack()
{
    ClusterFixture cluster;
    // A requeued job waits cred_expire + 1 s (BeginTime) before it runs again: 6 s, not 121.
    QVERIFY(cluster.setSlurmConf(QStringLiteral("AuthInfo"), QStringLiteral("cred_expire=5")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // Two jobs share cn01: one refuses requeueing, one takes Slurm's default (JobRequeue=1).
    ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -c 2 --no-requeue -J victim -o victim.out --wrap 'sleep 30; echo after'; "
        "sbatch -c 2 -J requeued -o requeued.out "
        "--wrap 'hostname; sleep 5; echo finished, restarts=$SLURM_RESTART_COUNT'; "
        "sbatch -c 4 -J bystander -o bystander.out --wrap 'sleep 2; echo fine'"));
    QCOMPARE(submit.out,
        QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\nSubmitted batch job 3\n"));
    QTRY_COMPARE_WITH_TIMEOUT(cluster.shell(QStringLiteral("squeue -h -j 1,2 -o %t:%N")).out,
        QStringLiteral("R:cn01\nR:cn01\n"), 10000);
    const QString jobPidFile = cluster.dir() + QStringLiteral("/nodes/cn01/spool/job00001/pid");
    QTRY_VERIFY_WITH_TIMEOUT(pidIn(jobPidFile) > 0, 5000);
    pid_t jobPid = pidIn(jobPidFile);

    pid_t noded = pidIn(cluster.dir() + QStringLiteral("/run/noded-cn01.pid"));
    QVERIFY(alive(noded));
    QCOMPARE(::kill(noded, SIGKILL), 0);

    QTRY_COMPARE_WITH_TIMEOUT(nodeLine(cluster, QStringLiteral("cn01")),
        QStringLiteral("cn01 down 0/4 CPUs allocated (Not responding)"), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -o State -j 1")).out.trimmed(),
        QStringLiteral("NODE_FAIL"), 10000);
    // The rest of the cluster goes on, and the requeued job runs again on another node.
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -o State -j 2,3")).out.simplified(),
        QStringLiteral("COMPLETED COMPLETED"), 20000);
    QCOMPARE(readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("bystander.out"))),
        QStringLiteral("fine\n"));
    QString requeued
        = readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("requeued.out")));
    QVERIFY2(requeued.endsWith(QStringLiteral("finished, restarts=1\n")), qPrintable(requeued));
    QVERIFY2(!requeued.startsWith(QStringLiteral("cn01")), qPrintable(requeued));

    ShellResult restart = cluster.minicluster({QStringLiteral("up")});
    QCOMPARE(restart.exitCode, 0);
    QVERIFY2(restart.out.startsWith(QStringLiteral("minicluster: restarted cn01")),
        qPrintable(restart.out + restart.err));
    QCOMPARE(
        nodeLine(cluster, QStringLiteral("cn01")), QStringLiteral("cn01 idle 0/4 CPUs allocated"));
    // The orphaned job was killed by the new daemon and never finished.
    QTRY_VERIFY_WITH_TIMEOUT(!alive(jobPid), 5000);
    QVERIFY(!readFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("victim.out")))
                 .contains(QStringLiteral("after")));

    ShellResult again = cluster.shell(QStringLiteral("sbatch -c 4 -o again.out --wrap hostname"));
    QCOMPARE(again.out, QStringLiteral("Submitted batch job 4\n"));
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -o State -j 4")).out.trimmed(),
        QStringLiteral("COMPLETED"), 10000);
    ShellResult steps = cluster.shell(QStringLiteral("sacct -n -o JobID,State -j 1"));
    QVERIFY2(steps.out.contains(QRegularExpression(QStringLiteral("1\\.batch +CANCELLED"))),
        qPrintable(steps.out));
}

void FaultTest::downAfterTheControllerDiedStopsTheOtherDaemons()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const pid_t ctld = pidIn(cluster.dir() + QStringLiteral("/run/ctld.pid"));
    const pid_t node = pidIn(cluster.dir() + QStringLiteral("/run/noded-cn01.pid"));
    const pid_t storage = pidIn(cluster.dir() + QStringLiteral("/run/stored.pid"));
    QVERIFY(alive(node) && alive(storage));
    QCOMPARE(::kill(ctld, SIGKILL), 0);
    QTRY_VERIFY_WITH_TIMEOUT(!alive(ctld), 5000);

    // Nobody is left to tell the nodes to leave: `down` signals them itself.
    ShellResult down = cluster.minicluster({QStringLiteral("down")});
    QCOMPARE(down.exitCode, 0);
    QVERIFY2(down.out.contains(QStringLiteral("stopped (its controller was not running)")),
        qPrintable(down.out + down.err));
    QTRY_VERIFY_WITH_TIMEOUT(!alive(node), 5000); // gone; its parent may take a moment to reap
    QTRY_VERIFY_WITH_TIMEOUT(!alive(storage), 5000);
    ShellResult again = cluster.minicluster({QStringLiteral("down")});
    QVERIFY2(again.out.contains(QStringLiteral("is not running")), qPrintable(again.out));
}

QTEST_GUILESS_MAIN(FaultTest)
#include "fault_test.moc"
