// Who gets a signal (issue #4): scancel's scopes as `man scancel` defines them (the steps by
// default, the batch shell alone with --batch, everything with --full), srun steps inside
// their batch job's cgroup, a job that traps SIGTERM and exits 0 when scancel'led ending
// CANCELLED, also during a preemption's grace time, and a preempted job's --signal with
// preempt_send_user_signal. Real clusters, real processes and signals.
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

const QString kUser = QStringLiteral("alice");

QString sacctState(const ClusterFixture &cluster, int job)
{
    ShellResult r
        = cluster.shell(QStringLiteral("sacct -n -X -P -o State -j %1").arg(job), QString(), 20000);
    return r.out.trimmed().section(QLatin1Char(' '), 0, 0);
}

// The batch script of the scope test: the shell and an srun step each trap USR1 and write
// who got it to sig-<job>; ready-<job> says the step's trap is in place; stop-<job> ends both.
constexpr const char *kTrapScript = R"(#!/bin/bash
#SBATCH -t 5
cd
trap 'echo batch >> sig-$SLURM_JOB_ID' USR1
srun bash -c 'trap "echo step >> sig-$SLURM_JOB_ID" USR1
    grep -E "memory|0::" /proc/self/cgroup > cgroup-step-$SLURM_JOB_ID
    touch ready-$SLURM_JOB_ID
    while [ ! -e stop-$SLURM_JOB_ID ]; do sleep 0.1; done' &
grep -E "memory|0::" /proc/self/cgroup > cgroup-batch-$SLURM_JOB_ID
while [ ! -e stop-$SLURM_JOB_ID ]; do sleep 0.1; done
wait
)";

QStringList signalled(const ClusterFixture &cluster, int job)
{
    QStringList got
        = outputLines(readTextFile(cluster.homeFile(kUser, QStringLiteral("sig-%1").arg(job))));
    got.removeDuplicates(); // with --full srun also passes the signal on to its step
    got.sort();
    return got;
}

} // namespace

class JobSignalsTest : public QObject {
    Q_OBJECT

private slots:
    void scancelSignalsTheStepsTheBatchShellOrBothAsTheManPageSays();
    void aJobThatTrapsSigtermAndExitsZeroOnScancelEndsCancelled();
};

