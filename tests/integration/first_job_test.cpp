// The walking skeleton end to end: a real cluster, a real batch script, real processes.
#include "cluster_fixture.h"

#include <QRegularExpression>
#include <QtTest>

namespace {

const char *const kHelloScript = R"(cat > hello.sh <<'EOF'
#!/bin/bash
#SBATCH --job-name=hello
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=200M
echo "Hello from $(hostname) job=$SLURM_JOB_ID node=$SLURMD_NODENAME"
echo "this goes to the same file" >&2
EOF
)";

} // namespace

class FirstJobTest : public QObject {
    Q_OBJECT

private slots:
    void batchJobRunsOnAComputeNodeAndIsAccounted_data();
    void batchJobRunsOnAComputeNodeAndIsAccounted();
    void waitingJobShowsPendingThenRunsAndCancelEndsIt();
};

void FirstJobTest::batchJobRunsOnAComputeNodeAndIsAccounted_data()
{
    QTest::addColumn<QString>("sandbox");
    QTest::newRow("bubblewrap sandbox") << QStringLiteral("bubblewrap");
    QTest::newRow("plain fallback") << QStringLiteral("plain");
}

void FirstJobTest::batchJobRunsOnAComputeNodeAndIsAccounted()
{
    QFETCH(QString, sandbox);
    if (sandbox == QStringLiteral("bubblewrap") && !bubblewrapWorks()) {
        QSKIP("bubblewrap with user namespaces is not available on this machine");
    }
    ClusterFixture cluster(sandbox);
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));

    ShellResult who = cluster.shell(QStringLiteral("whoami; hostname"));
    QCOMPARE(who.exitCode, 0);
    QCOMPARE(outputLines(who.out).value(1), QStringLiteral("login1"));

    ShellResult submit
        = cluster.shell(QString::fromUtf8(kHelloScript) + QStringLiteral("sbatch hello.sh"));
    QCOMPARE(submit.err, QString());
    QCOMPARE(submit.out, QStringLiteral("Submitted batch job 1\n"));
    QCOMPARE(submit.exitCode, 0);

    const QString outFile
        = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("hello-1.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(outFile).contains(QStringLiteral("same file")), 10000);
    QCOMPARE(readTextFile(outFile),
        QStringLiteral("Hello from cn01 job=1 node=cn01\nthis goes to the same file\n"));

    QTRY_VERIFY_WITH_TIMEOUT(cluster.shell(QStringLiteral("sacct -X -n -o State -j 1"))
                                 .out.contains(QStringLiteral("COMPLETED")),
        10000);
    ShellResult sacct = cluster.shell(QStringLiteral("sacct -j 1"));
    QCOMPARE(sacct.exitCode, 0);
    const QStringList rows = outputLines(sacct.out);
    QCOMPARE(rows.value(0),
        QStringLiteral("JobID           JobName  Partition    Account  AllocCPUS      State "
                       "ExitCode "));
    QCOMPARE(rows.value(2),
        QStringLiteral("1                 hello        cpu   def-prof          1  COMPLETED "
                       "     0:0 "));
    QCOMPARE(rows.value(3),
        QStringLiteral("1.batch           batch              def-prof          1  COMPLETED "
                       "     0:0 "));
}

void FirstJobTest::waitingJobShowsPendingThenRunsAndCancelEndsIt()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));

    // Four whole-node jobs fill partition cpu; the fifth must wait for Resources.
    ShellResult fill = cluster.shell(QStringLiteral(
        "for i in 1 2 3 4 5; do sbatch -c 4 -J fill$i -o /dev/null --wrap 'sleep 30'; done"));
    QCOMPARE(fill.exitCode, 0);
    QCOMPARE(fill.out.count(QStringLiteral("Submitted batch job")), 5);

    QTRY_COMPARE_WITH_TIMEOUT(
        outputLines(cluster.shell(QStringLiteral("squeue -h -t R -o %i")).out).size(), 4, 10000);
    ShellResult queue = cluster.shell(QStringLiteral("squeue"));
    QCOMPARE(queue.exitCode, 0);
    const QStringList rows = outputLines(queue.out);
    QCOMPARE(rows.value(0),
        QStringLiteral("             JOBID PARTITION     NAME     USER ST       TIME  NODES "
                       "NODELIST(REASON)"));
    QCOMPARE(rows.size(), 6);
    QVERIFY2(rows.value(1).contains(QRegularExpression(
                 QStringLiteral("^ +5 +cpu +fill5 +alice PD +0:00 +1 \\(Resources\\)$"))),
        qPrintable(queue.out));
    QVERIFY2(rows.value(2).contains(
                 QRegularExpression(QStringLiteral("^ +1 +cpu +fill1 +alice  R +0:0\\d +1 cn01$"))),
        qPrintable(queue.out));

    // Cancel a running job: job 5 takes its place.
    ShellResult cancel = cluster.shell(QStringLiteral("scancel 1"));
    QCOMPARE(cancel.exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(cluster.shell(QStringLiteral("squeue -h -j 5 -o %t")).out.trimmed(),
        QStringLiteral("R"), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(cluster.shell(QStringLiteral("sacct -n -X -j 1 -o State"))
                                 .out.contains(QStringLiteral("CANCELLED")),
        10000);
    ShellResult sacct = cluster.shell(QStringLiteral("sacct -j 1 -o JobID,State,ExitCode"));
    QVERIFY2(sacct.out.contains(QStringLiteral("1            CANCELLED+      0:0")),
        qPrintable(sacct.out));
    QVERIFY2(sacct.out.contains(QStringLiteral("1.batch       CANCELLED     0:15")),
        qPrintable(sacct.out));

    // sshare asks the controller for the fair-share tree (issue #6).
    ShellResult sshare = cluster.shell(QStringLiteral("sshare"));
    QCOMPARE(sshare.exitCode, 0);
    QVERIFY2(sshare.out.startsWith(QStringLiteral("Account                    User  RawShares")),
        qPrintable(sshare.out + sshare.err));

    // The launcher itself, typed on the login node, explains where it belongs.
    ShellResult nested = cluster.shell(QStringLiteral("minicluster status"));
    QCOMPARE(nested.exitCode, 2);
    QVERIFY2(nested.err.startsWith(QStringLiteral(
                 "minicluster: this shell is already on the cluster's login node.\n")),
        qPrintable(nested.err));

    // Another user's job cannot be cancelled.
    ShellResult denied = cluster.shell(QStringLiteral("scancel 2"), QStringLiteral("bob"));
    QCOMPARE(denied.err,
        QStringLiteral("scancel: error: Kill job error on job id 2: Access/permission denied\n"));
    QCOMPARE(denied.exitCode, 210);
}

QTEST_GUILESS_MAIN(FirstJobTest)
#include "first_job_test.moc"
