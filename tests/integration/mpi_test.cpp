// Open MPI unmodified on a two-node allocation (issue #16): mpirun reads the allocation from
// SLURM_* variables and starts its daemons with `srun --ntasks-per-node=1 --kill-on-bad-exit
// --cpu_bind=none ... orted`; the ranks then talk over the nodes' network. Real mpirun, real
// mpi4py, real processes on cn01 and cn02.
#include "cluster_fixture.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

class MpiTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void mpirunInSallocPlacesRanksOnBothNodes();
    void mpirunInABatchJobPlacesRanksOnBothNodes();
    void mpirunTypedInSallocsShellOnTheNodePlacesRanksOnBothNodes();
};

namespace {

// An mpi4py program whose ranks also agree on a sum: the message passing itself is checked.
const QString kHello = QStringLiteral(
    "cat > hello.py <<'EOF'\n"
    "from mpi4py import MPI\n"
    "c = MPI.COMM_WORLD\n"
    "total = c.allreduce(c.Get_rank(), op=MPI.SUM)\n"
    "print(f'rank {c.Get_rank()} of {c.Get_size()} on {MPI.Get_processor_name()} sum {total}')\n"
    "EOF\n");

// -N2 -n4 holds 3 CPUs of the first node and 1 of the second, as Slurm lays it out
// (SLURM_TASKS_PER_NODE=3,1), and mpirun places its ranks by that.
const QStringList kRanks{QStringLiteral("rank 0 of 4 on cn01 sum 6"),
    QStringLiteral("rank 1 of 4 on cn01 sum 6"), QStringLiteral("rank 2 of 4 on cn01 sum 6"),
    QStringLiteral("rank 3 of 4 on cn02 sum 6")};

} // namespace

void MpiTest::init()
{
    if (!QFile::exists(QStringLiteral("/usr/bin/mpirun"))
        || !QFile::exists(QStringLiteral("/usr/lib/python3/dist-packages/mpi4py/__init__.py"))) {
        QFAIL("Open MPI and mpi4py are not installed (Debian: openmpi-bin python3-mpi4py; "
              "scripts/deps.sh names them)");
    }
}

void MpiTest::mpirunInSallocPlacesRanksOnBothNodes()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult hosts = cluster.shell(QStringLiteral("salloc -Q -N2 -n4 mpirun hostname | sort"));
    QCOMPARE(hosts.err, QString());
    QCOMPARE(hosts.exitCode, 0);
    QCOMPARE(outputLines(hosts.out),
        (QStringList{QStringLiteral("cn01"), QStringLiteral("cn01"), QStringLiteral("cn01"),
            QStringLiteral("cn02")}));

    ShellResult hello = cluster.shell(
        kHello + QStringLiteral("salloc -Q -N2 -n4 mpirun /usr/bin/python3 hello.py | sort"));
    QCOMPARE(hello.err, QString());
    QCOMPARE(hello.exitCode, 0);
    QCOMPARE(outputLines(hello.out), kRanks);
}

void MpiTest::mpirunInABatchJobPlacesRanksOnBothNodes()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    // mpirun runs in the batch script on cn01 and starts one daemon, on cn02, through srun.
    ShellResult run = cluster.shell(kHello
        + QStringLiteral("sbatch -W -N2 --ntasks=4 -o mpi.out --wrap 'mpirun hostname | sort; "
                         "mpirun /usr/bin/python3 hello.py | sort'; echo sbatch=$?; cat mpi.out; "
                         "sacct -j 1 -n -P -o JobID,State"));
    QCOMPARE(run.exitCode, 0);
    QStringList expected{QStringLiteral("Submitted batch job 1"), QStringLiteral("sbatch=0"),
        QStringLiteral("cn01"), QStringLiteral("cn01"), QStringLiteral("cn01"),
        QStringLiteral("cn02")};
    expected += kRanks;
    expected += QStringList{QStringLiteral("1|COMPLETED"), QStringLiteral("1.batch|COMPLETED"),
        QStringLiteral("1.0|COMPLETED"), QStringLiteral("1.1|COMPLETED")};
    QCOMPARE(outputLines(run.out), expected);
}

void MpiTest::mpirunTypedInSallocsShellOnTheNodePlacesRanksOnBothNodes()
{
    // The default preset's salloc opens its shell on cn01 (use_interactive_step); that step
    // keeps the allocation's SLURM_NTASKS, SLURM_NNODES and SLURM_TASKS_PER_NODE (srun -E, as
    // Slurm's InteractiveStepOptions), which mpirun reads to place its four ranks.
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    ShellResult run = cluster.shell(kHello
        + QStringLiteral("(sleep 2; echo 'mpirun /usr/bin/python3 hello.py | sort > r && mv r "
                         "ranks.txt'; until [ -s ranks.txt ]; do sleep 0.2; done; echo exit) | "
                         "script -qfec 'salloc -N2 -n4 -t 5' /dev/null; cat ranks.txt"));
    QCOMPARE(run.exitCode, 0);
    QVERIFY2(run.out.contains(QStringLiteral("salloc: Relinquishing job allocation 1")),
        qPrintable(run.out));
    QCOMPARE(outputLines(run.out).mid(outputLines(run.out).size() - 4), kRanks);
}

QTEST_GUILESS_MAIN(MpiTest)
#include "mpi_test.moc"
