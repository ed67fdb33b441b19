#include "mc/sched/eligibility.h"

#include <algorithm>

namespace mc::sched {
namespace {

WaitDecision waiting(const Job &job, Reason reason)
{
    return WaitDecision{job.id, reason, std::nullopt, {}, {}, {}};
}

} // namespace

std::optional<WaitDecision> ineligible(
    const QueueEntry &entry, const SchedulerInput &input, const JobLookup &lookup, int runningTasks)
{
    const Job &job = *entry.job;
    const Seconds now = input.now;
    if (job.heldByAdmin) {
        return waiting(job, Reason::JobHeldAdmin);
    }
    if (job.spec.hold) {
        return waiting(job, Reason::JobHeldUser);
    }
    if (!job.spec.dependency.empty()) {
        DependencyResult dep = evaluateDependency(job, lookup, now);
        if (dep.status != DependencyStatus::Satisfied) {
            WaitDecision wait = waiting(job,
                dep.status == DependencyStatus::Never ? Reason::DependencyNeverSatisfied
                                                      : Reason::Dependency);
            wait.waitingFor = std::move(dep.waitingFor);
            wait.plannedStart = dep.readyAt; // no start before then
            wait.dependency = std::move(dep.display);
            return wait;
        }
    }
    const Seconds begin = std::max(job.eligibleTime, job.spec.begin.value_or(0));
    if (begin > now) {
        WaitDecision wait = waiting(job, Reason::BeginTime);
        wait.plannedStart = begin;
        return wait;
    }
    const PartitionConfig *part = entry.partition;
    if (!part) {
        return waiting(job, Reason::BadConstraints);
    }
    if (part->state == PartitionState::Down) {
        return waiting(job, Reason::PartitionDown);
    }
    if (part->state == PartitionState::Inactive) {
        return waiting(job, Reason::PartitionInactive);
    }
    if (part->maxTime != kInfinite && (job.timeLimit == kInfinite || job.timeLimit > part->maxTime)
        && !(job.spec.timeMin && *job.spec.timeMin <= part->maxTime)) {
        return waiting(job, Reason::PartitionTimeLimit);
    }
    if ((part->maxNodes && entry.shape.nodes > *part->maxNodes)
        || entry.shape.nodes < part->minNodes
        || entry.shape.nodes > static_cast<int>(part->nodes.size())) {
        return waiting(job, Reason::PartitionNodeLimit);
    }
    if (!part->allowAccounts.empty()
        && std::find(part->allowAccounts.begin(), part->allowAccounts.end(), job.spec.account)
            == part->allowAccounts.end()) {
        return waiting(job, Reason::InvalidAccount);
    }
    const int wanted = std::max(entry.shape.nodes, static_cast<int>(entry.required));
    const bool tooFew = static_cast<int>(entry.candidates->size()) < wanted;
    if (tooFew && !job.spec.constraint.empty()
        && std::none_of(part->nodes.begin(), part->nodes.end(), [&](const std::string &name) {
               return satisfiesConstraint(input.config->node(name), job.spec.constraint);
           })) {
        return waiting(job, Reason::BadConstraints);
    }
    // Requested nodes down or drained, or too few usable nodes left in the partition.
    std::vector<std::string> unavailable;
    for (const auto &name : job.spec.nodeList) {
        auto it = std::find_if(input.nodeList().begin(), input.nodeList().end(),
            [&](const NodeUsage &n) { return n.name == name; });
        if (it == input.nodeList().end() || !it->available) {
            unavailable.push_back(name);
        }
    }
    if (!unavailable.empty() || tooFew) {
        WaitDecision wait = waiting(job, Reason::ReqNodeNotAvail);
        if (unavailable.empty()) {
            for (const auto &name : part->nodes) {
                auto it = std::find_if(input.nodeList().begin(), input.nodeList().end(),
                    [&](const NodeUsage &n) { return n.name == name; });
                if (it == input.nodeList().end() || !it->available) {
                    unavailable.push_back(name);
                }
            }
        }
        wait.nodes = std::move(unavailable);
        return wait;
    }
    if (job.arrayMaxRunning > 0 && !job.arrayPending.empty()
        && runningTasks >= job.arrayMaxRunning) {
        return waiting(job, Reason::JobArrayTaskLimit);
    }
    return std::nullopt;
}

} // namespace mc::sched
