// scancel JOB.STEP (issue #19): one srun step of a running batch job is cancelled as Slurm
// 22.05 does it (its tasks killed, slurmstepd's notice and srun's "Job step aborted" line in
// the job's output, the step CANCELLED 0:9 in sacct) while its batch script, its other steps
// and the user's other jobs go on; another user may neither cancel nor signal it, and
// `scancel --signal=USR1 JOB.STEP` reaches that step alone. Real clusters, real processes.
#include "cluster_fixture.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

const QString kUser = QStringLiteral("alice");

// sacct's rows of job `job`, "JobID State ExitCode" each.
QStringList sacctRows(const ClusterFixture &cluster, int job)
{
    ShellResult r = cluster.shell(
        QStringLiteral("sacct -n -P -o JobID,State,ExitCode -j %1").arg(job), QString(), 20000);
    QStringList rows = outputLines(r.out);
    for (QString &row : rows) {
        row.replace(QLatin1Char('|'), QLatin1Char(' '));
    }
    return rows;
}

// The running steps of job `job` as squeue -s lists them ("1.0", "1.batch").
QStringList runningSteps(const ClusterFixture &cluster, int job)
{
    QStringList steps
        = outputLines(cluster.shell(QStringLiteral("squeue -h -s -j %1").arg(job)).out);
    for (QString &step : steps) {
        step = step.trimmed().section(QLatin1Char(' '), 0, 0);
    }
    steps.sort();
    return steps;
}

bool writeHomeFile(const ClusterFixture &cluster, const QString &name, const QByteArray &text)
{
    QFile file(cluster.homeFile(kUser, name));
    return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

// Job 1: a step to cancel (0), then one that must still run after it (1). Job 2: a step that
// traps USR1 into usr1-2 and runs until the file stop-2 exists; its loop would end early if the
// signal reached its `sleep` too (Slurm signals a step's tasks, not their children).
constexpr const char *kCancelled = R"(#!/bin/bash
#SBATCH -o cancelled.out
srun sleep 100
echo "srun-rc=$?"
srun echo after
)";
constexpr const char *kBystander = R"(#!/bin/bash
#SBATCH -o bystander.out
srun bash -c 'trap "echo usr1 >> usr1-$SLURM_JOB_ID" USR1
    while sleep 0.1; do [ -e stop-$SLURM_JOB_ID ] && break; done'
)";

} // namespace

class StepCancelTest : public QObject {
    Q_OBJECT

private slots:
    void scancelOfAStepEndsThatStepAloneAsSlurmDoes();
};

void StepCancelTest::scancelOfAStepEndsThatStepAloneAsSlurmDoes()
{
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    QVERIFY(writeHomeFile(cluster, QStringLiteral("cancelled.sh"), kCancelled));
    QVERIFY(writeHomeFile(cluster, QStringLiteral("bystander.sh"), kBystander));
    ShellResult submit = cluster.shell(QStringLiteral("sbatch cancelled.sh; sbatch bystander.sh"));
    QCOMPARE(submit.exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(runningSteps(cluster, 1),
        (QStringList{QStringLiteral("1.0"), QStringLiteral("1.batch")}), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(runningSteps(cluster, 2),
        (QStringList{QStringLiteral("2.0"), QStringLiteral("2.batch")}), 30000);

    // Bob may neither cancel nor signal alice's step: Slurm's words and exit status (2010).
    ShellResult denied
        = cluster.shell(QStringLiteral("scancel 1.0; scancel -s USR1 2.0"), QStringLiteral("bob"));
    QCOMPARE(denied.exitCode, 218);
    QCOMPARE(denied.err,
        QStringLiteral("scancel: error: Kill job error on job step id 1: Invalid user id\n"
                       "scancel: error: Kill job error on job step id 2: Invalid user id\n"));

    // A signal to a step reaches it and ends nothing.
    ShellResult usr1 = cluster.shell(QStringLiteral("scancel --signal=USR1 2.0"));
    QCOMPARE(usr1.exitCode, 0);
    QCOMPARE(usr1.err, QString());
    QTRY_COMPARE_WITH_TIMEOUT(readTextFile(cluster.homeFile(kUser, QStringLiteral("usr1-2"))),
        QStringLiteral("usr1\n"), 10000);

    ShellResult cancel = cluster.shell(QStringLiteral("scancel 1.0"));
    QCOMPARE(cancel.exitCode, 0);
    QCOMPARE(cancel.err, QString());
    // The batch script goes on after its srun (137: killed) and starts its next step.
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(cluster.homeFile(kUser, QStringLiteral("cancelled.out")))
                                 .contains(QStringLiteral("after\n")),
        20000);
    const QString out = readTextFile(cluster.homeFile(kUser, QStringLiteral("cancelled.out")));
    QVERIFY2(out.contains(QRegularExpression(QStringLiteral(
                 "(^|\\n)slurmstepd-cn\\d+: error: \\*\\*\\* STEP 1\\.0 ON cn\\d+ CANCELLED AT "
                 "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d \\*\\*\\*\\n"))),
        qPrintable(out));
    // KillWait=1: srun waits up to KillWait + 2 seconds, as Slurm's says.
    QVERIFY2(out.contains(QStringLiteral(
                 "srun: Job step aborted: Waiting up to 3 seconds for job step to finish.\n")),
        qPrintable(out));
    QVERIFY2(out.contains(QRegularExpression(
                 QStringLiteral("srun: error: cn\\d+: task 0: Killed\\nsrun-rc=137\\n"))),
        qPrintable(out));

    QTRY_COMPARE_WITH_TIMEOUT(sacctRows(cluster, 1),
        (QStringList{QStringLiteral("1 COMPLETED 0:0"), QStringLiteral("1.batch COMPLETED 0:0"),
            QStringLiteral("1.0 CANCELLED 0:9"), QStringLiteral("1.1 COMPLETED 0:0")}),
        20000);
    // The cancelled step is gone: scancel says so as Slurm does, and exits 1.
    ShellResult again = cluster.shell(QStringLiteral("scancel 1.0"));
    QCOMPARE(again.exitCode, 1);
    QCOMPARE(again.err,
        QStringLiteral(
            "scancel: error: Kill job error on job step id 1.0: Invalid job id specified\n"));

    // Job 2 and its step were not touched by any of it: still running, signalled once.
    QCOMPARE(
        runningSteps(cluster, 2), (QStringList{QStringLiteral("2.0"), QStringLiteral("2.batch")}));
    QCOMPARE(
        readTextFile(cluster.homeFile(kUser, QStringLiteral("usr1-2"))), QStringLiteral("usr1\n"));
    QVERIFY(writeHomeFile(cluster, QStringLiteral("stop-2"), QByteArray()));
    QTRY_COMPARE_WITH_TIMEOUT(sacctRows(cluster, 2),
        (QStringList{QStringLiteral("2 COMPLETED 0:0"), QStringLiteral("2.batch COMPLETED 0:0"),
            QStringLiteral("2.0 COMPLETED 0:0")}),
        20000);
}

QTEST_GUILESS_MAIN(StepCancelTest)
#include "step_cancel_test.moc"
