// The scheduling pass through its public entry points: the controller's schedule() contract
// and Scheduler with running jobs (reservations, backfill, reasons, preemption).

#include "mc/sched/job_transitions.h"
#include "mc/sched/scheduler.h"

#include <QtTest>

using namespace mc::sched;

namespace {

ClusterConfig cluster(const char *extra = "")
{
    std::string text = "NodeName=cn[01-02] CPUs=4 RealMemory=8000\n"
                       "PartitionName=cpu Nodes=cn[01-02] Default=YES MaxTime=1-00:00:00\n";
    return parseSlurmConf(text + extra).config;
}

Job pendingJob(std::uint32_t id, int tasks, Seconds limit)
{
    Job j;
    j.id = JobId{id};
    j.spec.partition = "cpu";
    j.spec.user = "alice";
    j.spec.ntasks = tasks;
    j.timeLimit = limit;
    return j;
}

Job runningJob(std::uint32_t id, std::vector<std::string> nodes, int cpusPerNode, Seconds end)
{
    Job j = pendingJob(id, cpusPerNode, end);
    j.state = JobState::Running;
    j.startTime = 0;
    j.allocCpus = cpusPerNode * static_cast<int>(nodes.size());
    j.nodeList = std::move(nodes);
    return j;
}

std::vector<NodeUsage> usage(const ClusterConfig &c, const std::vector<const Job *> &running)
{
    std::vector<NodeUsage> nodes;
    for (const auto &n : c.nodes) {
        NodeUsage u{n.name, n.cpus, n.realMemory, 0, 0, true, n.gpus, 0};
        for (const Job *j : running) {
            for (std::size_t k = 0; k < j->nodeList.size(); ++k) {
                if (j->nodeList[k] == n.name) {
                    u.allocCpus += j->cpusOnNode(k);
                }
            }
        }
        nodes.push_back(u);
    }
    return nodes;
}

const WaitDecision *waitOf(const SchedulePlan &plan, std::uint32_t id)
{
    for (const auto &w : plan.waits) {
        if (w.job.value == id) {
            return &w;
        }
    }
    return nullptr;
}

bool started(const SchedulePlan &plan, std::uint32_t id)
{
    return std::any_of(plan.starts.begin(), plan.starts.end(),
        [&](const StartDecision &s) { return s.job.value == id; });
}

} // namespace

class SchedulerTest : public QObject {
    Q_OBJECT

private slots:
    void controllerEntryPointStartsWhatFitsAndGivesEveryOtherJobAReason()
    {
        const ClusterConfig c = cluster();
        Job a = pendingJob(1, 4, 600);
        Job b = pendingJob(2, 4, 600);
        Job d = pendingJob(3, 4, 600);
        const SchedulePlan plan = schedule(c, usage(c, {}), {&d, &b, &a}, 0);
        QCOMPARE(plan.starts.size(), std::size_t(2));
        QCOMPARE(plan.starts[0].job.value, 1u);
        QCOMPARE(plan.starts[0].nodes, std::vector<std::string>{"cn01"});
        QCOMPARE(plan.starts[0].shape.cpusPerNode, 4);
        QCOMPARE(plan.waits.size(), std::size_t(1));
        QCOMPARE(plan.waits[0].reason, Reason::Resources);
    }

    void shortJobBackfillsWithoutDelayingTheReservedJob()
    {
        const ClusterConfig c = cluster();
        Job run = runningJob(1, {"cn01", "cn02"}, 2, 600);
        Job top = pendingJob(2, 8, 600); // needs both nodes whole: reserved at 600
        Job shortJob = pendingJob(3, 2, 300);
        Job longJob = pendingJob(4, 2, 900);
        SchedulerInput in{
            &c, usage(c, {&run}), {&top, &shortJob, &longJob}, {&run}, nullptr, nullptr, 0};
        const SchedulePlan plan = Scheduler().run(in);
        QVERIFY(started(plan, 3));
        QVERIFY(!started(plan, 4));
        QCOMPARE(waitOf(plan, 2)->reason, Reason::Resources);
        QCOMPARE(waitOf(plan, 2)->plannedStart, std::optional<Seconds>(600));
        QCOMPARE(waitOf(plan, 2)->waitingFor, std::vector<JobId>{JobId{1}});
        QCOMPARE(waitOf(plan, 4)->reason, Reason::Priority);
        QVERIFY(plan.starts[0].backfilled);
    }

