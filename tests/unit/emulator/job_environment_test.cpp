#include "mc/emu/job_environment.h"

#include <QtTest>

#include <map>

using namespace mc::emu;

namespace {

std::map<std::string, std::string> asMap(const std::vector<std::string> &env)
{
    std::map<std::string, std::string> m;
    for (const auto &e : env) {
        m[e.substr(0, e.find('='))] = e.substr(e.find('=') + 1);
    }
    return m;
}

BatchJobFacts facts()
{
    BatchJobFacts f;
    f.jobId = 136;
    f.jobName = "wrap";
    f.user = "alice";
    f.uid = 1001;
    f.gid = 1001;
    f.account = "students";
    f.partition = "debug";
    f.clusterName = "refcluster";
    f.node = "node01";
    f.nodeList = "node01";
    f.memPerCpu = 500;
    f.submitDir = "/home/alice";
    f.submitHost = "vm";
    f.confPath = "/etc/slurm/slurm.conf";
    f.home = "/home/alice";
    return f;
}

} // namespace

class JobEnvironmentTest : public QObject {
    Q_OBJECT

private slots:
    void arrayTaskGetsTheSlurmArrayVariables();
    void requeuedJobCountsItsRestarts();
    void arraySpecificationsAreSummarized_data();
    void arraySpecificationsAreSummarized();
    void defaultJobGetsTheReferenceVariables();
    void requestedTasksAndCpusAppearOnlyWhenAsked();
    void slurmVariablesOverrideTheSubmittersOnes();
    void multiNodeCountsUseSlurmsListSyntax();
    void gpuJobSeesItsGpusNumberedFromZero();
};

void JobEnvironmentTest::gpuJobSeesItsGpusNumberedFromZero()
{
    auto plain = asMap(batchJobEnvironment(facts(), {}));
    for (const char *name : {"CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "SLURM_JOB_GPUS",
             "SLURM_GPUS_ON_NODE", "SLURM_GPUS", "SLURM_CPUS_PER_GPU", "SLURM_MEM_PER_GPU"}) {
        QVERIFY2(plain.find(name) == plain.end(), name); // no GPU asked: none of them
    }
    auto f = facts();
    f.gpuIds = {1, 3}; // the node's GPUs 1 and 3
    f.gpus = "a100:2";
    f.gpusPerTask = "1";
    f.cpusPerGpu = 4;
    f.memPerGpu = 2048;
    auto env = asMap(batchJobEnvironment(f, {"CUDA_VISIBLE_DEVICES=7"}));
    QCOMPARE(env["SLURM_JOB_GPUS"], std::string("1,3"));
    QCOMPARE(env["CUDA_VISIBLE_DEVICES"], std::string("0,1")); // Slurm's, not the submitter's
    QCOMPARE(env["GPU_DEVICE_ORDINAL"], std::string("0,1"));
    QCOMPARE(env["SLURM_GPUS_ON_NODE"], std::string("2"));
    QCOMPARE(env["SLURM_GPUS"], std::string("a100:2"));
    QCOMPARE(env["SLURM_GPUS_PER_TASK"], std::string("1"));
    QVERIFY(env.find("SLURM_GPUS_PER_NODE") == env.end());
    QCOMPARE(env["SLURM_CPUS_PER_GPU"], std::string("4"));
    QCOMPARE(env["SLURM_MEM_PER_GPU"], std::string("2048"));
}

void JobEnvironmentTest::defaultJobGetsTheReferenceVariables()
{
    // reference/15_job_environment.txt, "defaults only (sbatch --wrap)".
    auto env = asMap(batchJobEnvironment(facts(), {}));
    QCOMPARE(env["SLURMD_NODENAME"], std::string("node01"));
    QCOMPARE(env["SLURM_JOB_ID"], std::string("136"));
    QCOMPARE(env["SLURM_JOBID"], std::string("136"));
    QCOMPARE(env["SLURM_CPUS_ON_NODE"], std::string("1"));
    QCOMPARE(env["SLURM_MEM_PER_CPU"], std::string("500"));
    QCOMPARE(env["SLURM_TASKS_PER_NODE"], std::string("1"));
    QCOMPARE(env["SLURM_SUBMIT_DIR"], std::string("/home/alice"));
    QCOMPARE(env["ENVIRONMENT"], std::string("BATCH"));
    QVERIFY(env.find("SLURM_NTASKS") == env.end());
    QVERIFY(env.find("SLURM_CPUS_PER_TASK") == env.end());
    QVERIFY(env.find("SLURM_MEM_PER_NODE") == env.end());
}

void JobEnvironmentTest::requestedTasksAndCpusAppearOnlyWhenAsked()
{
    BatchJobFacts f = facts();
    f.ntasks = 2;
    f.ntasksGiven = true;
    f.cpusPerTask = 2;
    f.cpusPerTaskGiven = true;
    f.cpusOnNode = 4;
    f.memPerNode = 600;
    auto env = asMap(batchJobEnvironment(f, {}));
    QCOMPARE(env["SLURM_NTASKS"], std::string("2"));
    QCOMPARE(env["SLURM_NPROCS"], std::string("2"));
    QCOMPARE(env["SLURM_CPUS_PER_TASK"], std::string("2"));
    QCOMPARE(env["SLURM_JOB_CPUS_PER_NODE"], std::string("4"));
    QCOMPARE(env["SLURM_MEM_PER_NODE"], std::string("600"));
    QCOMPARE(env["SLURM_TASKS_PER_NODE"], std::string("2"));
}

