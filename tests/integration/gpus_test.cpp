// GPUs a job can see, on a real cluster (issue #15): each GPU option of sbatch places the job
// and sets Slurm's variables, bad requests are refused with Slurm's words and leave nothing
// behind, two jobs never hold the same GPU, scontrol/sacct/sinfo show the GRES, and the
// emulated nvidia-smi (GPU nodes only) lists the job's GPUs and processes.
#include "storage_support.h"

#include <QtTest>

using namespace storage_test;

namespace {

// The job's GPU variables, one per line, sorted.
const QString kShowGpus = QStringLiteral(
    "env | grep -E '^(CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|SLURM_JOB_GPUS|SLURM_STEP_GPUS|"
    "SLURM_GPUS|"
    "SLURM_CPUS_PER_GPU|SLURM_MEM_PER_GPU|SLURM_CPUS_ON_NODE)' | sort");

} // namespace

class GpusTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void everyGpuOptionSetsSlurmsVariables_data();
    void everyGpuOptionSetsSlurmsVariables();
    void badGpuRequestsAreRefusedWithSlurmsWords_data();
    void badGpuRequestsAreRefusedWithSlurmsWords();
    void twoJobsNeverHoldTheSameGpuAndTheCommandsShowWhich();
    void nvidiaSmiShowsTheJobsGpusOnlyOnGpuNodes();
    void srunAllocatesTypedGpusAndItsTasksSeeThem();
    void srunBindsEachTaskToItsGpusWithGpusPerTask();
    void sallocSetsTheVariablesOfItsGpuOptions();
    void unevenGpusAreSpreadAsSlurmPlacesThem();

private:
    // Runs `options` with --wait and returns the job's output.
    QString runAndRead(const QString &options, const QString &command);
    std::unique_ptr<ClusterFixture> m_cluster;
    int m_runs = 0;
};

void GpusTest::initTestCase()
{
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY(m_cluster->setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
}

void GpusTest::cleanupTestCase()
{
    m_cluster.reset();
}

QString GpusTest::runAndRead(const QString &options, const QString &command)
{
    const QString out = QStringLiteral("gpus-%1.out").arg(++m_runs);
    const ShellResult r = m_cluster->shell(
        QStringLiteral("sbatch --wait -o %1 %2 --wrap \"%3\"").arg(out, options, command),
        QString(), 120000);
    if (r.exitCode != 0) {
        return QStringLiteral("sbatch failed: ") + r.err;
    }
    return readFile(m_cluster->homeFile(QStringLiteral("alice"), out));
}

void GpusTest::everyGpuOptionSetsSlurmsVariables_data()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<QStringList>("expected");
    const QStringList one{"CUDA_VISIBLE_DEVICES=0", "GPU_DEVICE_ORDINAL=0", "SLURM_CPUS_ON_NODE=1",
        "SLURM_GPUS_ON_NODE=1", "SLURM_JOB_GPUS=0"};
    QTest::newRow("--gres=gpu:1") << "-p gpu --gres=gpu:1" << one;
    QTest::newRow("--gres typed") << "-p gpu --gres=gpu:a100:2"
                                  << QStringList{"CUDA_VISIBLE_DEVICES=0,1",
                                         "GPU_DEVICE_ORDINAL=0,1", "SLURM_CPUS_ON_NODE=1",
                                         "SLURM_GPUS_ON_NODE=2", "SLURM_JOB_GPUS=0,1"};
    QTest::newRow("--gpus") << "-p gpu --gpus=1" << (QStringList(one) << "SLURM_GPUS=1");
    QTest::newRow("--gpus-per-node typed")
        << "-p gpu --gpus-per-node=a100:1" << (QStringList(one) << "SLURM_GPUS_PER_NODE=a100:1");
    QTest::newRow("--gpus-per-task")
        << "-p gpu -n 2 --gpus-per-task=1"
        << QStringList{"CUDA_VISIBLE_DEVICES=0,1", "GPU_DEVICE_ORDINAL=0,1", "SLURM_CPUS_ON_NODE=2",
               "SLURM_GPUS_ON_NODE=2", "SLURM_GPUS_PER_TASK=1", "SLURM_JOB_GPUS=0,1"};
    QTest::newRow("--cpus-per-gpu, --mem-per-gpu")
        << "-p gpu --gpus=1 --cpus-per-gpu=3 --mem-per-gpu=2G"
        << QStringList{"CUDA_VISIBLE_DEVICES=0", "GPU_DEVICE_ORDINAL=0", "SLURM_CPUS_ON_NODE=3",
               "SLURM_CPUS_PER_GPU=3", "SLURM_GPUS=1", "SLURM_GPUS_ON_NODE=1", "SLURM_JOB_GPUS=0",
               "SLURM_MEM_PER_GPU=2048"};
    QTest::newRow("no GPU asked") << "-p gpu" << QStringList{"SLURM_CPUS_ON_NODE=1"};
}

