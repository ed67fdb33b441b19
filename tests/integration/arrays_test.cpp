// Array tasks addressed as Slurm's commands address them, on a real cluster (issue #17):
// scancel 1_2 and "1_[3-4]", scontrol release/hold of one task, squeue -j 1_1, the pending rest
// shown as 1_[1,5], and sacct -j listing the tasks in task order.
#include "cluster_fixture.h"

#include <QtTest>

class ArraysTest : public QObject {
    Q_OBJECT

private slots:
    void tasksAreCancelledHeldAndListedOneByOne();
};

void ArraysTest::tasksAreCancelledHeldAndListedOneByOne()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // Held: the five tasks stay one pending record.
    QCOMPARE(cluster.shell(QStringLiteral("sbatch -H -a 1-5 -o /dev/null --wrap true")).out,
        QStringLiteral("Submitted batch job 1\n"));
    const ShellResult cancel = cluster.shell(QStringLiteral("scancel 1_2 '1_[3-4]'"));
    QCOMPARE(cancel.exitCode, 0);
    QCOMPARE(cancel.err, QString());
    QCOMPARE(cluster.shell(QStringLiteral("squeue -h -o '%i %t %r'")).out,
        QStringLiteral("1_[1,5] PD JobHeldUser\n"));
    QCOMPARE(cluster.shell(QStringLiteral("squeue -h -j 1_5 -o '%i %t'")).out,
        QStringLiteral("1_5 PD\n"));
    const ShellResult unknown = cluster.shell(QStringLiteral("scontrol release 1_9"));
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY2(unknown.err.startsWith(QStringLiteral("Invalid job id specified for job 1_9\n")),
        qPrintable(unknown.err));

    // The one task released runs and completes; the other stays held.
    QCOMPARE(cluster.shell(QStringLiteral("scontrol release 1_5")).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -j 1_5 -o JobID,State")).out.simplified(),
        QStringLiteral("1_5 COMPLETED"), 15000);
    QCOMPARE(cluster.shell(QStringLiteral("squeue -h -j 1_1 -o '%i %t %r'")).out,
        QStringLiteral("1_1 PD JobHeldUser\n"));
    // The last pending task takes the array's own id (1); sacct -j 1 lists every task in task
    // order, whatever job id each got (CANCELLED+: "CANCELLED by 1001" cut to the column).
    QCOMPARE(cluster.shell(QStringLiteral("scancel 1_1")).exitCode, 0);
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -j 1 -o JobID,JobIDRaw,State")).out.simplified(),
        QStringLiteral("1_1 1 CANCELLED+ 1_2 2 CANCELLED+ 1_3 3 CANCELLED+ 1_4 4 CANCELLED+ "
                       "1_5 5 COMPLETED"),
        10000);
}

QTEST_GUILESS_MAIN(ArraysTest)
#include "arrays_test.moc"
