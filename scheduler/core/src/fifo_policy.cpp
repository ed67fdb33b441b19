#include "mc/sched/policy.h"

namespace mc::sched {

FifoPolicy::FifoPolicy(int planDepth)
    : m_planDepth(planDepth)
{ }

bool FifoPolicy::mayTry(const SchedulePass &pass, const QueueEntry &entry) const
{
    return !pass.firstBlocked(entry.partition->name);
}

std::optional<std::pair<std::vector<std::size_t>, Seconds>> FifoPolicy::tryNow(
    SchedulePass &pass, const QueueEntry &entry) const
{
    if (auto nodes = pass.fitNow(entry, entry.duration)) {
        return std::pair{std::move(*nodes), entry.duration};
    }
    return std::nullopt;
}

WaitDecision FifoPolicy::onBlocked(SchedulePass &pass, const QueueEntry &entry) const
{
    // The head of a partition gets a planned start (nothing behind it starts anyway; the
    // reservation keeps jobs of overlapping partitions from taking its place).
    return waitForResources(pass, entry, true, m_planDepth);
}

WaitDecision waitForResources(SchedulePass &pass, const QueueEntry &entry, bool reserve, int depth)
{
    WaitDecision wait{entry.job->id, Reason::Resources, std::nullopt, {}, {}, {}};
    const std::string &partition = entry.partition->name;
    if (auto ahead = pass.firstBlocked(partition)) {
        wait.reason = Reason::Priority;
        wait.waitingFor.push_back(*ahead);
    }
    if (reserve && pass.reservations() < depth) {
        if (auto slot = pass.earliest(entry)) {
            pass.reserve(entry, *slot);
            wait.plannedStart = slot->start;
            wait.nodes = pass.names(slot->nodes);
            if (wait.reason == Reason::Resources) {
                wait.waitingFor = pass.runningOn(slot->nodes, slot->start);
            }
        }
    }
    pass.markBlocked(partition, entry.job->id);
    return wait;
}

} // namespace mc::sched
