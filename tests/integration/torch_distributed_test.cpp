// Data parallelism over two nodes (issue #15, seed 003): `srun -N2 --gpus-per-node=1` starts
// one task per GPU node, and torch.distributed's gloo backend (the CPU one: the GPUs are
// emulated) joins them into one process group through the first node's address. Real torch
// from Debian's python3-torch, real processes on gpu01 and gpu02, a real all_reduce.
#include "cluster_fixture.h"

#include <QFile>
#include <QtTest>

class TorchDistributedTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void srunJoinsTwoNodesInOneGlooProcessGroup();
    void aBatchJobOfTwoNodesTrainsOneModelOnBoth();
};

namespace {

// The start of both programs: the task's rank from Slurm, and the process group joined through
// the allocation's first node, on a port taken from the job id (one job after another does not
// meet the last one's socket).
const QString kJoin = QStringLiteral(
    "import os, socket, subprocess\n"
    "import torch\n"
    "import torch.distributed as dist\n"
    "rank, world = int(os.environ['SLURM_PROCID']), int(os.environ['SLURM_NTASKS'])\n"
    "first = subprocess.run(['scontrol', 'show', 'hostnames', os.environ['SLURM_JOB_NODELIST']],\n"
    "                       capture_output=True, text=True, check=True).stdout.split()[0]\n"
    "port = 20000 + int(os.environ['SLURM_JOB_ID']) % 20000\n"
    "dist.init_process_group('gloo', init_method=f'tcp://{first}:{port}', rank=rank,\n"
    "                        world_size=world)\n");

// An all_reduce of rank + 1 (1 + 2 = 3 on both nodes) and what the task sees of its GPU.
const QString kProgram = QStringLiteral("cat > dist.py <<'EOF'\n") + kJoin
    + QStringLiteral(
        "t = torch.tensor([rank + 1.0])\n"
        "dist.all_reduce(t)\n"
        "print(f'rank {rank} of {world} on {socket.gethostname()} sum {t.item():.0f} '\n"
        "      f'gpu {os.environ.get(\"CUDA_VISIBLE_DEVICES\")} cuda "
        "{torch.cuda.is_available()}')\n"
        "dist.destroy_process_group()\n"
        "EOF\n");

// DistributedDataParallel over the two nodes: after one step on different data, both
// replicas hold the same weights (the gradients were averaged across the nodes).
const QString kTrain = QStringLiteral("cat > ddp.py <<'EOF'\n") + kJoin
    + QStringLiteral(
        "from torch.nn.parallel import DistributedDataParallel\n"
        "torch.manual_seed(0)\n"
        "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "model = DistributedDataParallel(torch.nn.Linear(4, 1).to(device))\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "torch.manual_seed(100 + rank)  # each rank its own batch\n"
        "x, y = torch.randn(8, 4), torch.randn(8, 1)\n"
        "torch.nn.functional.mse_loss(model(x), y).backward()\n"
        "opt.step()\n"
        "w = torch.cat([p.detach().flatten() for p in model.parameters()])\n"
        "print('weights', ' '.join(f'{v:.6f}' for v in w.tolist()), 'device', device)\n"
        "dist.destroy_process_group()\n"
        "EOF\n"
        "cat > ddp.sh <<'EOF'\n"
        "#!/bin/bash\n"
        "#SBATCH -p gpu -N2 --ntasks-per-node=1 --gpus-per-node=1 -c1 --mem=2000M -t 10\n"
        "#SBATCH -o ddp-%j.out\n"
        "module load python scipy-stack pytorch\n"
        "srun python ddp.py\n"
        "EOF\n");

} // namespace

void TorchDistributedTest::init()
{
    if (!QFile::exists(QStringLiteral("/usr/lib/python3/dist-packages/torch/__init__.py"))) {
        QFAIL("torch is not installed (Debian: python3-torch; scripts/deps.sh names it)");
    }
}

void TorchDistributedTest::srunJoinsTwoNodesInOneGlooProcessGroup()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const ShellResult r = cluster.shell(kProgram
            + QStringLiteral("srun -p gpu -N2 --gpus-per-node=1 -t 10 --mem=2000M "
                             "/usr/bin/python3 dist.py | sort"),
        QString(), 240000);
    QCOMPARE(r.err, QString());
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(outputLines(r.out),
        (QStringList{QStringLiteral("rank 0 of 2 on gpu01 sum 3 gpu 0 cuda False"),
            QStringLiteral("rank 1 of 2 on gpu02 sum 3 gpu 0 cuda False")}));
}

void TorchDistributedTest::aBatchJobOfTwoNodesTrainsOneModelOnBoth()
{
    ClusterFixture cluster;
    QVERIFY2(cluster.up(), qPrintable(cluster.lastError()));
    const ShellResult r = cluster.shell(
        kTrain + QStringLiteral("sbatch --wait --parsable ddp.sh"), QString(), 300000);
    QCOMPARE(r.exitCode, 0);
    const QString out = readTextFile(cluster.homeFile(
        QStringLiteral("alice"), QStringLiteral("ddp-%1.out").arg(r.out.trimmed())));
    const QStringList lines = outputLines(out).filter(QStringLiteral("weights "));
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[0], lines[1]); // one model: the replicas agree after the averaged step
    QVERIFY2(lines[0].endsWith(QStringLiteral("device cpu")), qPrintable(lines[0]));
}

QTEST_GUILESS_MAIN(TorchDistributedTest)
#include "torch_distributed_test.moc"