void GpusTest::everyGpuOptionSetsSlurmsVariables()
{
    QFETCH(QString, options);
    QFETCH(QStringList, expected);
    expected.sort();
    const QString out = runAndRead(options, kShowGpus);
    QCOMPARE(outputLines(out), expected);
}

void GpusTest::badGpuRequestsAreRefusedWithSlurmsWords_data()
{
    QTest::addColumn<QString>("options");
    QTest::addColumn<QString>("error");
    const QString config
        = QStringLiteral("sbatch: error: Batch job submission failed: Requested node "
                         "configuration is not available\n");
    const QString gres = QStringLiteral(
        "sbatch: error: Batch job submission failed: Invalid generic resource (gres) "
        "specification\n");
    QTest::newRow("partition without GPUs") << "-p cpu --gres=gpu:1" << config;
    QTest::newRow("more GPUs than a node has") << "-p gpu --gres=gpu:3" << config;
    QTest::newRow("more per task than a node has") << "-p gpu -n 3 --gpus-per-task=1" << config;
    QTest::newRow("unknown type") << "-p gpu --gres=gpu:v100:1" << gres;
    QTest::newRow("unknown type, --gpus") << "-p gpu --gpus=k80:1" << gres;
    QTest::newRow("another GRES")
        << "-p gpu --gres=mps:100"
        << "sbatch: error: Invalid generic resource (gres) specification\n";
    QTest::newRow("bad count") << "-p gpu --gpus=two"
                               << "sbatch: error: Invalid generic resource (gres) specification\n";
    QTest::newRow("CPUs per GPU without GPUs") << "-p gpu --cpus-per-gpu=2" << gres;
    QTest::newRow("--mem and --mem-per-gpu")
        << "-p gpu --gpus=1 --mem=1G --mem-per-gpu=1G"
        << "sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n";
}

void GpusTest::badGpuRequestsAreRefusedWithSlurmsWords()
{
    QFETCH(QString, options);
    QFETCH(QString, error);
    const ShellResult r = m_cluster->shell(
        QStringLiteral("sbatch %1 --wrap true; echo rc=$?; squeue -h -u alice | wc -l")
            .arg(options));
    QCOMPARE(r.err, error);
    QCOMPARE(r.out, QStringLiteral("rc=1\n0\n")); // refused, and no job left behind
}

