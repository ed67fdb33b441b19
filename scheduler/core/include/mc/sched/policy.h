#pragma once
// Scheduling policies: what a pending job that cannot start now holds back. Both try jobs in
// queue order; they differ in what happens after the first one waits.
//   FifoPolicy (SchedulerType=sched/builtin): nothing behind a waiting job of the same
//     partition is tried; they wait with reason Priority.
//   BackfillPolicy (sched/backfill, EASY with a reservation for each of the top blocked jobs,
//     up to a depth): later jobs start when they fit in the holes without delaying any
//     reservation; --time-min lets a job start with a shorter limit that fits a hole.

#include "mc/sched/schedule_pass.h"

namespace mc::sched {

class Policy {
public:
    virtual ~Policy() = default;
    // May `entry` be tried now, after the jobs before it in this pass?
    virtual bool mayTry(const SchedulePass &pass, const QueueEntry &entry) const = 0;
    // Nodes and the granted time limit for starting `entry` now, or nullopt.
    virtual std::optional<std::pair<std::vector<std::size_t>, Seconds>> tryNow(
        SchedulePass &pass, const QueueEntry &entry) const = 0;
    // `entry` cannot start now: reserve what the policy keeps for it; the wait decision.
    virtual WaitDecision onBlocked(SchedulePass &pass, const QueueEntry &entry) const = 0;
};

class FifoPolicy final : public Policy {
public:
    explicit FifoPolicy(int planDepth = 100);
    bool mayTry(const SchedulePass &pass, const QueueEntry &entry) const override;
    std::optional<std::pair<std::vector<std::size_t>, Seconds>> tryNow(
        SchedulePass &pass, const QueueEntry &entry) const override;
    WaitDecision onBlocked(SchedulePass &pass, const QueueEntry &entry) const override;

private:
    int m_planDepth;
};

class BackfillPolicy final : public Policy {
public:
    explicit BackfillPolicy(int reservationDepth = 100);
    bool mayTry(const SchedulePass &pass, const QueueEntry &entry) const override;
    std::optional<std::pair<std::vector<std::size_t>, Seconds>> tryNow(
        SchedulePass &pass, const QueueEntry &entry) const override;
    WaitDecision onBlocked(SchedulePass &pass, const QueueEntry &entry) const override;

private:
    int m_depth;
};

// The decision for a job that waits behind the resources (the first blocked job of its
// partition: Resources) or behind a job ahead of it (Priority), with a reservation made when
// `reserve` and depth allow; shared by both policies.
WaitDecision waitForResources(SchedulePass &pass, const QueueEntry &entry, bool reserve, int depth);

} // namespace mc::sched
