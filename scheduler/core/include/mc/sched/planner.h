#pragma once
// Node availability over time, for one scheduling pass. Each node has a step function of free
// resources from `now` on: running jobs give back what they hold at their expected end, starts
// and reservations take resources over [from, until). Invariant: a node's free amounts never go
// below zero at any time when callers only take what fits() allowed.

#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace mc::sched {

// Resources of one node, or what a job takes on one node.
struct Amount {
    int cpus = 0;
    MiB memory = 0;
    int gpus = 0;

    bool covers(const Amount &need) const
    {
        return cpus >= need.cpus && memory >= need.memory && gpus >= need.gpus;
    }
};

class Planner {
public:
    // `freeNow[i]` is what node i has free at `now` (unavailable nodes: pass a zero Amount).
    Planner(std::vector<Amount> freeNow, Seconds now);

    Seconds now() const { return m_now; }
    std::size_t size() const { return m_nodes.size(); }

    // A running job hands `amount` back to `node` at `at` (> now); kInfinite: never.
    void addRelease(std::size_t node, Seconds at, const Amount &amount);
    // True when `node` has `need` free during all of [from, until); until == kInfinite: forever.
    bool fits(std::size_t node, const Amount &need, Seconds from, Seconds until) const;
    // Takes `need` from `node` during [from, until). Call only after fits() said yes.
    void take(std::size_t node, const Amount &need, Seconds from, Seconds until);
    // The earliest time >= now from which `node` has `need` free for `duration` seconds
    // (kInfinite duration: for ever after); nullopt when never.
    std::optional<Seconds> earliestOn(std::size_t node, const Amount &need, Seconds duration) const;
    // The earliest time at which `count` of `candidates` all have `need` free for `duration`,
    // and those nodes (the first `count` that fit, in candidate order); nullopt when never.
    struct Slot {
        Seconds start = 0;
        std::vector<std::size_t> nodes;
    };
    std::optional<Slot> earliestSlot(const std::vector<std::size_t> &candidates, const Amount &need,
        Seconds duration, int count) const;
    // Free amount on `node` at `at`.
    Amount freeAt(std::size_t node, Seconds at) const;

private:
    struct Step {
        Seconds time; // the amounts hold from here to the next step
        Amount free;
    };
    using Profile = std::vector<Step>;

    static std::size_t splitAt(Profile &profile, Seconds at);
    static Seconds endOf(Seconds from, Seconds duration);

    std::vector<Profile> m_nodes;
    Seconds m_now;
};

} // namespace mc::sched
