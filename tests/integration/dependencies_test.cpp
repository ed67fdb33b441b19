// Dependencies on a real cluster (issue #17): a job that depends on a failed job stays pending
// with DependencyNeverSatisfied after its parent has left the controller's memory (MinJobAge)
// and after the controller restarts; cycles are refused with Slurm's words.
#include "cluster_fixture.h"

#include <QtTest>

class DependenciesTest : public QObject {
    Q_OBJECT

private slots:
    void neverSatisfiedSurvivesMinJobAgeAndARestart();
    void cyclesAreRefused();
};

namespace {

// `squeue -h -j ID -o FORMAT` of one job, trimmed; empty once the controller forgot it.
QString squeueOf(const ClusterFixture &cluster, const QString &id, const QString &format)
{
    return cluster
        .shell(QStringLiteral("squeue -h -t all -j %1 -o '%2' 2>/dev/null").arg(id, format))
        .out.trimmed();
}

// Submits a job that runs `true` and waits until it has COMPLETED: scheduling passes have run
// since the call. The caller checks QTest::currentTestFailed().
void awaitPasses(const ClusterFixture &cluster)
{
    const QString id
        = cluster.shell(QStringLiteral("sbatch --parsable -o /dev/null --wrap true")).out.trimmed();
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -o State -j ") + id).out.trimmed(),
        QStringLiteral("COMPLETED"), 15000);
}

} // namespace

void DependenciesTest::neverSatisfiedSurvivesMinJobAgeAndARestart()
{
    ClusterFixture cluster;
    QVERIFY(cluster.setSlurmConf(QStringLiteral("MinJobAge"), QStringLiteral("2")));
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const ShellResult submit = cluster.shell(QStringLiteral(
        "E=$(sbatch --parsable -o /dev/null --wrap 'exit 3'); "
        "C=$(sbatch --parsable -o /dev/null --wrap true); "
        "sbatch -J ok -o never.out -d afterok:$E --wrap 'echo I should never run'; "
        "sbatch -J notok -o never.out -d afternotok:$C --wrap 'echo I should never run'; "
        "sbatch -J any -o any.out -d afterany:$E --wrap 'echo ran'"));
    QCOMPARE(submit.out,
        QStringLiteral("Submitted batch job 3\nSubmitted batch job 4\nSubmitted batch job 5\n"));
    QTRY_COMPARE_WITH_TIMEOUT(
        cluster.shell(QStringLiteral("sacct -n -X -o State -j 1,2,5")).out.simplified(),
        QStringLiteral("FAILED COMPLETED COMPLETED"), 15000);
    const QString never = QStringLiteral("PD DependencyNeverSatisfied");
    QTRY_COMPARE_WITH_TIMEOUT(
        squeueOf(cluster, QStringLiteral("3"), QStringLiteral("%t %r")), never, 10000);
    QCOMPARE(squeueOf(cluster, QStringLiteral("3"), QStringLiteral("%E")),
        QStringLiteral("afterok:1(failed)"));
    QCOMPARE(squeueOf(cluster, QStringLiteral("4"), QStringLiteral("%t %r")), never);

    // MinJobAge=2: the parents leave the controller's memory (squeue no longer knows them).
    QTRY_COMPARE_WITH_TIMEOUT(
        squeueOf(cluster, QStringLiteral("1"), QStringLiteral("%i")), QString(), 15000);
    QTRY_COMPARE_WITH_TIMEOUT(
        squeueOf(cluster, QStringLiteral("2"), QStringLiteral("%i")), QString(), 15000);
    awaitPasses(cluster);
    QVERIFY(!QTest::currentTestFailed());
    QCOMPARE(squeueOf(cluster, QStringLiteral("3"), QStringLiteral("%t %r")), never);
    QCOMPARE(squeueOf(cluster, QStringLiteral("3"), QStringLiteral("%E")),
        QStringLiteral("afterok:1(failed)"));
    QCOMPARE(squeueOf(cluster, QStringLiteral("4"), QStringLiteral("%t %r")), never);

    // A restarted controller reloads only the unfinished jobs; the outcome holds.
    QCOMPARE(cluster.minicluster({QStringLiteral("down")}).exitCode, 0);
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    awaitPasses(cluster);
    QVERIFY(!QTest::currentTestFailed());
    QCOMPARE(squeueOf(cluster, QStringLiteral("3"), QStringLiteral("%t %r")), never);
    QCOMPARE(squeueOf(cluster, QStringLiteral("4"), QStringLiteral("%t %r")), never);
    QVERIFY(!readTextFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("never.out")))
                 .contains(QStringLiteral("never run")));
    QCOMPARE(readTextFile(cluster.homeFile(QStringLiteral("alice"), QStringLiteral("any.out"))),
        QStringLiteral("ran\n"));
}

void DependenciesTest::cyclesAreRefused()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const ShellResult submit = cluster.shell(QStringLiteral(
        "A=$(sbatch --parsable -H -o /dev/null --wrap true); "
        "B=$(sbatch --parsable -H -o /dev/null -d afterok:$A --wrap true); echo $A $B"));
    QCOMPARE(submit.out, QStringLiteral("1 2\n"));
    ShellResult cycle
        = cluster.shell(QStringLiteral("scontrol update jobid=1 dependency=afterok:2"));
    QCOMPARE(cycle.exitCode, 1);
    QCOMPARE(cycle.err, QStringLiteral("Circular job dependency for job 1\n"));
    ShellResult self
        = cluster.shell(QStringLiteral("scontrol update jobid=2 dependency=afterany:2"));
    QCOMPARE(self.exitCode, 1);
    QCOMPARE(self.err, QStringLiteral("Circular job dependency for job 2\n"));
    QCOMPARE(
        squeueOf(cluster, QStringLiteral("1"), QStringLiteral("%E")), QStringLiteral("(null)"));
    // sbatch naming the id it is about to get.
    ShellResult own = cluster.shell(QStringLiteral("sbatch -d afterok:3 --wrap true"));
    QCOMPARE(own.exitCode, 1);
    QCOMPARE(own.err,
        QStringLiteral("sbatch: error: Batch job submission failed: Circular job dependency\n"));
    QCOMPARE(cluster.shell(QStringLiteral("scontrol update jobid=1 dependency=")).exitCode, 0);
}

QTEST_GUILESS_MAIN(DependenciesTest)
#include "dependencies_test.moc"
