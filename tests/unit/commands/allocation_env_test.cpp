// The SLURM_* variables srun and salloc give an allocation, from its job decoded once
// (record::JobObject) as the controller's encoder writes it, and the `job` events they wait on.
#include "mc/record/job_codec.h"
#include "mc/record/job_object.h"
#include "srun/srun_common.h"

#include <QtTest>

namespace ia = mc::cmd::interactive;
using mc::proto::Json;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

// A running job of two nodes as the controller holds it.
mc::sched::Job runningJob()
{
    mc::sched::Job job;
    job.id = mc::sched::JobId{42};
    job.spec.name = "train";
    job.spec.user = "student";
    job.spec.account = "def-prof";
    job.spec.partition = "cpu";
    job.spec.qos = "high";
    job.spec.workDir = "/home/student/run";
    job.spec.ntasks = 3;
    job.state = mc::sched::JobState::Running;
    job.nodeList = {"cn01", "cn02"};
    job.allocCpus = 6;
    return job;
}

std::string var(const std::vector<std::string> &env, const std::string &name)
{
    return ia::getEnv(env, name).value_or("<unset>");
}

} // namespace

class AllocationEnvTest : public QObject {
    Q_OBJECT

private slots:
    void theJobsMembersNameTheAllocation()
    {
        const auto job = mc::record::jobObjectFromJson(mc::record::jobToJson(runningJob()));
        std::vector<std::string> env;
        ia::Options opts;
        opts.ntasks = 3;
        ia::setAllocationEnv(env, job, std::string("teaching"), opts);
        COMPARE_TEXT(var(env, "SLURM_JOB_ID"), "42");
        COMPARE_TEXT(var(env, "SLURM_JOB_NAME"), "train");
        COMPARE_TEXT(var(env, "SLURM_JOB_ACCOUNT"), "def-prof");
        COMPARE_TEXT(var(env, "SLURM_JOB_PARTITION"), "cpu");
        COMPARE_TEXT(var(env, "SLURM_JOB_QOS"), "high");
        COMPARE_TEXT(var(env, "SLURM_SUBMIT_DIR"), "/home/student/run");
        COMPARE_TEXT(var(env, "SLURM_JOB_NODELIST"), "cn[01-02]");
        COMPARE_TEXT(var(env, "SLURM_JOB_NUM_NODES"), "2");
        COMPARE_TEXT(var(env, "SLURM_JOB_CPUS_PER_NODE"), "3(x2)");
        COMPARE_TEXT(var(env, "SLURM_NTASKS"), "3");
        COMPARE_TEXT(var(env, "SLURM_TASKS_PER_NODE"), "2,1");
        COMPARE_TEXT(var(env, "SLURM_CLUSTER_NAME"), "teaching");
    }

    void anUnevenLayoutGivesEachNodeItsCpusAndTasks()
    {
        mc::sched::Job held = runningJob();
        held.nodeCpus = {4, 2};
        const auto job = mc::record::jobObjectFromJson(mc::record::jobToJson(held));
        std::vector<std::string> env;
        ia::Options opts;
        opts.cpusPerTask = 1;
        ia::setAllocationEnv(env, job, std::nullopt, opts);
        COMPARE_TEXT(var(env, "SLURM_JOB_CPUS_PER_NODE"), "4,2");
        COMPARE_TEXT(var(env, "SLURM_TASKS_PER_NODE"), "4,2");
    }

    // A reply without num_cpus, qos or work_dir: one CPU, QOS normal, the current directory;
    // SLURM_CLUSTER_NAME only when a name is known, even an empty one.
    void absentMembersFallBackOnSrunsOwnValues()
    {
        Json sent = Json::object();
        sent.set("job_id", 7);
        sent.set("nodes", mc::proto::stringList({"cn03"}));
        const auto job = mc::record::jobObjectFromJson(sent);
        std::vector<std::string> env;
        ia::setAllocationEnv(env, job, std::nullopt, ia::Options{});
        COMPARE_TEXT(var(env, "SLURM_JOB_CPUS_PER_NODE"), "1");
        COMPARE_TEXT(var(env, "SLURM_JOB_QOS"), "normal");
        COMPARE_TEXT(var(env, "SLURM_SUBMIT_DIR"), ia::currentDir());
        COMPARE_TEXT(var(env, "SLURM_TASKS_PER_NODE"), "1");
        COMPARE_TEXT(var(env, "SLURM_NTASKS"), "<unset>");
        COMPARE_TEXT(var(env, "SLURM_CLUSTER_NAME"), "<unset>");
        ia::setAllocationEnv(env, job, std::string(), ia::Options{});
        COMPARE_TEXT(var(env, "SLURM_CLUSTER_NAME"), "");
    }

    void onlyAJobEventOfTheJobIsDecoded()
    {
        Json event = Json::object();
        event.set("event", "job");
        event.set("job", mc::record::jobToJson(runningJob()));
        const auto mine = ia::jobEvent(event, 42);
        QVERIFY(mine.has_value());
        COMPARE_TEXT(mine->state, "RUNNING");
        QCOMPARE(mine->nodes.size(), std::size_t{2});
        QVERIFY(!ia::jobEvent(event, 43));
        event.set("event", "node");
        QVERIFY(!ia::jobEvent(event, 42));
    }
};

QTEST_APPLESS_MAIN(AllocationEnvTest)
#include "allocation_env_test.moc"
