// InactiveLimit and BatchStartTimeout as slurmctld applies them (issue #17), on a real cluster:
// an salloc whose process is stopped (what makes a real salloc miss slurmctld's pings) loses
// its allocation, TIMEOUT with reason InactiveLimit, while an salloc that answers keeps its
// own; a batch job whose node daemon does not start it in time is requeued (or, with
// --no-requeue, ends NODE_FAIL), as slurmctld does with a batch job missing from its node.
#include "cluster_fixture.h"

#include <QtTest>

#include <csignal>
#include <sys/types.h>

class LivenessLimitsTest : public QObject {
    Q_OBJECT

private slots:
    void stoppedSallocLosesItsAllocationAtTheInactiveLimit();
    void batchJobNotStartedInTimeIsRequeuedOrNodeFail();
};

void LivenessLimitsTest::stoppedSallocLosesItsAllocationAtTheInactiveLimit()
{
    ClusterFixture cluster;
    // Pings every second, the end 3*4/3 + 10 + 1 = 15 s after the last answer: 1.5 s of wall
    // time at the speed set below.
    QVERIFY(cluster.setSlurmConf(QStringLiteral("InactiveLimit"), QStringLiteral("3")));
    QVERIFY2(cluster.up({QStringLiteral("--time-scale"), QStringLiteral("10")}),
        qPrintable(cluster.lastError()));
    // Two allocations alike (jobs 1 and 2); the first one's salloc is stopped, the second's
    // is not.
    const ShellResult run = cluster.shell(
        QStringLiteral(
            "salloc -N1 -t 30 sleep 600 2> one.err & one=$!; "
            "for i in $(seq 150); do grep -q Granted one.err && break; sleep 0.2; done; "
            "salloc -N1 -t 30 sleep 600 2> two.err & two=$!; "
            "for i in $(seq 150); do grep -q Granted two.err && break; sleep 0.2; done; "
            "kill -STOP $one; "
            "for i in $(seq 150); do [ \"$(sacct -X -n -P -j 1 -o State)\" = TIMEOUT ] && break; "
            "sleep 0.2; done; "
            "scontrol show job 1 | grep -o 'JobState=[A-Z]* Reason=[A-Za-z]*'; "
            "squeue -h -j 2 -o %T; "
            "kill -CONT $one; wait $one; cat one.err; "
            "scancel 2; wait $two; exit 0"),
        QString(), 120000);
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.startsWith(QStringLiteral("JobState=TIMEOUT Reason=InactiveLimit\nRUNNING\n")),
        qPrintable(run.out + run.err));
    // Once it runs again, salloc hears its allocation is gone, as from slurmctld.
    QVERIFY2(run.out.contains(QStringLiteral("salloc: Job allocation 1 has been revoked.\n")),
        qPrintable(run.out));
    const QStringList states
        = outputLines(cluster.shell(QStringLiteral("sacct -X -n -P -j 1,2 -o State")).out);
    QCOMPARE(states.value(0), QStringLiteral("TIMEOUT"));
    QVERIFY2(
        states.value(1).startsWith(QStringLiteral("CANCELLED")), qPrintable(states.join(u',')));
}

void LivenessLimitsTest::batchJobNotStartedInTimeIsRequeuedOrNodeFail()
{
    ClusterFixture cluster;
    // Missing once unreported for 1 + min(10, MessageTimeout) = 11 s of wall time.
    QVERIFY(cluster.setSlurmConf(QStringLiteral("BatchStartTimeout"), QStringLiteral("1")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const pid_t noded
        = readTextFile(cluster.dir() + QStringLiteral("/run/noded-cn01.pid")).trimmed().toInt();
    QVERIFY(noded > 0);
    // The node daemon cannot start anything while it is stopped.
    QCOMPARE(::kill(noded, SIGSTOP), 0);
    const ShellResult submit = cluster.shell(
        QStringLiteral("sbatch -w cn01 -o /dev/null --wrap 'sleep 300'; "
                       "sbatch -w cn01 --no-requeue -o /dev/null --wrap 'sleep 300'; "
                       "for i in $(seq 600); do "
                       "[ \"$(sacct -X -n -P -j 2 -o State)\" = NODE_FAIL ] && break; sleep 0.1; "
                       "done; squeue -h -j 1 -o '%T %r'; sacct -X -n -P -j 2 -o State,ExitCode"));
    ::kill(noded, SIGCONT);
    QCOMPARE(submit.exitCode, 0);
    QCOMPARE(submit.out,
        QStringLiteral("Submitted batch job 1\nSubmitted batch job 2\n"
                       "PENDING BeginTime\nNODE_FAIL|0:0\n"));
    // The late launches do not bring the jobs back: the daemon, running again, is told to end
    // them, and the controller keeps its decision. A job it starts afterwards ends after
    // their reports, which come in order on the same connection.
    const ShellResult after = cluster.shell(
        QStringLiteral("sbatch -W -w cn01 -o /dev/null --wrap true; squeue -h -j 1 -o '%T %r'; "
                       "sacct -X -n -P -j 2,3 -o State"));
    QCOMPARE(after.out,
        QStringLiteral("Submitted batch job 3\nPENDING BeginTime\nNODE_FAIL\nCOMPLETED\n"));
}

QTEST_GUILESS_MAIN(LivenessLimitsTest)
#include "liveness_limits_test.moc"
