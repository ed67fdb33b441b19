// The Inserm platform's memory overrun as a site policy (MemoryOverrun=reboot-node in
// minicluster.conf): a job over its memory restarts its whole node. The node is down for a
// moment ("Node unexpectedly rebooted"), the job ends CANCELLED (not OUT_OF_MEMORY) and, once
// the node is back, its Comment holds the cause; the other jobs of the node are handled as in a
// node failure (requeued, or NODE_FAIL with --no-requeue).
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QtTest>

namespace {

const char *const kOverrun
    = "Memory overrun: job exceeded its 100M memory allocation; node cn01 rebooted";

QString sacctField(const ClusterFixture &cluster, int job, const char *field)
{
    return cluster
        .shell(QStringLiteral("sacct -n -X -P -j %1 -o %2").arg(job).arg(QLatin1String(field)))
        .out.trimmed();
}

// Before up(): the default preset with the Inserm policy (MemoryOverrun=reboot-node, a node
// back 3 s later) and Comments kept in accounting.
bool setRebootPolicy(ClusterFixture &cluster)
{
    QFile preset(QStringLiteral(MC_SOURCE_DIR "/emulator/presets/default/minicluster.conf"));
    QFile site(cluster.dir() + QStringLiteral("/etc/minicluster.conf"));
    if (!preset.open(QIODevice::ReadOnly) || !QDir().mkpath(cluster.dir() + QStringLiteral("/etc"))
        || !site.open(QIODevice::WriteOnly)) {
        return false;
    }
    site.write(preset.readAll() + "MemoryOverrun=reboot-node RebootTime=3\n");
    site.close();
    return cluster.setSlurmConf(
        QStringLiteral("AccountingStoreFlags"), QStringLiteral("job_comment"));
}

} // namespace

class MemoryOverrunTest : public QObject {
    Q_OBJECT

private slots:
    void overrunRestartsTheNodeAndTheCommentSaysWhy_data();
    void overrunRestartsTheNodeAndTheCommentSaysWhy();
    void aStepOverItsMemoryRestartsTheNodeAsTheBatchScriptWould();
    void aStepOnAnotherNodeThanTheBatchHostRestartsThatNodeAndTheCommentSaysWhy();
};

void MemoryOverrunTest::overrunRestartsTheNodeAndTheCommentSaysWhy_data()
{
    // How the node sees the overrun: the best limits this machine has (a cgroup's OOM kill
    // where there is one), and the polling of RSS without cgroups.
    QTest::addColumn<QString>("limits");
    QTest::newRow("auto") << QStringLiteral("auto");
    QTest::newRow("rlimit polling") << QStringLiteral("rlimit");
}

void MemoryOverrunTest::overrunRestartsTheNodeAndTheCommentSaysWhy()
{
    QFETCH(QString, limits);
    ClusterFixture cluster;
    QVERIFY(setRebootPolicy(cluster));
    // The requeued bystander waits cred_expire + 1 s (BeginTime) before it runs again.
    QVERIFY(cluster.setSlurmConf(QStringLiteral("AuthInfo"), QStringLiteral("cred_expire=5")));
    if (!cluster.up({QStringLiteral("--limits"), limits})) {
        if (cluster.lastError().contains(QStringLiteral("--limits"))) {
            QSKIP(qPrintable(cluster.lastError().trimmed()));
        }
        QFAIL(qPrintable(cluster.lastError()));
    }

    // Two bystanders on cn01, then the job that goes over its 100M there.
    QCOMPARE(cluster.shell(QStringLiteral("sbatch -w cn01 -t 5 --wrap 'sleep 300'")).exitCode, 0);
    QCOMPARE(cluster.shell(QStringLiteral("sbatch -w cn01 -t 5 --no-requeue --wrap 'sleep 300'"))
                 .exitCode,
        0);
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("squeue -h -t R -w cn01 -o %i | wc -l")).out.trimmed(),
        QStringLiteral("2"), 15000);
    const ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -w cn01 -J too-big -o too-big.out --mem=100M -t 5 --wrap \"python3 -c 'import "
        "time; a = bytearray(400*1024*1024); time.sleep(5)'\""));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 3\n"));

    // The node restarts: down with Slurm's reason, then back a few seconds later.
    QTRY_VERIFY_WITH_TIMEOUT(cluster.shell(QStringLiteral("sinfo -R -h -o '%N %E'"))
                                 .out.contains(QStringLiteral("cn01 Node unexpectedly rebooted")),
        15000);
    QTRY_COMPARE_WITH_TIMEOUT(
        sacctField(cluster, 3, "State"), QStringLiteral("CANCELLED by 0"), 15000);
    QCOMPARE(sacctField(cluster, 3, "ExitCode"), QStringLiteral("0:0"));
    QCOMPARE(sacctField(cluster, 2, "State"), QStringLiteral("NODE_FAIL"));
    // The site writes the cause once the node is back.
    QTRY_COMPARE_WITH_TIMEOUT(
        sacctField(cluster, 3, "Comment"), QString::fromUtf8(kOverrun), 15000);
    QVERIFY(
        !cluster.shell(QStringLiteral("sinfo -R -h -o %N")).out.contains(QStringLiteral("cn01")));
    const ShellResult show = cluster.shell(QStringLiteral("scontrol show job 3"));
    QVERIFY2(
        show.out.contains(QStringLiteral("JobState=CANCELLED Reason=None")), qPrintable(show.out));
    QVERIFY2(show.out.contains(QStringLiteral("   Comment=") + QString::fromUtf8(kOverrun)),
        qPrintable(show.out));
    // Slurm saw no OOM: no oom-kill notice in the output.
    QVERIFY(!readTextFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("too-big.out")))
                 .contains(QStringLiteral("oom")));
    // The requeued bystander runs again on cn01 once it is back.
    QTRY_VERIFY_WITH_TIMEOUT(cluster.shell(QStringLiteral("scontrol show job 1"))
                                 .out.contains(QStringLiteral("JobState=RUNNING")),
        15000);
    QVERIFY(cluster.shell(QStringLiteral("scontrol show job 1"))
                .out.contains(QStringLiteral("Restarts=1")));
    QCOMPARE(cluster.shell(QStringLiteral("scancel 1")).exitCode, 0);
}