    void aTypedGpuRequestGoesOnlyToNodesOfThatType()
    {
        const ClusterConfig c
            = cluster("NodeName=g[01-02] CPUs=8 RealMemory=16000 Gres=gpu:v100:2\n"
                      "NodeName=g03 CPUs=8 RealMemory=16000 Gres=gpu:a100:2\n"
                      "PartitionName=gpu Nodes=g[01-03] MaxTime=1-00:00:00\n");
        Job typed = pendingJob(1, 1, 600);
        typed.spec.partition = "gpu";
        typed.spec.gpusPerNode = 1;
        typed.spec.gpuType = "a100";
        Job second = typed; // g03's other a100
        second.id = JobId{2};
        Job third = typed; // no a100 left: waits, though the v100 nodes are free
        third.id = JobId{3};
        const SchedulePlan plan = schedule(c, usage(c, {}), {&typed, &second, &third}, 0);
        QCOMPARE(plan.starts.size(), std::size_t(2));
        for (const auto &start : plan.starts) {
            QCOMPARE(start.nodes, std::vector<std::string>{"g03"});
        }
        QCOMPARE(waitOf(plan, 3)->reason, Reason::Resources);
    }

    void gpuOptionsResolveToGpusPerNode()
    {
        const ClusterConfig c = cluster("NodeName=g[01-03] CPUs=8 RealMemory=16000 Gres=gpu:2\n"
                                        "NodeName=h[01-03] CPUs=8 RealMemory=16000 Gres=gpu:4\n"
                                        "PartitionName=gpu Nodes=g[01-03]\n"
                                        "PartitionName=big Nodes=h[01-03]\n");
        JobSpec spec;
        spec.partition = "gpu";
        spec.nodes = 2;
        spec.gpusPerJob = 4; // --gpus=4 -N2: two on each node
        QCOMPARE(shapeOf(spec, c).gpusPerNode, 2);
        QVERIFY(shapeOf(spec, c).gpusOnNode.empty());
        // Uneven, as Slurm's cons_tres places them: each node takes what it can, leaving one
        // for each node after it. --gpus=3 -N2 on 2-GPU nodes: 2 and 1; --cpus-per-gpu follows.
        spec.gpusPerJob = 3;
        spec.cpusPerGpu = 2;
        JobShape uneven = shapeOf(spec, c);
        QCOMPARE(uneven.gpusOnNode, (std::vector<int>{2, 1}));
        QCOMPARE(uneven.gpusPerNode, 2);
        QCOMPARE(uneven.cpusOnNode, (std::vector<int>{4, 2}));
        spec.cpusPerGpu = 0;
        spec.partition = "big"; // --gpus=5 -N3 on 4-GPU nodes: 3, 1, 1
        spec.nodes = 3;
        spec.gpusPerJob = 5;
        QCOMPARE(shapeOf(spec, c).gpusOnNode, (std::vector<int>{3, 1, 1}));
        spec.partition = "gpu"; // more than the nodes hold: the even share, which none fits
        spec.nodes = 2;
        QVERIFY(shapeOf(spec, c).gpusOnNode.empty());
        QCOMPARE(shapeOf(spec, c).gpusPerNode, 3);
        spec = JobSpec{};
        spec.ntasks = 3;
        spec.ntasksGiven = true;
        spec.gpusPerTask = 1; // --gpus-per-task=1 -n3 on one node: three
        spec.cpusPerGpu = 2; // --cpus-per-gpu=2: six CPUs
        spec.memPerGpu = 1024; // --mem-per-gpu=1G: 3 GiB on the node
        const JobShape shape = shapeOf(spec, c, 8);
        QCOMPARE(shape.gpusPerNode, 3);
        QCOMPARE(shape.cpusPerNode, 6);
        QCOMPARE(shape.memPerNode, MiB{3072});
    }

    void unevenGpusHoldEachNodesShareAndLeaveTheRest()
    {
        const ClusterConfig c = cluster("NodeName=g[01-02] CPUs=8 RealMemory=16000 Gres=gpu:2\n"
                                        "PartitionName=gpu Nodes=g[01-02] MaxTime=1-00:00:00\n");
        Job spread = pendingJob(1, 1, 600); // --gpus=3 -N2: two on g01, one on g02
        spread.spec.partition = "gpu";
        spread.spec.nodes = 2;
        spread.spec.gpusPerJob = 3;
        Job one = pendingJob(2, 1, 600); // the GPU g02 has left
        one.spec.partition = "gpu";
        one.spec.gpusPerNode = 1;
        Job another = one; // none left: waits
        another.id = JobId{3};
        const SchedulePlan plan = schedule(c, usage(c, {}), {&spread, &one, &another}, 0);
        QCOMPARE(plan.starts.size(), std::size_t(2));
        QCOMPARE(plan.starts[0].nodes, (std::vector<std::string>{"g01", "g02"}));
        QCOMPARE(plan.starts[0].shape.gpusOnNode, (std::vector<int>{2, 1}));
        QCOMPARE(plan.starts[1].nodes, std::vector<std::string>{"g02"});
        QCOMPARE(waitOf(plan, 3)->reason, Reason::Resources);
    }

