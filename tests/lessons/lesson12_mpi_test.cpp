// Lesson 12 (MPI) walked through on a real cluster, both ways: what a student might do wrong
// (running the script on the login node, one allocation on a single node) leaves its steps
// open with the lesson's explanation; the right commands complete it. Real mpirun, mpi4py.
#include "cluster_fixture.h"

#include <QTest>

namespace {

ShellResult lesson(const ClusterFixture &c, const QStringList &args)
{
    return c.minicluster(
        QStringList{QStringLiteral("lesson"), QStringLiteral("--lang"), QStringLiteral("en")}
        + args);
}

} // namespace

class Lesson12MpiTest : public QObject {
    Q_OBJECT

private slots:
    void wrongAttemptsFailAndTheRightCommandsCompleteIt();
};

void Lesson12MpiTest::wrongAttemptsFailAndTheRightCommandsCompleteIt()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult start = lesson(cluster, {QStringLiteral("start"), QStringLiteral("12")});
    QVERIFY2(start.exitCode == 0, qPrintable(start.err));
    QVERIFY(start.out.contains(QStringLiteral("copied mpi_pi.sh")));

    // Wrong: the script run on the login node is no job; an allocation on one node only.
    cluster.shell(QStringLiteral("bash mpi_pi.sh"));
    QCOMPARE(cluster.shell(QStringLiteral("salloc -Q -N1 -n2 -t 5 srun hostname")).exitCode, 0);
    ShellResult wrong = lesson(cluster, {QStringLiteral("check")});
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY2(wrong.out.contains(QStringLiteral("[ ] 1. Run the program on two nodes")),
        qPrintable(wrong.out));
    QVERIFY2(wrong.out.contains(QStringLiteral(
                 "Submit the script as it is: sbatch mpi_pi.sh (8 tasks over two nodes).")),
        qPrintable(wrong.out));
    QVERIFY2(
        wrong.out.contains(QStringLiteral("[ ] 3. Try it interactively")), qPrintable(wrong.out));

    // Right: the two batch runs and an allocation on two nodes.
    QCOMPARE(cluster.shell(QStringLiteral("sbatch -W mpi_pi.sh")).exitCode, 0);
    QCOMPARE(cluster.shell(QStringLiteral("sbatch -W --ntasks=1 mpi_pi.sh")).exitCode, 0);
    const ShellResult out = cluster.shell(QStringLiteral("cat mpi-pi-2.out"));
    QVERIFY2(out.out.contains(QStringLiteral("tasks per node: 4(x2) on cn[01-02]")),
        qPrintable(out.out));
    QVERIFY2(out.out.contains(QStringLiteral("rank 7 of 8 on cn02")), qPrintable(out.out));
    QCOMPARE(cluster.shell(QStringLiteral("salloc -Q --nodes=2 --ntasks=4 -t 5 mpirun hostname"))
                 .exitCode,
        0);
    ShellResult done = lesson(cluster, {QStringLiteral("check")});
    QVERIFY2(done.exitCode == 0, qPrintable(done.out + done.err));
    QVERIFY(done.out.contains(QStringLiteral("Lesson complete.")));
}

QTEST_GUILESS_MAIN(Lesson12MpiTest)
#include "lesson12_mpi_test.moc"
