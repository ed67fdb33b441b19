// Nodes and a partition removed from slurm.conf between `minicluster down` and `up`: their jobs
// end as slurmctld ends them at its start (reset_job_bitmaps): NODE_FAIL with Reason NodeDown,
// except a requeueable batch job that lost only its node, which goes back to the queue. None
// is left RUNNING on a node that no longer exists, and each end is in sacct.
#include "cluster_fixture.h"

#include <QFile>
#include <QtTest>

class VanishedConfigTest : public QObject {
    Q_OBJECT
private slots:
    void jobsOfRemovedNodesAndPartitionsEndAsSlurmEndsThem();
};

void VanishedConfigTest::jobsOfRemovedNodesAndPartitionsEndAsSlurmEndsThem()
{
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult submit = cluster.shell(QStringLiteral(
        "sbatch -p gpu --wrap 'sleep 300'; sbatch -w cn04 --wrap 'sleep 300';"
        " sbatch -w cn04 --no-requeue --wrap 'sleep 300'; sbatch -p gpu -H --wrap true;"
        " sbatch -w cn01 --wrap 'sleep 300'"));
    QCOMPARE(submit.out.count(QStringLiteral("Submitted batch job")), 5);
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("squeue -h -t R -o %i | sort | tr '\\n' ' '")).out,
        QStringLiteral("1 2 3 5 "), 30000);
    QCOMPARE(cluster.minicluster({QStringLiteral("down")}).exitCode, 0);

    // The gpu partition and the nodes gpu01, gpu02 and cn04 go; cn01-03 and cpu stay.
    QVERIFY(cluster.setSlurmConf(QStringLiteral("NodeName"),
        QStringLiteral("cn[01-03] CPUs=4 RealMemory=8000 Feature=cpu State=UNKNOWN")));
    QVERIFY(cluster.setSlurmConf(QStringLiteral("PartitionName"),
        QStringLiteral("cpu Nodes=cn[01-03] Default=YES DefaultTime=01:00:00 State=UP")));
    ShellResult up = cluster.minicluster({QStringLiteral("up")});
    QVERIFY2(up.exitCode == 0, qPrintable(up.out + up.err));

    // 1: running in the vanished partition; 3: --no-requeue on a vanished node; 4: pending in
    // the vanished partition. 2 lost only its node: requeued. 5 is lost with `down`, requeued.
    const QString jobs = QStringLiteral("1,2,3,4");
    QTRY_COMPARE_WITH_TIMEOUT(cluster
                                  .shell(QStringLiteral("sacct -X -n -P -o JobID,State -j ") + jobs
                                      + QStringLiteral(" | sort"))
                                  .out,
        QStringLiteral("1|NODE_FAIL\n2|PENDING\n3|NODE_FAIL\n4|NODE_FAIL\n"), 60000);
    for (const char *id : {"1", "3", "4"}) {
        const QString shown
            = cluster.shell(QStringLiteral("scontrol show job ") + QLatin1String(id)).out;
        QVERIFY2(shown.contains(QStringLiteral("JobState=NODE_FAIL Reason=NodeDown")),
            qPrintable(shown));
    }
    // The pending job never ran: no run time, no batch step.
    QCOMPARE(cluster.shell(QStringLiteral("sacct -n -P -o JobID,Elapsed -j 4")).out,
        QStringLiteral("4|00:00:00\n"));
    QCOMPARE(cluster.shell(QStringLiteral("squeue -h -t R,CG -o %N -j 1,2,3,4")).out, QString());

    const QString log = readTextFile(cluster.dir() + QStringLiteral("/log/ctld.log"));
    QVERIFY2(log.contains(QStringLiteral("Invalid partition (gpu) for JobId=1")), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("Invalid nodes (cn04) for JobId=3")), qPrintable(log));
}

QTEST_GUILESS_MAIN(VanishedConfigTest)
#include "vanished_config_test.moc"
