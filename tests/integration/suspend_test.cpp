// scontrol suspend/resume with real processes (issue #21): an operator's suspension stops a
// job that counts, in its batch shell and in its srun step, and resume lets it go on; a user
// is refused with Slurm's words; the time limit does not run while the job is suspended (the
// cluster clock is moved on past it), and runs out once the job has run its limit.
#include "cluster_fixture.h"

#include <QtTest>

namespace {

const QString kUser = QStringLiteral("alice");
const QString kOperator = QStringLiteral("prof"); // an operator of the presets (isAdmin)

// Counts in the batch shell and in an srun step, each into a file of its own, every 0.1 s.
constexpr const char *kCounter = R"(#!/bin/bash
#SBATCH -t 1 -o /dev/null
cd
srun bash -c 'i=0; while true; do i=$((i+1)); echo $i > step-$SLURM_JOB_ID; sleep 0.1; done' &
i=0
while true; do i=$((i+1)); echo $i > batch-$SLURM_JOB_ID; sleep 0.1; done
)";

int counted(const ClusterFixture &cluster, const QString &which, int job)
{
    return readTextFile(cluster.homeFile(kUser, which + QLatin1Char('-') + QString::number(job)))
        .trimmed()
        .toInt();
}

QString squeueOf(const ClusterFixture &cluster, int job)
{
    return cluster.shell(QStringLiteral("squeue -h -j %1 -o '%t %T %r'").arg(job)).out.trimmed();
}

QString sacctOf(const ClusterFixture &cluster, int job, const QString &fields)
{
    return cluster.shell(QStringLiteral("sacct -n -X -P -j %1 -o %2").arg(job).arg(fields))
        .out.trimmed();
}

// Submits the counter as alice and waits until both counters run; returns whether they do.
bool startCounter(ClusterFixture &cluster)
{
    QFile script(cluster.homeFile(kUser, QStringLiteral("counter.sh")));
    if (!script.open(QIODevice::WriteOnly) || script.write(kCounter) < 0) {
        return false;
    }
    script.close();
    if (cluster.shell(QStringLiteral("sbatch counter.sh")).out
        != QStringLiteral("Submitted batch job 1\n")) {
        return false;
    }
    for (int tries = 0; tries < 200; ++tries) {
        if (counted(cluster, QStringLiteral("batch"), 1) > 2
            && counted(cluster, QStringLiteral("step"), 1) > 2) {
            return true;
        }
        QTest::qWait(100);
    }
    return false;
}

// Waits until neither counter moves for a second (the node applied the suspension): true
// when they stood still, false when they kept counting for 20 s.
bool countersStandStill(const ClusterFixture &cluster)
{
    for (int tries = 0; tries < 20; ++tries) {
        const int batch = counted(cluster, QStringLiteral("batch"), 1);
        const int step = counted(cluster, QStringLiteral("step"), 1);
        QTest::qWait(1000); // ten counts of each, were they running
        if (batch == counted(cluster, QStringLiteral("batch"), 1)
            && step == counted(cluster, QStringLiteral("step"), 1)) {
            return true;
        }
    }
    return false;
}

} // namespace

class SuspendTest : public QObject {
    Q_OBJECT

private slots:
    void suspendedJobStopsCountingAndGoesOnAfterResume();
    void suspendedJobPastItsLimitIsNotKilledForTheSuspendedTime();
};

