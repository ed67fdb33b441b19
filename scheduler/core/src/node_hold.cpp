#include "mc/sched/node_hold.h"

#include "mc/sched/job_transitions.h"
#include "mc/sched/slurm_conf.h"

#include <algorithm>

namespace mc::sched {

NodeHold holdOn(const NodeUsage &node, const JobShape &shape, std::size_t k)
{
    if (shape.exclusive) {
        return {node.cpus, node.memory, node.gpus};
    }
    const int cpus = k < shape.cpusOnNode.size() ? shape.cpusOnNode[k] : shape.cpusPerNode;
    const int gpus = k < shape.gpusOnNode.size() ? shape.gpusOnNode[k] : shape.gpusPerNode;
    return {cpus, shape.memPerNode, gpus};
}

int gpusOnNode(const Job &job, std::size_t k)
{
    if (job.gpuIds.size() == job.nodeList.size() && k < job.gpuIds.size()) {
        return static_cast<int>(job.gpuIds[k].size());
    }
    return job.gpusPerNode;
}

void applyHold(NodeUsage &node, const NodeHold &hold, int sign)
{
    node.allocCpus = std::max(0, node.allocCpus + sign * hold.cpus);
    node.allocMemory = std::max<MiB>(0, node.allocMemory + sign * hold.memory);
    node.allocGpus = std::max(0, node.allocGpus + sign * hold.gpus);
}

JobShape heldShape(const Job &job, const ClusterConfig &config)
{
    const PartitionConfig *part = config.partition(job.spec.partition);
    JobShape shape;
    shape.nodes = std::max<int>(1, static_cast<int>(job.nodeList.size()));
    shape.cpusPerNode = job.cpusOnNode(0);
    shape.cpusOnNode = job.nodeCpus;
    shape.memPerNode = job.memPerNode;
    shape.gpusPerNode = job.gpusPerNode;
    shape.exclusive = job.spec.exclusive || (part && part->exclusive);
    // GPUs spread unevenly (--gpus=3 -N2): each node's own, as the controller picked them. A
    // job with no indices (the simulator picks none) holds gpusPerNode, its most, on each.
    const auto &ids = job.gpuIds;
    if (!shape.exclusive && ids.size() == job.nodeList.size()
        && std::any_of(ids.begin(), ids.end(),
            [&ids](const auto &node) { return node.size() != ids.front().size(); })) {
        for (const auto &node : ids) {
            shape.gpusOnNode.push_back(static_cast<int>(node.size()));
        }
    }
    return shape;
}

Job startOnNodes(
    Job job, const StartDecision &start, const std::vector<const NodeUsage *> &nodes, Seconds now)
{
    job = startJob(std::move(job), start, now);
    if (start.shape.exclusive) {
        job.allocCpus = 0; // every CPU of the nodes is the job's
        for (const NodeUsage *node : nodes) {
            job.allocCpus += node ? node->cpus : 0;
        }
    }
    return job;
}

} // namespace mc::sched
