#pragma once
// What a running job holds on its nodes: the one rule the controller and the simulator both
// apply when a job starts and ends (issue #17), so that the golden scenarios pin the live
// controller's bookkeeping too. A job holds its shape's share of each node, or with
// --exclusive (or OverSubscribe=EXCLUSIVE) the whole node: every CPU, all memory, every GPU.
// Its AllocCPUS is what it holds in all, as Slurm counts it.

#include "mc/sched/job.h"
#include "mc/sched/scheduler.h"

#include <vector>

namespace mc::sched {

struct NodeHold {
    int cpus = 0;
    MiB memory = 0;
    int gpus = 0;
};

// A job of `shape` on `node`, the `k`-th of its nodes (an uneven layout such as 4,2 holds
// shape.cpusOnNode[k] there).
NodeHold holdOn(const NodeUsage &node, const JobShape &shape, std::size_t k = 0);

// GPUs `job` holds on its `k`-th node: the indices picked there (GPUs spread unevenly,
// --gpus=3 -N2, hold 2 and 1), or gpusPerNode when none were picked (the simulator).
int gpusOnNode(const Job &job, std::size_t k);

// Takes (sign = +1) or gives back (-1) `hold` on `node`; never below zero.
void applyHold(NodeUsage &node, const NodeHold &hold, int sign);

// The shape a running job holds its nodes with, from its record: its per-node share of
// AllocCPUS (each node's own when uneven), memory and GPUs; exclusive when it asked --exclusive or
// its partition is OverSubscribe=EXCLUSIVE.
JobShape heldShape(const Job &job, const ClusterConfig &config);

// startJob() with AllocCPUS as Slurm counts it: `nodes` are the usages of start.nodes (null
// for a node not known), and an exclusive job's AllocCPUS is every CPU of its nodes.
Job startOnNodes(
    Job job, const StartDecision &start, const std::vector<const NodeUsage *> &nodes, Seconds now);

} // namespace mc::sched
