#include "mc/sched/preemption.h"

#include "mc/sched/node_hold.h"

#include <algorithm>
#include <map>

namespace mc::sched {

PreemptMode preemptModeOf(const ClusterConfig &config, const PartitionConfig &partition)
{
    return partition.preemptMode.value_or(config.preemptMode);
}

std::vector<PreemptDecision> choosePreemptions(const SchedulePass &pass, const QueueEntry &entry)
{
    const SchedulerInput &input = pass.input();
    const ClusterConfig &config = *input.config;
    if (!config.preemptPartitionPrio || !entry.partition) {
        return {};
    }
    struct Victim {
        const Job *job;
        const PartitionConfig *partition;
    };
    std::vector<Victim> victims;
    for (const Job *job : input.running) {
        const PartitionConfig *part = config.partition(job->spec.partition);
        if (!part || job->preemptEnd || part->priorityTier >= entry.partition->priorityTier
            || preemptModeOf(config, *part) == PreemptMode::Off) {
            continue;
        }
        victims.push_back({job, part});
    }
    if (victims.empty()) {
        return {};
    }
    std::sort(victims.begin(), victims.end(), [](const Victim &a, const Victim &b) {
        if (a.partition->priorityTier != b.partition->priorityTier) {
            return a.partition->priorityTier < b.partition->priorityTier;
        }
        if (a.job->priority != b.job->priority) {
            return a.job->priority < b.job->priority;
        }
        return a.job->startTime > b.job->startTime;
    });
    // What-if: a copy of the planner where each chosen victim gives its nodes back at now.
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < input.nodeList().size(); ++i) {
        index.emplace(input.nodeList()[i].name, i);
    }
    Planner whatIf = pass.planner();
    std::vector<PreemptDecision> chosen;
    Seconds latest = input.now;
    const int wanted = std::max(entry.shape.nodes, static_cast<int>(entry.required));
    for (const Victim &v : victims) {
        bool relevant = false;
        for (std::size_t k = 0; k < v.job->nodeList.size(); ++k) {
            auto it = index.find(v.job->nodeList[k]);
            if (it == index.end()) {
                continue;
            }
            relevant = relevant
                || std::find(entry.candidates->begin(), entry.candidates->end(), it->second)
                    != entry.candidates->end();
            const NodeUsage &n = input.nodeList()[it->second];
            Amount back{v.job->cpusOnNode(k), v.job->memPerNode, gpusOnNode(*v.job, k)};
            if (v.job->spec.exclusive || v.partition->exclusive) {
                back = Amount{n.cpus, n.memory, n.gpus};
            }
            // Released now in the what-if; the job itself starts after the grace time.
            whatIf.addRelease(it->second, input.now, back);
        }
        if (!relevant) {
            continue;
        }
        const Seconds endAt = input.now + v.partition->graceTime;
        latest = std::max(latest, endAt);
        chosen.push_back({v.job->id, entry.job->id, preemptModeOf(config, *v.partition), endAt});
        int fitting = 0;
        const Seconds until = entry.duration == kInfinite ? kInfinite : latest + entry.duration;
        for (std::size_t n : *entry.candidates) {
            if (whatIf.fits(n, pass.needOn(entry, n), latest, until)) {
                ++fitting;
            }
        }
        if (fitting >= wanted) {
            return chosen;
        }
    }
    return {};
}

} // namespace mc::sched
