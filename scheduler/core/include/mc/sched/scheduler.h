#pragma once
// One scheduling pass: the cluster's state and `now` in, decisions with their reasons out.
// Pure: it reads no clock and does no I/O. Pending jobs are ordered by partition PriorityTier,
// then priority (priority.h), then job id; a policy (policy.h: FIFO or backfill) decides what
// a job that cannot start holds back. Every pending job gets a start or a wait decision.

#include "mc/sched/cluster_index.h"
#include "mc/sched/dependency.h"
#include "mc/sched/job.h"
#include "mc/sched/priority.h"
#include "mc/sched/slurm_conf.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mc::sched {

// What a node has free right now, as the controller tracks it.
struct NodeUsage {
    std::string name;
    int cpus = 0;
    MiB memory = 0;
    int allocCpus = 0;
    MiB allocMemory = 0;
    bool available = true; // false when down, drained or not registered
    int gpus = 0;
    int allocGpus = 0;
};

// The resources a job needs on each of its nodes.
struct JobShape {
    int nodes = 1;
    int cpusPerNode = 1; // on the first node, the most any node holds
    MiB memPerNode = 0;
    int gpusPerNode = 0;
    bool exclusive = false; // --exclusive or OverSubscribe=EXCLUSIVE: whole nodes
    // CPUs on each node when they differ (Slurm fills the first nodes: -n6 on 4-CPU nodes
    // holds 4,2); empty: cpusPerNode on each.
    std::vector<int> cpusOnNode;
    // GPUs on each node when they differ (--gpus=3 -N2 on 2-GPU nodes holds 2,1: spreadGpus);
    // empty: gpusPerNode, the most any node holds, on each.
    std::vector<int> gpusOnNode;
};

// Resolves the job's request against cluster defaults (DefMemPerCPU, DefMemPerNode):
// --ntasks-per-node sets tasks per node (and the node count from --ntasks when larger);
// tasks that fit no single node of the job's partition spread over as many of its nodes as
// they need; tasks over several nodes fill them in order (fillTaskCounts), as Slurm does.
JobShape shapeOf(const JobSpec &spec, const ClusterConfig &config);
// The same with the CPU count of the partition's widest node already known (a pass finds it
// once per partition).
JobShape shapeOf(const JobSpec &spec, const ClusterConfig &config, int widestNode);
int widestNode(const ClusterConfig &config);
// The widest node of the job's partition (its default partition when it names none); the
// cluster's widest when the partition is unknown or names several.
int widestNode(const ClusterConfig &config, const JobSpec &spec);

struct StartDecision {
    JobId job;
    std::vector<std::string> nodes;
    JobShape shape;
    std::optional<std::uint32_t> arrayTaskId; // the task of an array record that starts
    std::optional<Seconds> timeLimit; // set when backfill shortened it toward --time-min
    bool backfilled = false; // started ahead of a higher-priority job that waits
};

struct WaitDecision {
    JobId job;
    Reason reason;
    std::optional<Seconds> plannedStart; // squeue --start; nullopt: N/A
    std::vector<JobId> waitingFor; // running jobs (Resources), the job ahead (Priority),
                                   // or unfinished targets (Dependency)
    std::vector<std::string> nodes; // planned nodes, or the unavailable ones (ReqNodeNotAvail)
    std::string dependency; // squeue %E when it has one
};

// A running job ended so that a higher-tier job can start (PreemptType=preempt/partition_prio).
struct PreemptDecision {
    JobId victim;
    JobId preemptor;
    PreemptMode mode = PreemptMode::Cancel; // Cancel ends it PREEMPTED, Requeue requeues it
    Seconds endAt = 0; // now + GraceTime of the victim's partition
};

struct PriorityEntry {
    JobId job;
    PriorityFactors factors;
};

struct SchedulePlan {
    std::vector<StartDecision> starts;
    std::vector<WaitDecision> waits; // every pending job that does not start, with its reason
    std::vector<PreemptDecision> preemptions;
    std::vector<PriorityEntry> priorities; // every pending job, for sprio
};

// Everything a pass reads. `running` are the jobs holding nodes (for planned starts and
// backfill); their expected end is startTime + timeLimit, or preemptEnd when set.
struct SchedulerInput {
    const ClusterConfig *config = nullptr;
    std::vector<NodeUsage> nodes;
    std::vector<const Job *> pending;
    std::vector<const Job *> running;
    const JobLookup *lookup = nullptr; // nullptr: looks among pending and running only
    const FairShareLedger *fairshare = nullptr;
    Seconds now = 0;
    const ClusterIndex *index = nullptr; // nullptr: the pass indexes `nodes` itself
    // When set, the nodes are read from here instead of `nodes` (a caller that keeps its node
    // table in this form saves the copy); it must outlive the pass.
    const std::vector<NodeUsage> *nodeView = nullptr;
    // Optional: each running job's nodes as indices into nodeList(), in the order of `running`
    // (a caller that keeps them saves the lookups by name); ignored unless the sizes match.
    std::vector<const std::vector<std::size_t> *> runningNodes{};
    const std::vector<NodeUsage> &nodeList() const { return nodeView ? *nodeView : nodes; }
};

struct SchedulerOptions {
    std::optional<SchedulerKind> policy; // unset: SchedulerType= of the config
    int reservationDepth = 100; // blocked jobs that get a reservation and a planned start
};

class Scheduler {
public:
    explicit Scheduler(SchedulerOptions options = {});
    SchedulePlan run(const SchedulerInput &input) const;

private:
    SchedulerOptions m_options;
};

class PassRunner;

// A Scheduler that keeps the working state of its last pass (node plan, reservations, queue
// order). After a pass, jobs submitted since can be decided alone with append(): the result is
// the one a full pass would give, provided nothing else changed since that pass (no job
// started, ended, was held or changed; no node or partition changed; no clock-driven
// eligibility) and the new jobs sort after every job of that pass (priority/basic; append
// checks this and returns nullopt otherwise; then call run()). The caller vouches for the
// rest. The jobs of the last input must stay alive while the session is used.
// run() takes over the node plan of the last pass and brings it up to date (SchedulePass):
// the plan is the one a Scheduler would give; only the work differs.
class ScheduleSession {
public:
    explicit ScheduleSession(SchedulerOptions options = {});
    ~ScheduleSession();
    ScheduleSession(const ScheduleSession &) = delete;
    ScheduleSession &operator=(const ScheduleSession &) = delete;

    SchedulePlan run(const SchedulerInput &input);
    std::optional<SchedulePlan> append(const std::vector<const Job *> &jobs, Seconds now);
    void reset();

private:
    SchedulerOptions m_options;
    std::unique_ptr<PassRunner> m_runner;
};

// The controller's entry point: `pending` in any order, no running jobs known (so no planned
// starts). `nodes` is updated by the caller after applying the plan.
SchedulePlan schedule(const ClusterConfig &config, const std::vector<NodeUsage> &nodes,
    const std::vector<const Job *> &pending, Seconds now);

} // namespace mc::sched
