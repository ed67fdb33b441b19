#pragma once
// One scheduling pass: pending jobs and node usage in, decisions out. Pure: it reads no clock
// (`now` is given) and does no I/O. Today: first-in-first-out within each partition by
// priority then job id, jobs placed on the first nodes with room (issue #3 brings multifactor
// priority and backfill behind the same interface).

#include "mc/sched/job.h"
#include "mc/sched/slurm_conf.h"

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
};

// The resources a job needs on each of its nodes.
struct JobShape {
    int nodes = 1;
    int cpusPerNode = 1;
    MiB memPerNode = 0;
};

// Resolves the job's request against cluster defaults (DefMemPerCPU, DefMemPerNode).
JobShape shapeOf(const JobSpec &spec, const ClusterConfig &config);

struct StartDecision {
    JobId job;
    std::vector<std::string> nodes;
    JobShape shape;
};

struct WaitDecision {
    JobId job;
    Reason reason;
};

struct SchedulePlan {
    std::vector<StartDecision> starts;
    std::vector<WaitDecision> waits; // every pending job that does not start, with its reason
};

// `pending` in any order; jobs are considered by (priority desc, id asc) — today priority is
// submission order. `nodes` is updated by the caller after applying the plan.
SchedulePlan schedule(const ClusterConfig &config, const std::vector<NodeUsage> &nodes,
    const std::vector<const Job *> &pending, Seconds now);

} // namespace mc::sched