void GpusTest::twoJobsNeverHoldTheSameGpuAndTheCommandsShowWhich()
{
    const ShellResult submit = m_cluster->shell(QStringLiteral(
        "for i in 1 2 3; do sbatch --parsable -p gpu -w gpu01 --gres=gpu:1 --wrap 'sleep 120'; "
        "done"));
    const QStringList ids = outputLines(submit.out);
    QCOMPARE(ids.size(), 3);
    QElapsedTimer timer;
    timer.start();
    ShellResult states;
    do {
        QTest::qWait(300);
        states = m_cluster->shell(QStringLiteral("squeue -h -o '%i %t %R' -u alice"));
    } while (states.out.count(QStringLiteral(" R ")) < 2 && timer.elapsed() < 60000);
    QVERIFY2(
        states.out.contains(ids[2] + QStringLiteral(" PD (Resources)")), qPrintable(states.out));

    const ShellResult detail = m_cluster->shell(QStringLiteral(
        "for j in %1 %2; do scontrol show job -d $j; done | grep -E 'GRES|TresPerNode|TRES='; "
        "sinfo -h -n gpu01 -O "
        "GresUsed; scontrol show node gpu01 | grep -E 'Gres=|AllocTRES'; "
        "sacct -X -n -j %1 -o AllocTRES%50")
                                                    .arg(ids[0], ids[1]));
    const QStringList lines = outputLines(detail.out);
    QVERIFY2(lines.contains(QStringLiteral("   TRES=cpu=1,mem=1000M,node=1,billing=1,gres/gpu=1")),
        qPrintable(detail.out));
    QVERIFY(lines.contains(QStringLiteral("   JOB_GRES=gpu:a100:1")));
    QVERIFY(lines.contains(
        QStringLiteral("     Nodes=gpu01 CPU_IDs=0 Mem=1000 GRES=gpu:a100:1(IDX:0)")));
    QVERIFY(lines.contains(
        QStringLiteral("     Nodes=gpu01 CPU_IDs=0 Mem=1000 GRES=gpu:a100:1(IDX:1)")));
    QVERIFY(lines.contains(QStringLiteral("   TresPerNode=gres:gpu:1")));
    QVERIFY(detail.out.contains(QStringLiteral("\ngpu:a100:2(IDX:0-1) ")));
    QVERIFY(lines.contains(QStringLiteral("   Gres=gpu:a100:2")));
    QVERIFY(lines.contains(QStringLiteral("   AllocTRES=cpu=2,mem=2000M,gres/gpu=2")));
    QVERIFY(lines.contains(QStringLiteral("       billing=1,cpu=1,gres/gpu=1,mem=1000M,node=1 ")));

    // The first job ends: the waiting one gets the GPU it freed.
    m_cluster->shell(QStringLiteral("scancel %1").arg(ids[0]));
    timer.restart();
    ShellResult third;
    do {
        QTest::qWait(300);
        third = m_cluster->shell(
            QStringLiteral("scontrol show job -d %1 | grep ' GRES=gpu'").arg(ids[2]));
    } while (third.out.isEmpty() && timer.elapsed() < 60000);
    QCOMPARE(third.out.trimmed(),
        QStringLiteral("Nodes=gpu01 CPU_IDs=0 Mem=1000 GRES=gpu:a100:1(IDX:0)"));
    m_cluster->shell(QStringLiteral("scancel -u alice"));
}

void GpusTest::nvidiaSmiShowsTheJobsGpusOnlyOnGpuNodes()
{
    const QString gpu = runAndRead(QStringLiteral("-p gpu --gres=gpu:1"),
        QStringLiteral("python3 -c 'while True: pass' & sleep 1; nvidia-smi -L; nvidia-smi; "
                       "nvidia-smi --query-gpu=index,name,memory.total "
                       "--format=csv,noheader,nounits; kill %1"));
    QVERIFY2(
        gpu.contains(QStringLiteral("GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-")), qPrintable(gpu));
    QVERIFY(!gpu.contains(QStringLiteral("GPU 1:"))); // the node's other GPU is not the job's
    QVERIFY(gpu.contains(QStringLiteral("these GPUs are emulated")));
    QVERIFY(gpu.contains(QStringLiteral("torch.cuda.is_available() is False")));
    QVERIFY(gpu.contains(QStringLiteral("0, NVIDIA A100-SXM4-40GB, 40960")));
    // The busy python is the job's process, and its CPU use shows as utilisation.
    QRegularExpression process(QStringLiteral(R"(\|\s+0\s+N/A\s+N/A\s+\d+\s+C\s+python3)"));
    QVERIFY2(process.match(gpu).hasMatch(), qPrintable(gpu));
    QRegularExpression util(QStringLiteral(R"(MiB \|\s+(\d+)%)"));
    const auto m = util.match(gpu);
    QVERIFY(m.hasMatch());
    // How much of a CPU the busy loop gets depends on the host's load: only that it shows.
    QVERIFY2(m.captured(1).toInt() > 0, qPrintable(gpu));

    const QString none
        = runAndRead(QStringLiteral("-p gpu"), QStringLiteral("nvidia-smi; echo rc=\\$?"));
    QCOMPARE(none, QStringLiteral("No devices were found\nrc=6\n"));
    const QString cpu = runAndRead(QStringLiteral("-p cpu"),
        QStringLiteral("command -v nvidia-smi || echo no nvidia-smi here"));
    QCOMPARE(cpu, QStringLiteral("no nvidia-smi here\n"));
}

