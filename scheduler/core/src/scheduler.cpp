#include "mc/sched/scheduler.h"

#include <algorithm>
#include <map>
#include <set>

namespace mc::sched {

JobShape shapeOf(const JobSpec &spec, const ClusterConfig &config)
{
    JobShape shape;
    shape.nodes = std::max(1, spec.nodes);
    int tasksPerNode = (std::max(1, spec.ntasks) + shape.nodes - 1) / shape.nodes;
    shape.cpusPerNode = tasksPerNode * std::max(1, spec.cpusPerTask);
    if (spec.memPerNode) {
        shape.memPerNode = *spec.memPerNode;
    } else if (spec.memPerCpu) {
        shape.memPerNode = *spec.memPerCpu * shape.cpusPerNode;
    } else if (config.defMemPerCpu) {
        shape.memPerNode = *config.defMemPerCpu * shape.cpusPerNode;
    } else if (config.defMemPerNode) {
        shape.memPerNode = *config.defMemPerNode;
    }
    return shape;
}

SchedulePlan schedule(const ClusterConfig &config, const std::vector<NodeUsage> &nodes,
    const std::vector<const Job *> &pending, Seconds now)
{
    SchedulePlan plan;
    std::vector<NodeUsage> free = nodes;
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < free.size(); ++i) {
        index[free[i].name] = i;
    }

    std::vector<const Job *> order = pending;
    std::sort(order.begin(), order.end(), [](const Job *a, const Job *b) { return a->id < b->id; });

    std::set<std::string> blockedPartitions; // FIFO: a partition stops at its first waiting job
    for (const Job *job : order) {
        const PartitionConfig *part = config.partition(job->spec.partition);
        auto wait = [&](Reason r) {
            plan.waits.push_back({job->id, r});
        };
        if (!part) {
            wait(Reason::BadConstraints);
            continue;
        }
        if (job->spec.hold) {
            wait(Reason::JobHeldUser);
            continue;
        }
        if (job->eligibleTime > now) {
            wait(Reason::BeginTime);
            continue;
        }
        if (part->state == PartitionState::Down || part->state == PartitionState::Inactive) {
            wait(part->state == PartitionState::Down ? Reason::PartitionDown
                                                     : Reason::PartitionInactive);
            continue;
        }
        if (part->maxTime != kInfinite
            && (job->timeLimit == kInfinite || job->timeLimit > part->maxTime)) {
            wait(Reason::PartitionTimeLimit);
            continue;
        }
        if (blockedPartitions.count(part->name)) {
            wait(Reason::Priority);
            continue;
        }
        JobShape shape = shapeOf(job->spec, config);
        std::vector<std::size_t> chosen;
        for (const auto &name : part->nodes) {
            auto it = index.find(name);
            if (it == index.end()) {
                continue;
            }
            const NodeUsage &n = free[it->second];
            if (n.available && n.cpus - n.allocCpus >= shape.cpusPerNode
                && n.memory - n.allocMemory >= shape.memPerNode) {
                chosen.push_back(it->second);
                if (static_cast<int>(chosen.size()) == shape.nodes) {
                    break;
                }
            }
        }
        if (static_cast<int>(chosen.size()) < shape.nodes) {
            blockedPartitions.insert(part->name);
            wait(Reason::Resources);
            continue;
        }
        StartDecision start{job->id, {}, shape};
        for (std::size_t i : chosen) {
            free[i].allocCpus += shape.cpusPerNode;
            free[i].allocMemory += shape.memPerNode;
            start.nodes.push_back(free[i].name);
        }
        plan.starts.push_back(std::move(start));
    }
    return plan;
}

} // namespace mc::sched