void MemoryOverrunTest::aStepOverItsMemoryRestartsTheNodeAsTheBatchScriptWould()
{
    ClusterFixture cluster;
    QVERIFY(setRebootPolicy(cluster));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // The batch script stays small; its srun step goes over the job's 100M.
    const ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -w cn01 -o step.out --mem=100M -t 5 --wrap \"srun python3 -c 'import time; "
        "a = bytearray(400*1024*1024); time.sleep(5)'; sleep 30\""));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\n"));
    QTRY_COMPARE_WITH_TIMEOUT(
        sacctField(cluster, 1, "State"), QStringLiteral("CANCELLED by 0"), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(
        sacctField(cluster, 1, "Comment"), QString::fromUtf8(kOverrun), 15000);
    // Slurm saw no OOM: no oom-kill notice, and the step is not OUT_OF_MEMORY.
    QVERIFY(!readTextFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("step.out")))
                 .contains(QStringLiteral("oom")));
    QVERIFY(!cluster.shell(QStringLiteral("sacct -n -P -j 1 -o State"))
                 .out.contains(QStringLiteral("OUT_OF_MEMORY")));
}

void MemoryOverrunTest::aStepOnAnotherNodeThanTheBatchHostRestartsThatNodeAndTheCommentSaysWhy()
{
    ClusterFixture cluster;
    QVERIFY(setRebootPolicy(cluster));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // The batch script runs on cn01; its step on cn02 goes over the job's 100M there.
    const ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -N2 -w cn[01-02] -o step.out --mem=100M -t 5 --wrap \"srun -w cn02 -N1 -n1 "
        "python3 -c 'import time; a = bytearray(400*1024*1024); time.sleep(5)'; sleep 300\""));
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\n"));
    QTRY_VERIFY_WITH_TIMEOUT(cluster.shell(QStringLiteral("sinfo -R -h -o '%N %E'"))
                                 .out.contains(QStringLiteral("cn02 Node unexpectedly rebooted")),
        20000);
    // As when the batch host restarts: CANCELLED by root, and the cause once cn02 is back.
    QTRY_COMPARE_WITH_TIMEOUT(
        sacctField(cluster, 1, "State"), QStringLiteral("CANCELLED by 0"), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(sacctField(cluster, 1, "Comment"),
        QStringLiteral(
            "Memory overrun: job exceeded its 100M memory allocation; node cn02 rebooted"),
        15000);
    QVERIFY(
        !cluster.shell(QStringLiteral("sinfo -R -h -o %N")).out.contains(QStringLiteral("cn01")));
}

QTEST_GUILESS_MAIN(MemoryOverrunTest)
#include "memory_overrun_test.moc"