    void fifoStartsNothingBehindTheBlockedHead()
    {
        const ClusterConfig c = cluster("SchedulerType=sched/builtin\n");
        Job run = runningJob(1, {"cn01", "cn02"}, 2, 600);
        Job top = pendingJob(2, 8, 600);
        Job shortJob = pendingJob(3, 2, 300);
        SchedulerInput in{&c, usage(c, {&run}), {&top, &shortJob}, {&run}, nullptr, nullptr, 0};
        const SchedulePlan plan = Scheduler().run(in);
        QVERIFY(plan.starts.empty());
        QCOMPARE(waitOf(plan, 3)->reason, Reason::Priority);
        QCOMPARE(waitOf(plan, 3)->waitingFor, std::vector<JobId>{JobId{2}});
    }

    void policyOptionOverridesTheConfiguredSchedulerType()
    {
        const ClusterConfig c = cluster("SchedulerType=sched/builtin\n");
        Job run = runningJob(1, {"cn01", "cn02"}, 2, 600);
        Job top = pendingJob(2, 8, 600);
        Job shortJob = pendingJob(3, 2, 300);
        SchedulerInput in{&c, usage(c, {&run}), {&top, &shortJob}, {&run}, nullptr, nullptr, 0};
        SchedulerOptions options;
        options.policy = SchedulerKind::Backfill;
        QVERIFY(started(Scheduler(options).run(in), 3));
    }

    void heldAndLimitedJobsGetTheirOwnReasonsInSlurmOrder()
    {
        const ClusterConfig c = cluster();
        Job held = pendingJob(1, 1, 60);
        held.spec.hold = true;
        held.heldByAdmin = true;
        Job tooLong = pendingJob(2, 1, 2 * 24 * 3600);
        Job later = pendingJob(3, 1, 60);
        later.spec.begin = 500;
        Job downNode = pendingJob(4, 1, 60);
        downNode.spec.nodeList = {"cn02"};
        std::vector<NodeUsage> nodes = usage(c, {});
        nodes[1].available = false;
        SchedulerInput in{&c, nodes, {&held, &tooLong, &later, &downNode}, {}, nullptr, nullptr, 0};
        const SchedulePlan plan = Scheduler().run(in);
        QCOMPARE(waitOf(plan, 1)->reason, Reason::JobHeldAdmin);
        QCOMPARE(waitOf(plan, 2)->reason, Reason::PartitionTimeLimit);
        QCOMPARE(waitOf(plan, 3)->reason, Reason::BeginTime);
        QCOMPARE(waitOf(plan, 4)->reason, Reason::ReqNodeNotAvail);
        QCOMPARE(waitOf(plan, 4)->nodes, std::vector<std::string>{"cn02"});
    }

    void higherTierPartitionPreemptsALowerOne()
    {
        const ClusterConfig c = parseSlurmConf("PreemptType=preempt/partition_prio\n"
                                               "PreemptMode=REQUEUE\n"
                                               "NodeName=cn01 CPUs=4 RealMemory=8000\n"
                                               "PartitionName=low Nodes=cn01 PriorityTier=1 "
                                               "GraceTime=60 Default=YES\n"
                                               "PartitionName=high Nodes=cn01 PriorityTier=5 "
                                               "PreemptMode=OFF\n")
                                    .config;
        Job victim = runningJob(1, {"cn01"}, 4, 3600);
        victim.spec.partition = "low";
        Job urgent = pendingJob(2, 4, 600);
        urgent.spec.partition = "high";
        SchedulerInput in{&c, usage(c, {&victim}), {&urgent}, {&victim}, nullptr, nullptr, 100};
        const SchedulePlan plan = Scheduler().run(in);
        QCOMPARE(plan.preemptions.size(), std::size_t(1));
        QCOMPARE(plan.preemptions[0].victim.value, 1u);
        QCOMPARE(plan.preemptions[0].mode, PreemptMode::Requeue);
        QCOMPARE(plan.preemptions[0].endAt, 160);
        QCOMPARE(waitOf(plan, 2)->plannedStart, std::optional<Seconds>(160));
    }

