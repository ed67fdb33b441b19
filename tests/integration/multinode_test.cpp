// Jobs over several nodes as Slurm 22.05 lays them out (issue #16): tasks that fit no single
// node fill the first nodes (-n6 on 4-CPU nodes holds 4,2), the split uses the nodes of the
// job's own partition, and srun inside the job runs its tasks on every node. The expected
// layouts were read from real Slurm on the same kind of nodes. sstat sees the batch, extern and
// numbered steps of a running job.
#include "cluster_fixture.h"

#include <QRegularExpression>
#include <QtTest>

#include <unistd.h>

class MultinodeTest : public QObject {
    Q_OBJECT

private slots:
    void tasksBeyondOneNodeFillTheFirstNodesAsSlurmDoes();
    void sstatShowsTheBatchExternAndNumberedStepsOfARunningJob();
    void aStepOverItsMemoryEndsOutOfMemoryWithSlurmstepdsWords_data();
    void aStepOverItsMemoryEndsOutOfMemoryWithSlurmstepdsWords();
    void nodeNamesResolveFromTheLoginNodeAndFromOtherNodes();
};

void MultinodeTest::tasksBeyondOneNodeFillTheFirstNodesAsSlurmDoes()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult run = cluster.shell(QStringLiteral(
        "cat > six.sh <<'EOF'\n"
        "#!/bin/bash\n"
        "env | grep -E '^SLURM_(TASKS_PER_NODE|JOB_CPUS_PER_NODE|NTASKS|JOB_NODELIST)=' | sort\n"
        "srun printenv SLURMD_NODENAME | sort | uniq -c\n"
        "srun -n4 printenv SLURMD_NODENAME | sort | uniq -c\n"
        "EOF\n"
        "sbatch -W -n6 -o six.out six.sh; cat six.out\n"
        "scontrol show job 1 | grep -o 'NumCPUs=[0-9]*'\n"
        "sacct -j 1 -n -P -o JobID,AllocCPUS,NodeList\n"
        "sbatch -W -p gpu -n9 -o gpu.out --wrap 'echo $SLURM_JOB_CPUS_PER_NODE "
        "$SLURM_TASKS_PER_NODE $SLURM_JOB_NODELIST'; cat gpu.out\n"
        "salloc -Q -N2 -n4 bash -c 'echo $SLURM_TASKS_PER_NODE; srun printenv SLURMD_NODENAME "
        "| sort | uniq -c'\n"));
    QCOMPARE(run.err, QString());
    QCOMPARE(run.exitCode, 0);
    QStringList lines;
    for (const QString &line : outputLines(run.out)) {
        lines.append(line.simplified());
    }
    QCOMPARE(lines,
        (QStringList{QStringLiteral("Submitted batch job 1"),
            QStringLiteral("SLURM_JOB_CPUS_PER_NODE=4,2"),
            QStringLiteral("SLURM_JOB_NODELIST=cn[01-02]"), QStringLiteral("SLURM_NTASKS=6"),
            QStringLiteral("SLURM_TASKS_PER_NODE=4,2"),
            // srun with the job's six tasks: 4 on cn01, 2 on cn02
            QStringLiteral("4 cn01"), QStringLiteral("2 cn02"),
            // srun -n4: block distribution, which fits both nodes
            QStringLiteral("2 cn01"), QStringLiteral("2 cn02"), QStringLiteral("NumCPUs=6"),
            QStringLiteral("1|6|cn[01-02]"), QStringLiteral("1.batch|4|cn01"),
            // a step without --exact or -c holds all of the job's CPUs on its nodes (Slurm 22.05)
            QStringLiteral("1.0|6|cn[01-02]"), QStringLiteral("1.1|6|cn[01-02]"),
            QStringLiteral("Submitted batch job 2"),
            // the gpu partition's nodes have 8 CPUs: 8,1 (not the cluster's widest)
            QStringLiteral("8,1 8,1 gpu[01-02]"),
            // -N2 -n4: one task on each node, the rest fill the first (Slurm's 3,1)
            QStringLiteral("3,1"), QStringLiteral("3 cn01"), QStringLiteral("1 cn02")}));
}

void MultinodeTest::sstatShowsTheBatchExternAndNumberedStepsOfARunningJob()
{
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("PrologFlags"), QStringLiteral("Contain")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // The batch script holds 60 MB itself; its step 0 sleeps on both nodes.
    ShellResult run = cluster.shell(QStringLiteral(
        "sbatch -N2 -o /dev/null --wrap 'srun sleep 20 & python3 -c \"b = bytearray(60 * "
        "2**20); import time; time.sleep(20)\"' >/dev/null\n"
        "for i in $(seq 50); do sstat -n -P -j 1.batch -o MaxRSS | grep -qv '^0K' && break; "
        "sleep 0.2; done\n"
        "sstat -n -P -j 1.batch -o JobID,NTasks,Nodelist,MaxRSS; echo rc=$?\n"
        "sstat -n -P -j 1.extern -o JobID,NTasks,Nodelist; sstat -n -P -j 1 -o JobID,NTasks\n"
        "sstat -n -P -a -j 1 -o JobID; sstat -n -j 1.5 -o JobID; echo rc=$?\n"
        "scancel 1"));
    QCOMPARE(run.err, QStringLiteral("sstat: error: StepId=1.5 not found running.\n"));
    const QStringList lines = outputLines(run.out);
    QCOMPARE(lines.size(), 8);
    const QStringList batch = lines.value(0).split(QLatin1Char('|'));
    QCOMPARE(batch.mid(0, 3),
        (QStringList{QStringLiteral("1.batch"), QStringLiteral("1"), QStringLiteral("cn01")}));
    QVERIFY2(batch.value(3).chopped(1).toLongLong() > 60 * 1024, qPrintable(run.out));
    QCOMPARE(lines.mid(1),
        (QStringList{QStringLiteral("rc=0"), QStringLiteral("1.extern|2|cn[01-02]"),
            QStringLiteral("1.0|2"), QStringLiteral("1.batch"), QStringLiteral("1.extern"),
            QStringLiteral("1.0"), QStringLiteral("rc=0")}));
}