void GpusTest::srunAllocatesTypedGpusAndItsTasksSeeThem()
{
    // `srun ... env`, filtered on login1 by kShowGpus' grep.
    const ShellResult typed = m_cluster->shell(
        QStringLiteral("srun -p gpu --gres=gpu:a100:2 ") + kShowGpus, QString(), 120000);
    QCOMPARE(typed.exitCode, 0);
    // A step's GPUs are SLURM_STEP_GPUS (slurmstepd's step environment); SLURM_JOB_GPUS is
    // the batch step's, which srun's tasks see only inherited from a batch script.
    QCOMPARE(outputLines(typed.out),
        (QStringList{"CUDA_VISIBLE_DEVICES=0,1", "GPU_DEVICE_ORDINAL=0,1", "SLURM_CPUS_ON_NODE=1",
            "SLURM_GPUS_ON_NODE=2", "SLURM_STEP_GPUS=0,1"}));
    const ShellResult smi
        = m_cluster->shell(QStringLiteral("srun -p gpu --gpus=1 nvidia-smi -L"), QString(), 120000);
    QVERIFY2(smi.out.startsWith(QStringLiteral("GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-")),
        qPrintable(smi.out + smi.err));
    const ShellResult unknown
        = m_cluster->shell(QStringLiteral("srun -p gpu --gpus=v100:1 true; echo rc=$?"));
    QCOMPARE(unknown.err,
        QStringLiteral("srun: error: Unable to allocate resources: Invalid generic resource "
                       "(gres) specification\n"));
    QCOMPARE(unknown.out, QStringLiteral("rc=1\n"));
    const ShellResult noGpus
        = m_cluster->shell(QStringLiteral("srun -p cpu --gpus=1 true; echo rc=$?"));
    QCOMPARE(noGpus.err,
        QStringLiteral("srun: error: Unable to allocate resources: Requested node configuration "
                       "is not available\n"));
}

void GpusTest::srunBindsEachTaskToItsGpusWithGpusPerTask()
{
    // Two tasks with a GPU each: the allocation holds both GPUs of the node, two CPUs and 1 GB
    // per GPU; each task sees its own GPU only (Slurm's implicit --gpu-bind=per_task:1), while
    // SLURM_GPUS_ON_NODE counts the step's GPUs of the node.
    const ShellResult r = m_cluster->shell(
        QStringLiteral("srun -p gpu -n2 --gpus-per-task=1 --cpus-per-gpu=2 --mem-per-gpu=1G "
                       "bash -c 'echo $SLURM_PROCID $CUDA_VISIBLE_DEVICES $SLURM_STEP_GPUS "
                       "$SLURM_GPUS_ON_NODE $SLURM_CPUS_ON_NODE' | sort; "
                       "sacct -X -n -u alice -o AllocTRES%60 | tail -1"),
        QString(), 120000);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(outputLines(r.out),
        (QStringList{"0 0 0 2 4", "1 1 1 2 4",
            QStringLiteral("billing=4,cpu=4,gres/gpu=2,mem=2G,node=1").rightJustified(60) + " "}));
    // srun's own options are checked as Slurm checks them.
    const ShellResult both = m_cluster->shell(
        QStringLiteral("srun -p gpu --gpus=1 --mem=1G --mem-per-gpu=1G true; echo rc=$?"));
    QCOMPARE(both.err,
        QStringLiteral(
            "srun: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n"));
    QCOMPARE(both.out, QStringLiteral("rc=1\n"));
}

