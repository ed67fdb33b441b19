// LSF's commands on a real cluster: bsub's job runs on a node with LSF's variables, bjobs
// follows it to DONE, bkill ends a waiting one.
#include "cluster_fixture.h"

#include <QtTest>

namespace {

const char *const kLsfScript = R"(cat > lsf.sh <<'EOF'
#!/bin/bash
#BSUB -J lsfjob
#BSUB -n 2
#BSUB -W 5
#BSUB -o lsf_%J.out
echo "id=$LSB_JOBID name=$LSB_JOBNAME procs=$LSB_DJOB_NUMPROC hosts=$LSB_HOSTS queue=$LSB_QUEUE"
echo "slurm=$SLURM_JOB_ID marker=${MINICLUSTER_BATCH_SYSTEM:-unset}"
EOF
)";

} // namespace

class LsfPbsTest : public QObject {
    Q_OBJECT

private slots:
    void bsubJobRunsWithLsfVariablesAndBjobsFollowsIt();
};

void LsfPbsTest::bsubJobRunsWithLsfVariablesAndBjobsFollowsIt()
{
    ClusterFixture cluster(QStringLiteral("plain"));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));

    ShellResult submit
        = cluster.shell(QString::fromUtf8(kLsfScript) + QStringLiteral("bsub < lsf.sh"));
    QCOMPARE(submit.err, QString());
    QCOMPARE(submit.out, QStringLiteral("Job <1> is submitted to queue <cpu>.\n"));
    QCOMPARE(submit.exitCode, 0);

    const QString outFile = cluster.homeFile(QStringLiteral("alice"), QStringLiteral("lsf_1.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readTextFile(outFile).contains(QStringLiteral("marker")), 20000);
    QCOMPARE(readTextFile(outFile),
        QStringLiteral("id=1 name=lsfjob procs=2 hosts=cn01 cn01 queue=cpu\n"
                       "slurm=1 marker=unset\n"));

    QTRY_VERIFY_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("bjobs -a 1")).out.contains(QStringLiteral("DONE")), 20000);
    const QStringList rows = outputLines(cluster.shell(QStringLiteral("bjobs -a")).out);
    QCOMPARE(rows.value(0),
        QStringLiteral(
            "JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME"));
    // FROM_HOST is the submitting host (login1 in the bubblewrap sandbox, the machine's name in
    // the plain fallback).
    QVERIFY2(rows.value(1).startsWith(QStringLiteral("1       alice   DONE  cpu        ")),
        qPrintable(rows.value(1)));
    QCOMPARE(rows.value(1).mid(45, 22), QStringLiteral("2*cn01      lsfjob    "));

    ShellResult held = cluster.shell(QStringLiteral("bsub -H -J waiting sleep 60"));
    QCOMPARE(held.out, QStringLiteral("Job <2> is submitted to queue <cpu>.\n"));
    ShellResult pending = cluster.shell(QStringLiteral("bjobs -p"));
    QVERIFY2(pending.out.contains(QStringLiteral("PSUSP")), qPrintable(pending.out));
    ShellResult kill = cluster.shell(QStringLiteral("bkill 2"));
    QCOMPARE(kill.out, QStringLiteral("Job <2> is being terminated\n"));
    QCOMPARE(kill.exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(cluster.shell(QStringLiteral("bjobs"))
                                 .err.contains(QStringLiteral("No unfinished job found")),
        20000);
}

QTEST_GUILESS_MAIN(LsfPbsTest)
#include "lsf_pbs_test.moc"