void JobEnvironmentTest::slurmVariablesOverrideTheSubmittersOnes()
{
    auto env = asMap(batchJobEnvironment(
        facts(), {"FOO=bar", "SLURM_JOB_NAME=old", "HOME=/home/alice", "SLURM_JOB_ID=1"}));
    QCOMPARE(env["FOO"], std::string("bar"));
    QCOMPARE(env["SLURM_JOB_NAME"], std::string("wrap"));
    QCOMPARE(env["SLURM_JOB_ID"], std::string("136"));
}

void JobEnvironmentTest::multiNodeCountsUseSlurmsListSyntax()
{
    // sbatch -N2 --ntasks=4 and -N2 -n3: tasks by block distribution, CPUs per node.
    BatchJobFacts f = facts();
    f.numNodes = 2;
    f.nodeList = "node[01-02]";
    f.ntasks = 4;
    f.ntasksGiven = true;
    f.cpusOnNode = 2;
    auto env = asMap(batchJobEnvironment(f, {}));
    QCOMPARE(env["SLURM_TASKS_PER_NODE"], std::string("2(x2)"));
    QCOMPARE(env["SLURM_JOB_CPUS_PER_NODE"], std::string("2(x2)"));
    QCOMPARE(env["SLURM_NTASKS"], std::string("4"));
    f.ntasks = 3;
    env = asMap(batchJobEnvironment(f, {}));
    QCOMPARE(env["SLURM_TASKS_PER_NODE"], std::string("2,1"));
    // -N2 without -n: one task per node.
    f.ntasksGiven = false;
    f.ntasks = 1;
    env = asMap(batchJobEnvironment(f, {}));
    QCOMPARE(env["SLURM_TASKS_PER_NODE"], std::string("1(x2)"));
}

void JobEnvironmentTest::arrayTaskGetsTheSlurmArrayVariables()
{
    // reference/15_job_environment.txt: sbatch -a 3-4, task 3 of job 137 (its own id 137).
    BatchJobFacts f = facts();
    auto plain = asMap(batchJobEnvironment(f, {}));
    QVERIFY(plain.find("SLURM_ARRAY_TASK_ID") == plain.end());
    f.jobId = 137;
    f.arrayJobId = 137;
    f.arrayTaskId = 3;
    f.arraySpec = "3-4";
    auto env = asMap(batchJobEnvironment(f, {}));
    QCOMPARE(env["SLURM_ARRAY_JOB_ID"], std::string("137"));
    QCOMPARE(env["SLURM_ARRAY_TASK_COUNT"], std::string("2"));
    QCOMPARE(env["SLURM_ARRAY_TASK_ID"], std::string("3"));
    QCOMPARE(env["SLURM_ARRAY_TASK_MAX"], std::string("4"));
    QCOMPARE(env["SLURM_ARRAY_TASK_MIN"], std::string("3"));
    QCOMPARE(env["SLURM_ARRAY_TASK_STEP"], std::string("1"));
}

void JobEnvironmentTest::arraySpecificationsAreSummarized_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("min");
    QTest::addColumn<int>("max");
    QTest::addColumn<int>("step");
    QTest::newRow("range with throttle") << "1-10%2" << 10 << 1 << 10 << 1;
    QTest::newRow("range with step") << "0-6:3" << 3 << 0 << 6 << 3;
    QTest::newRow("list") << "1,3,5-6" << 4 << 1 << 6 << 1;
    QTest::newRow("single") << "7" << 1 << 7 << 7 << 1;
    QTest::newRow("invalid") << "5-2" << 0 << 0 << 0 << 0;
}

void JobEnvironmentTest::arraySpecificationsAreSummarized()
{
    QFETCH(QString, spec);
    QFETCH(int, count);
    QFETCH(int, min);
    QFETCH(int, max);
    QFETCH(int, step);
    auto a = summarizeArray(spec.toStdString());
    if (count == 0) {
        QVERIFY(!a);
        return;
    }
    QVERIFY(a);
    QCOMPARE(a->count, count);
    QCOMPARE(a->min, static_cast<long long>(min));
    QCOMPARE(a->max, static_cast<long long>(max));
    QCOMPARE(a->step, static_cast<long long>(step));
}

void JobEnvironmentTest::requeuedJobCountsItsRestarts()
{
    BatchJobFacts f = facts();
    QVERIFY(asMap(batchJobEnvironment(f, {})).count("SLURM_RESTART_COUNT") == 0);
    f.restarts = 2;
    QCOMPARE(asMap(batchJobEnvironment(f, {}))["SLURM_RESTART_COUNT"], std::string("2"));
}

QTEST_APPLESS_MAIN(JobEnvironmentTest)
#include "job_environment_test.moc"
