#include "mc/sched/policy.h"

namespace mc::sched {

BackfillPolicy::BackfillPolicy(int reservationDepth)
    : m_depth(reservationDepth)
{ }

bool BackfillPolicy::mayTry(const SchedulePass &, const QueueEntry &) const
{
    return true; // the planner's reservations keep the jobs ahead from being delayed
}

std::optional<std::pair<std::vector<std::size_t>, Seconds>> BackfillPolicy::tryNow(
    SchedulePass &pass, const QueueEntry &entry) const
{
    if (auto nodes = pass.fitNow(entry, entry.duration)) {
        return std::pair{std::move(*nodes), entry.duration};
    }
    const auto &timeMin = entry.job->spec.timeMin;
    if (!timeMin || entry.duration == kInfinite || *timeMin >= entry.duration) {
        return std::nullopt;
    }
    // Fitting only gets easier as the limit shrinks: the longest limit that fits, in minutes.
    Seconds low = (*timeMin + 59) / 60;
    Seconds high = entry.duration / 60;
    std::optional<std::pair<std::vector<std::size_t>, Seconds>> best;
    while (low <= high) {
        const Seconds mid = low + (high - low) / 2;
        if (auto nodes = pass.fitNow(entry, mid * 60)) {
            best = std::pair{std::move(*nodes), mid * 60};
            low = mid + 1;
        } else {
            high = mid - 1;
        }
    }
    return best;
}

WaitDecision BackfillPolicy::onBlocked(SchedulePass &pass, const QueueEntry &entry) const
{
    return waitForResources(pass, entry, true, m_depth);
}

} // namespace mc::sched