void JobSignalsTest::scancelSignalsTheStepsTheBatchShellOrBothAsTheManPageSays()
{
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    QFile script(cluster.homeFile(kUser, QStringLiteral("trap.sh")));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(kTrapScript);
    script.close();

    // Jobs 1, 2, 3: scancel --signal alone, with --batch, with --full.
    ShellResult submit = cluster.shell(QStringLiteral("sbatch trap.sh; sbatch trap.sh; "
                                                      "sbatch trap.sh"));
    QCOMPARE(submit.exitCode, 0);
    for (int job = 1; job <= 3; ++job) {
        QTRY_VERIFY_WITH_TIMEOUT(
            QFile::exists(cluster.homeFile(kUser, QStringLiteral("ready-%1").arg(job))), 30000);
    }
    ShellResult signal = cluster.shell(QStringLiteral(
        "scancel --signal=USR1 1 && scancel --batch --signal=USR1 2 && scancel -f -s USR1 3"));
    QCOMPARE(signal.exitCode, 0);
    QCOMPARE(signal.err, QString());
    QTRY_COMPARE_WITH_TIMEOUT(signalled(cluster, 1), QStringList{QStringLiteral("step")}, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(signalled(cluster, 2), QStringList{QStringLiteral("batch")}, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(signalled(cluster, 3),
        (QStringList{QStringLiteral("batch"), QStringLiteral("step")}), 10000);
    // Nothing more arrives late (a signal to the wrong process would come with the right one).
    QTest::qWait(500);
    QCOMPARE(signalled(cluster, 1), QStringList{QStringLiteral("step")});
    QCOMPARE(signalled(cluster, 2), QStringList{QStringLiteral("batch")});

    // Each step ran inside its job's cgroup, beside the batch script's (cgroup modes).
    QString limits = readTextFile(cluster.dir() + QStringLiteral("/run/limits"));
    if (!limits.startsWith(QStringLiteral("rlimit"))) {
        for (int job = 1; job <= 3; ++job) {
            const QString step
                = readTextFile(cluster.homeFile(kUser, QStringLiteral("cgroup-step-%1").arg(job)));
            const QString batch
                = readTextFile(cluster.homeFile(kUser, QStringLiteral("cgroup-batch-%1").arg(job)));
            const QString jobGroup = QStringLiteral("/job_%1/").arg(job);
            QVERIFY2(step.contains(jobGroup + QStringLiteral("step_0")), qPrintable(step));
            QVERIFY2(batch.contains(jobGroup + QStringLiteral("step_batch")), qPrintable(batch));
        }
    }

    for (int job = 1; job <= 3; ++job) {
        QFile stop(cluster.homeFile(kUser, QStringLiteral("stop-%1").arg(job)));
        QVERIFY(stop.open(QIODevice::WriteOnly));
    }
    for (int job = 1; job <= 3; ++job) {
        QTRY_COMPARE_WITH_TIMEOUT(sacctState(cluster, job), QStringLiteral("COMPLETED"), 20000);
    }
}

void JobSignalsTest::aJobThatTrapsSigtermAndExitsZeroOnScancelEndsCancelled()
{
    ClusterFixture cluster;
    // One node, two partitions on it: `low` is preempted (requeued) by `high`, with 30 s of
    // grace time.
    QDir().mkpath(cluster.dir() + QStringLiteral("/etc"));
    QFile conf(cluster.dir() + QStringLiteral("/etc/slurm.conf"));
    QVERIFY(conf.open(QIODevice::WriteOnly));
    conf.write("ClusterName=minicluster\nSlurmctldHost=localhost\nSchedulerType=sched/backfill\n"
               "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\n"
               "DefMemPerCPU=100\nKillWait=1\nMinJobAge=300\n"
               "SlurmctldParameters=enable_configless,preempt_send_user_signal\n"
               "PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE\n"
               "NodeName=cn01 CPUs=2 RealMemory=1000 State=UNKNOWN\n"
               "PartitionName=low Nodes=cn01 Default=YES PriorityTier=1 PreemptMode=REQUEUE "
               "GraceTime=30 State=UP\n"
               "PartitionName=high Nodes=cn01 PriorityTier=2 PreemptMode=OFF State=UP\n");
    conf.close();
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));

    // The first SIGTERM is noted, the second ends the script with 0 (a checkpoint, then out).
    const QString trap = QStringLiteral(
        "sbatch -Q -p %1 -c 2 -o %2.out --wrap \"n=0; trap 'n=\\$((n+1)); echo term\\$n; "
        "[ \\$n -ge %3 ] && exit 0' TERM; echo started; while :; do sleep 0.1; done\"");
    // Job 1: scancel'led while it runs; its trap exits 0 at once.
    ShellResult plain = cluster.shell(
        trap.arg(QStringLiteral("low"), QStringLiteral("plain"), QStringLiteral("1")));
    QCOMPARE(plain.exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(cluster.homeFile(kUser, QStringLiteral("plain.out")))
                                 .startsWith(QStringLiteral("started")),
        30000);
    QCOMPARE(cluster.shell(QStringLiteral("scancel 1")).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(sacctState(cluster, 1), QStringLiteral("CANCELLED"), 20000);
    const QString plainOut = readTextFile(cluster.homeFile(kUser, QStringLiteral("plain.out")));
    QVERIFY2(plainOut.contains(QStringLiteral("term1")), qPrintable(plainOut));
    // What the job wrote after its SIGTERM left slurmstepd's line whole (issue #18): the
    // output is opened in append mode, as slurmstepd opens it.
    QVERIFY2(plainOut.contains(QRegularExpression(QStringLiteral(
                 "(^|\\n)slurmstepd-cn01: error: \\*\\*\\* JOB 1 ON cn01 CANCELLED AT "
                 "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d \\*\\*\\*\\n"))),
        qPrintable(plainOut));

    // Job 2 is preempted by job 3 (SIGTERM, grace time), then scancel'led during the grace
    // time: it exits 0 from its trap and stays cancelled, not requeued.
    ShellResult low = cluster.shell(
        trap.arg(QStringLiteral("low"), QStringLiteral("grace"), QStringLiteral("2")));
    QCOMPARE(low.exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(cluster.homeFile(kUser, QStringLiteral("grace.out")))
                                 .startsWith(QStringLiteral("started")),
        30000);
    QCOMPARE(cluster.shell(QStringLiteral("sbatch -Q -p high -c 2 --wrap 'sleep 1'")).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(cluster.homeFile(kUser, QStringLiteral("grace.out")))
                                 .contains(QStringLiteral("term1")),
        20000);
    QCOMPARE(cluster.shell(QStringLiteral("scancel 2")).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(sacctState(cluster, 2), QStringLiteral("CANCELLED"), 60000);
    QVERIFY(readTextFile(cluster.homeFile(kUser, QStringLiteral("grace.out")))
                .contains(QStringLiteral("term2")));
    // The preempting job runs once the node is free, and job 2 does not come back.
    QTRY_COMPARE_WITH_TIMEOUT(sacctState(cluster, 3), QStringLiteral("COMPLETED"), 20000);
    ShellResult queue = cluster.shell(QStringLiteral("squeue -h -o %i"));
    QCOMPARE(queue.out, QString());

    // preempt_send_user_signal: job 4's --signal (USR1 to its batch shell, due only 5 minutes
    // before its 10-minute limit) comes at its preemption by job 5, instead of SIGTERM.
    ShellResult warned = cluster.shell(QStringLiteral(
        "sbatch -Q -p low -c 2 -t 10 --signal=B:USR1@300 -o warned.out --wrap \"trap 'echo usr1' "
        "USR1; trap 'echo term; exit 0' TERM; echo started; while :; do sleep 0.1; done\""));
    QCOMPARE(warned.exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(cluster.homeFile(kUser, QStringLiteral("warned.out")))
                                 .startsWith(QStringLiteral("started")),
        30000);
    QCOMPARE(cluster.shell(QStringLiteral("sbatch -Q -p high -c 2 --wrap 'sleep 1'")).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(cluster.homeFile(kUser, QStringLiteral("warned.out")))
                                 .contains(QStringLiteral("usr1")),
        20000);
    QCOMPARE(readTextFile(cluster.homeFile(kUser, QStringLiteral("warned.out"))),
        QStringLiteral("started\nusr1\n"));
    QCOMPARE(cluster.shell(QStringLiteral("scancel 4")).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(sacctState(cluster, 4), QStringLiteral("CANCELLED"), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(sacctState(cluster, 5), QStringLiteral("COMPLETED"), 20000);
}

QTEST_GUILESS_MAIN(JobSignalsTest)
#include "job_signals_test.moc"
