// The LSB_* and PBS_* variables of jobs submitted with bsub and qsub, from the job's facts.
#include "mc/emu/foreign_environment.h"
#include "mc/emu/job_environment.h"

#include <QtTest>

#include <algorithm>

using namespace mc::emu;

namespace {

BatchJobFacts twoNodeJob()
{
    BatchJobFacts f;
    f.jobId = 42;
    f.jobName = "sim";
    f.user = "alice";
    f.partition = "hpc";
    f.clusterName = "dtu";
    f.node = "n01";
    f.nodeList = "n[01-02]";
    f.numNodes = 2;
    f.ntasks = 4;
    f.ntasksGiven = true;
    f.cpusPerTask = 2;
    f.submitDir = "/home/alice/work";
    f.submitHost = "login1";
    f.home = "/home/alice";
    f.nodeFilePath = "/localscratch/alice.42.0/.pbs_nodefile";
    return f;
}

bool has(const std::vector<std::string> &env, const std::string &entry)
{
    return std::find(env.begin(), env.end(), entry) != env.end();
}

bool hasName(const std::vector<std::string> &env, const std::string &prefix)
{
    return std::any_of(env.begin(), env.end(),
        [&prefix](const std::string &e) { return e.rfind(prefix, 0) == 0; });
}

} // namespace

class ForeignEnvironmentTest : public QObject {
    Q_OBJECT

private slots:
    void lsfJobGetsLsbVariablesPerSlot()
    {
        const auto env = batchJobEnvironment(twoNodeJob(), {"MINICLUSTER_BATCH_SYSTEM=lsf"});
        QVERIFY(has(env, "LSB_JOBID=42"));
        QVERIFY(has(env, "LSB_JOBNAME=sim"));
        QVERIFY(has(env, "LSB_QUEUE=hpc"));
        QVERIFY(has(env, "LSB_DJOB_NUMPROC=4"));
        QVERIFY(has(env, "LSB_HOSTS=n01 n01 n02 n02"));
        QVERIFY(has(env, "LSB_MCPU_HOSTS=n01 2 n02 2 "));
        QVERIFY(has(env, "LSB_SUBCWD=/home/alice/work"));
        QVERIFY(has(env, "SLURM_JOB_ID=42")); // Slurm's stay
        QVERIFY(!hasName(env, "MINICLUSTER_BATCH_SYSTEM="));
        QVERIFY(!hasName(env, "PBS_"));
    }

    void pbsJobGetsPbsVariablesAndANodeFile()
    {
        const BatchJobFacts f = twoNodeJob();
        const auto env = batchJobEnvironment(f, {"MINICLUSTER_BATCH_SYSTEM=pbs"});
        QVERIFY(has(env, "PBS_JOBID=42.dtu"));
        QVERIFY(has(env, "PBS_JOBNAME=sim"));
        QVERIFY(has(env, "PBS_O_WORKDIR=/home/alice/work"));
        QVERIFY(has(env, "PBS_O_HOST=login1"));
        QVERIFY(has(env, "PBS_ENVIRONMENT=PBS_BATCH"));
        QVERIFY(has(env, "PBS_NODEFILE=/localscratch/alice.42.0/.pbs_nodefile"));
        QVERIFY(has(env, "NCPUS=2"));
        QVERIFY(!hasName(env, "LSB_"));
        QCOMPARE(
            QString::fromStdString(pbsNodeFileText(f)), QStringLiteral("n01\nn01\nn02\nn02\n"));
    }

    void pbsArrayTaskIdsNameTheArray()
    {
        BatchJobFacts f = twoNodeJob();
        f.arrayJobId = 40;
        f.arrayTaskId = 3;
        const auto env = batchJobEnvironment(f, {"MINICLUSTER_BATCH_SYSTEM=pbs"});
        QVERIFY(has(env, "PBS_JOBID=40[3].dtu"));
        QVERIFY(has(env, "PBS_ARRAY_INDEX=3"));
        QVERIFY(has(env, "PBS_ARRAY_ID=40[].dtu"));
    }

    void slurmJobGetsNeither()
    {
        const auto env = batchJobEnvironment(twoNodeJob(), {"HOME=/home/alice"});
        QVERIFY(!hasName(env, "LSB_"));
        QVERIFY(!hasName(env, "PBS_"));
    }
};

QTEST_APPLESS_MAIN(ForeignEnvironmentTest)
#include "foreign_environment_test.moc"