void SuspendTest::suspendedJobStopsCountingAndGoesOnAfterResume()
{
    ClusterFixture cluster(QStringLiteral("plain"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    QVERIFY(startCounter(cluster));

    // Slurm 22.05: operators only; the job's owner is refused, job by job.
    ShellResult refused = cluster.shell(QStringLiteral("scontrol suspend 1"));
    QCOMPARE(refused.err, QStringLiteral("Access/permission denied for job 1\n"));
    QCOMPARE(refused.exitCode, 1);
    QCOMPARE(squeueOf(cluster, 1), QStringLiteral("R RUNNING None"));

    ShellResult suspend = cluster.shell(QStringLiteral("scontrol suspend 1"), kOperator);
    QCOMPARE(suspend.out + suspend.err, QString());
    QCOMPARE(suspend.exitCode, 0);
    QCOMPARE(squeueOf(cluster, 1), QStringLiteral("S SUSPENDED None"));
    QCOMPARE(sacctOf(cluster, 1, QStringLiteral("State")), QStringLiteral("SUSPENDED"));
    QVERIFY(countersStandStill(cluster));
    const int batch = counted(cluster, QStringLiteral("batch"), 1);
    const int step = counted(cluster, QStringLiteral("step"), 1);
    // Suspending a suspended job is no error (Slurm says nothing).
    QCOMPARE(cluster.shell(QStringLiteral("scontrol suspend 1"), kOperator).exitCode, 0);

    ShellResult resume = cluster.shell(QStringLiteral("scontrol resume 1"), kOperator);
    QCOMPARE(resume.out + resume.err, QString());
    QCOMPARE(resume.exitCode, 0);
    QCOMPARE(squeueOf(cluster, 1), QStringLiteral("R RUNNING None"));
    QTRY_VERIFY_WITH_TIMEOUT(counted(cluster, QStringLiteral("batch"), 1) > batch + 2, 20000);
    QTRY_VERIFY_WITH_TIMEOUT(counted(cluster, QStringLiteral("step"), 1) > step + 2, 20000);
    ShellResult again = cluster.shell(QStringLiteral("scontrol resume 1"), kOperator);
    QCOMPARE(again.err, QStringLiteral("Job is not suspended for job 1\n"));
    QCOMPARE(again.exitCode, 1);

    // A suspended job scancel'led ends CANCELLED (its node thaws it to end it).
    cluster.shell(QStringLiteral("scontrol suspend 1"), kOperator);
    QCOMPARE(cluster.shell(QStringLiteral("scancel 1")).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(
        sacctOf(cluster, 1, QStringLiteral("State")).startsWith(QStringLiteral("CANCELLED by ")),
        20000);
}

void SuspendTest::suspendedJobPastItsLimitIsNotKilledForTheSuspendedTime()
{
    ClusterFixture cluster(QStringLiteral("plain"));
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    QVERIFY(startCounter(cluster)); // -t 1: one minute

    QCOMPARE(cluster.shell(QStringLiteral("scontrol suspend 1"), kOperator).exitCode, 0);
    // Ten minutes later on the cluster clock, far past its limit: still there, suspended.
    ShellResult forward = cluster.minicluster(
        {QStringLiteral("clock"), QStringLiteral("--forward"), QStringLiteral("10m")});
    QCOMPARE(forward.exitCode, 0);
    QCOMPARE(squeueOf(cluster, 1), QStringLiteral("S SUSPENDED None"));
    QVERIFY(countersStandStill(cluster));
    const int batch = counted(cluster, QStringLiteral("batch"), 1);

    // Resumed, it goes on counting: the suspended ten minutes did not use its limit.
    QCOMPARE(cluster.shell(QStringLiteral("scontrol resume 1"), kOperator).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(counted(cluster, QStringLiteral("batch"), 1) > batch + 2, 20000);
    QCOMPARE(squeueOf(cluster, 1), QStringLiteral("R RUNNING None"));
    const QString suspended = sacctOf(cluster, 1, QStringLiteral("Suspended"));
    QVERIFY2(suspended.startsWith(QStringLiteral("00:10:")), qPrintable(suspended));

    // Once it has run its minute, the limit ends it.
    cluster.minicluster(
        {QStringLiteral("clock"), QStringLiteral("--forward"), QStringLiteral("2m")});
    QTRY_COMPARE_WITH_TIMEOUT(
        sacctOf(cluster, 1, QStringLiteral("State")), QStringLiteral("TIMEOUT"), 30000);
    QVERIFY2(sacctOf(cluster, 1, QStringLiteral("Suspended")).startsWith(QStringLiteral("00:10:")),
        qPrintable(sacctOf(cluster, 1, QStringLiteral("Suspended"))));
    QCOMPARE(sacctOf(cluster, 1, QStringLiteral("Elapsed")), QStringLiteral("00:01:00"));
}

QTEST_MAIN(SuspendTest)
#include "suspend_test.moc"