    void shapeSpreadsTasksThatFitNoSingleNode()
    {
        const ClusterConfig c = cluster();
        JobSpec spec;
        spec.ntasks = 8;
        QCOMPARE(shapeOf(spec, c).nodes, 2);
        QCOMPARE(shapeOf(spec, c).cpusPerNode, 4);
        spec.ntasks = 4;
        spec.ntasksPerNode = 1;
        spec.ntasksGiven = true;
        QCOMPARE(shapeOf(spec, c).nodes, 4);
        QCOMPARE(shapeOf(spec, c).cpusPerNode, 1);
    }

    void tasksSpreadOverTheNodesOfTheirOwnPartition()
    {
        // A wider node elsewhere in the cluster does not make six tasks fit one cpu node.
        const ClusterConfig c = cluster("NodeName=gpu01 CPUs=8 RealMemory=16000\n"
                                        "PartitionName=gpu Nodes=gpu01 MaxTime=1-00:00:00\n");
        JobSpec spec;
        spec.ntasks = 6;
        QCOMPARE(shapeOf(spec, c).nodes, 2);
        QCOMPARE(shapeOf(spec, c).cpusPerNode, 4);
        QCOMPARE(shapeOf(spec, c).cpusOnNode, (std::vector<int>{4, 2})); // Slurm's 4,2
        spec.partition = "gpu";
        QCOMPARE(shapeOf(spec, c).nodes, 1);
        QCOMPARE(shapeOf(spec, c).cpusPerNode, 6);
        Job job = pendingJob(1, 6, 600);
        const SchedulePlan plan = schedule(c, usage(c, {}), {&job}, 0);
        QCOMPARE(plan.starts.size(), std::size_t(1));
        QCOMPARE(plan.starts.front().nodes, (std::vector<std::string>{"cn01", "cn02"}));
    }

    void unevenLayoutsFillTheFirstNodesAsSlurmDoes()
    {
        // Layouts read from real Slurm 22.05 on 4-CPU nodes (SLURM_JOB_CPUS_PER_NODE).
        const ClusterConfig c = cluster();
        JobSpec spec;
        spec.ntasks = 9;
        QCOMPARE(shapeOf(spec, c).cpusOnNode, (std::vector<int>{4, 4, 1}));
        spec.ntasks = 5;
        spec.cpusPerTask = 2;
        QCOMPARE(shapeOf(spec, c).cpusOnNode, (std::vector<int>{4, 4, 2}));
        spec.cpusPerTask = 1;
        spec.nodes = 3;
        QCOMPARE(shapeOf(spec, c).cpusOnNode, (std::vector<int>{3, 1, 1}));
        spec.ntasks = 6;
        spec.nodes = 2;
        QCOMPARE(shapeOf(spec, c).cpusOnNode, (std::vector<int>{4, 2}));
        spec.ntasks = 4;
        QCOMPARE(shapeOf(spec, c).cpusOnNode, (std::vector<int>{3, 1})); // -N2 -n4: 3,1
        spec.ntasks = 8;
        QVERIFY(shapeOf(spec, c).cpusOnNode.empty()); // 4(x2): even
        QCOMPARE(shapeOf(spec, c).cpusPerNode, 4);
        spec.ntasks = 2;
        spec.cpusPerTask = 2;
        QVERIFY(shapeOf(spec, c).cpusOnNode.empty()); // -N2 -n2 -c2: 2(x2)
        QCOMPARE(shapeOf(spec, c).cpusPerNode, 2);
    }

    void anUnevenJobHoldsOnlyItsShareOfTheLastNode()
    {
        // Six tasks hold 4 CPUs of cn01 and 2 of cn02: a two-CPU job still fits on cn02 while
        // they run, and the started job records each node's count.
        const ClusterConfig c = cluster();
        Job wide = pendingJob(1, 6, 600);
        Job small = pendingJob(2, 2, 600);
        SchedulePlan plan = schedule(c, usage(c, {}), {&wide}, 0);
        QCOMPARE(plan.starts.size(), std::size_t(1));
        const Job running = startJob(wide, plan.starts.front(), 0);
        QCOMPARE(running.allocCpus, 6);
        QCOMPARE(running.nodeCpus, (std::vector<int>{4, 2}));
        QCOMPARE(running.cpusOnNode(1), 2);
        SchedulerInput in;
        in.config = &c;
        in.nodes = usage(c, {&running});
        QCOMPARE(in.nodes[1].allocCpus, 2);
        in.pending = {&small};
        in.running = {&running};
        in.now = 10;
        plan = Scheduler().run(in);
        QCOMPARE(plan.starts.size(), std::size_t(1));
        QCOMPARE(plan.starts.front().nodes, (std::vector<std::string>{"cn02"}));
    }
};

QTEST_APPLESS_MAIN(SchedulerTest)
#include "scheduler_test.moc"