void MultinodeTest::aStepOverItsMemoryEndsOutOfMemoryWithSlurmstepdsWords_data()
{
    // A cgroup's OOM kill where the machine has one, and the daemon's polling without.
    QTest::addColumn<QString>("limits");
    QTest::newRow("auto") << QStringLiteral("auto");
    QTest::newRow("rlimit polling") << QStringLiteral("rlimit");
}

void MultinodeTest::aStepOverItsMemoryEndsOutOfMemoryWithSlurmstepdsWords()
{
    QFETCH(QString, limits);
    ClusterFixture cluster;
    if (!cluster.up({QStringLiteral("--limits"), limits})) {
        if (cluster.lastError().contains(QStringLiteral("--limits"))) {
            QSKIP(qPrintable(cluster.lastError().trimmed()));
        }
        QFAIL(qPrintable(cluster.lastError()));
    }
    const QString big
        = QStringLiteral("python3 -c \"b = bytearray(600 * 2**20); import time; time.sleep(3)\"");
    ShellResult run = cluster.shell(
        QStringLiteral("sbatch -W --mem=200M -o oom.out --wrap 'srun %1; echo srun=$?' "
                       ">/dev/null; cat oom.out; sacct -n -P -j 1 -o JobID,State,ExitCode\n"
                       "srun --mem=200M %1; echo srun=$?; sacct -n -P -j 2 -o JobID,State,ExitCode")
            .arg(big));
    QCOMPARE(run.exitCode, 0);
    // As real Slurm 22.05 prints and records it (cgroup); the polling path says what it saw.
    const QString notice = limits == QStringLiteral("rlimit")
        ? QStringLiteral("slurmstepd-cn01: error: StepId=%1.0 exceeded memory limit (")
        : QStringLiteral("slurmstepd-cn01: error: Detected 1 oom-kill event(s) in StepId=%1.0. "
                         "Some of your processes may have been killed by the cgroup "
                         "out-of-memory handler.");
    const QStringList out = outputLines(run.out);
    QCOMPARE(out.size(), 9);
    QCOMPARE(out.value(0), QStringLiteral("srun: error: cn01: task 0: Out Of Memory"));
    QVERIFY2(out.value(1).startsWith(notice.arg(1)), qPrintable(run.out));
    QCOMPARE(out.mid(2, 4),
        (QStringList{QStringLiteral("srun=1"), QStringLiteral("1|COMPLETED|0:0"),
            QStringLiteral("1.batch|COMPLETED|0:0"), QStringLiteral("1.0|OUT_OF_MEMORY|0:125")}));
    QCOMPARE(out.value(6), QStringLiteral("srun=1"));
    QCOMPARE(out.mid(7, 2),
        (QStringList{
            QStringLiteral("2|OUT_OF_MEMORY|0:125"), QStringLiteral("2.0|OUT_OF_MEMORY|0:125")}));
    const QStringList err = outputLines(run.err);
    QCOMPARE(err.value(0), QStringLiteral("srun: error: cn01: task 0: Out Of Memory"));
    QVERIFY2(err.value(1).startsWith(notice.arg(2)), qPrintable(run.err));
}

void MultinodeTest::nodeNamesResolveFromTheLoginNodeAndFromOtherNodes()
{
    if (!bubblewrapWorks()) {
        QSKIP("the node image's /etc/hosts needs the bubblewrap sandbox");
    }
    ClusterFixture cluster(QStringLiteral("bubblewrap"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult run = cluster.shell(
        QStringLiteral("getent hosts cn01 gpu02; srun -w cn02 getent hosts cn01 login1"));
    QCOMPARE(run.err, QString());
    const QStringList lines = outputLines(run.out).replaceInStrings(
        QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
    if (::geteuid() == 0) {
        // A network per node (mc/emu/node_network.h): 10.N.0.K, login1 the host's .254.
        const QString net = lines.value(0).section(QLatin1Char('.'), 0, 2);
        QVERIFY2(net.startsWith(QStringLiteral("10.")), qPrintable(run.out));
        QCOMPARE(lines,
            (QStringList{net + QStringLiteral(".1 cn01"), net + QStringLiteral(".6 gpu02"),
                net + QStringLiteral(".1 cn01"), net + QStringLiteral(".254 login1")}));
    } else {
        // One shared network without root: every name is the loopback address.
        QCOMPARE(lines,
            (QStringList{QStringLiteral("127.0.0.1 cn01"), QStringLiteral("127.0.0.1 gpu02"),
                QStringLiteral("127.0.0.1 cn01"), QStringLiteral("127.0.0.1 login1")}));
    }
    // No job of alice's on cn01: refused as pam_slurm_adopt does (more in node_ssh_test.cpp).
    ShellResult ssh = cluster.shell(QStringLiteral("ssh alice@cn01 hostname"));
    QCOMPARE(ssh.exitCode, 255);
    QCOMPARE(ssh.err,
        QStringLiteral("Access denied by pam_slurm_adopt: you have no active jobs on this node\n"
                       "Connection closed by %1 port 22\n")
            .arg(lines.value(0).section(QLatin1Char(' '), 0, 0)));
}

QTEST_GUILESS_MAIN(MultinodeTest)
#include "multinode_test.moc"