void GpusTest::sallocSetsTheVariablesOfItsGpuOptions()
{
    // salloc exports its GPU options (set_env_from_opts), and srun in the allocation reads
    // SLURM_GPUS_PER_TASK back: its tasks are bound as under srun --gpus-per-task.
    const ShellResult r = m_cluster->shell(
        QStringLiteral("salloc -Q -p gpu -n2 --gpus-per-task=1 --cpus-per-gpu=2 "
                       "--mem-per-gpu=1G bash -c \"env | grep -E "
                       "'^SLURM_(GPUS|CPUS_PER_GPU|MEM_PER)' | sort; srun bash -c 'echo "
                       "\\$SLURM_PROCID \\$CUDA_VISIBLE_DEVICES' | sort\""),
        QString(), 120000);
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(outputLines(r.out),
        (QStringList{"SLURM_CPUS_PER_GPU=2", "SLURM_GPUS_PER_TASK=1", "SLURM_MEM_PER_GPU=1024",
            "0 0", "1 1"}));
}

void GpusTest::unevenGpusAreSpreadAsSlurmPlacesThem()
{
    // --gpus=3 over two 2-GPU nodes: Slurm's cons_tres gives the first node two and the
    // second one; each node's tasks see their own, and scontrol -d shows them node by node.
    const ShellResult submit = m_cluster->shell(QStringLiteral(
        "sbatch --parsable -p gpu -N2 --gpus=3 -o uneven.out --wrap \"env | grep -E "
        "'^(CUDA_VISIBLE_DEVICES|SLURM_JOB_GPUS|SLURM_GPUS)=' | sort; srun bash -c 'echo "
        "\\$SLURMD_NODENAME \\$CUDA_VISIBLE_DEVICES \\$SLURM_STEP_GPUS' | sort; echo "
        "done; sleep 60\""));
    const QString id = submit.out.trimmed();
    QVERIFY2(!id.isEmpty(), qPrintable(submit.err));
    const QString out = m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("uneven.out"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(out).contains(QStringLiteral("done")), 60000);
    QCOMPARE(outputLines(readFile(out)),
        (QStringList{"CUDA_VISIBLE_DEVICES=0,1", "SLURM_GPUS=3", "SLURM_JOB_GPUS=0,1",
            "gpu01 0,1 0,1", "gpu02 0 0", "done"}));
    const ShellResult detail = m_cluster->shell(QStringLiteral(
        "scontrol show job -d %1 | grep -E 'GRES|TRES='; sinfo -h -n gpu02 -O GresUsed")
                                                    .arg(id));
    const QStringList lines = outputLines(detail.out);
    QVERIFY2(lines.contains(QStringLiteral("   JOB_GRES=gpu:a100:3")), qPrintable(detail.out));
    QVERIFY2(detail.out.contains(QStringLiteral("Nodes=gpu01 CPU_IDs=0 Mem=1000 "
                                                "GRES=gpu:a100:2(IDX:0-1)\n")),
        qPrintable(detail.out));
    QVERIFY2(detail.out.contains(
                 QStringLiteral("Nodes=gpu02 CPU_IDs=0 Mem=1000 GRES=gpu:a100:1(IDX:0)\n")),
        qPrintable(detail.out));
    QVERIFY2(detail.out.contains(QStringLiteral(",gres/gpu=3\n")), qPrintable(detail.out));
    QVERIFY2(detail.out.contains(QStringLiteral("\ngpu:a100:1(IDX:0) ")), qPrintable(detail.out));
    m_cluster->shell(QStringLiteral("scancel %1").arg(id));
}

QTEST_GUILESS_MAIN(GpusTest)
#include "gpus_test.moc"
