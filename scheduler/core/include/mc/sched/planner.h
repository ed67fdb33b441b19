#pragma once
// Node availability over time, for one scheduling pass. Each node has a step function of free
// resources from `now` on: running jobs give back what they hold at their expected end, starts
// and reservations take resources over [from, until). Invariant: a node's free amounts never go
// below zero at any time when callers only take what fits() allowed.

#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <utility>
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
    std::size_t size() const { return m_spans.size(); }

    struct Release {
        std::size_t node;
        Seconds at;
        Amount amount;
    };
    // The same followed by addReleases(releases), built in one go.
    Planner(std::vector<Amount> freeNow, Seconds now, const std::vector<Release> &releases);

    // A running job hands `amount` back to `node` at `at` (> now); kInfinite: never.
    void addRelease(std::size_t node, Seconds at, const Amount &amount);
    // Many addRelease() at once: the same profiles, each written once.
    void addReleases(const std::vector<Release> &releases);
    // True when `node` has `need` free during all of [from, until); until == kInfinite: forever.
    bool fits(std::size_t node, const Amount &need, Seconds from, Seconds until) const;
    // Takes `need` from `node` during [from, until). Call only after fits() said yes.
    void take(std::size_t node, const Amount &need, Seconds from, Seconds until);
    // The earliest time >= now from which `node` has `need` free for `duration` seconds
    // (kInfinite duration: for ever after); nullopt when never.
    // A start at or after `bound` is not looked for (nullopt then): callers that already know
    // a slot at `bound` only want earlier ones.
    std::optional<Seconds> earliestOn(
        std::size_t node, const Amount &need, Seconds duration, Seconds bound = kInfinite) const;
    // The earliest time at which `count` of `candidates` all have `need` free for `duration`,
    // and those nodes (the first `count` that fit, in candidate order); nullopt when never.
    struct Slot {
        Seconds start = 0;
        std::vector<std::size_t> nodes;
    };
    // `listId`, when given, names `candidates` for the planner's life (the same id, the same
    // list): what the planner learns about the list is then kept between calls.
    std::optional<Slot> earliestSlot(const std::vector<std::size_t> &candidates, const Amount &need,
        Seconds duration, int count, const void *listId = nullptr) const;
    // The first `count` of `candidates` (in their order) that have `need` free during
    // [now, until), or nullopt when fewer do. `listId` as for earliestSlot.
    std::optional<std::vector<std::size_t>> fitNow(const std::vector<std::size_t> &candidates,
        const Amount &need, Seconds until, int count, const void *listId = nullptr) const;
    // Free amount on `node` at `at`.
    Amount freeAt(std::size_t node, Seconds at) const;
    // Moves `now` forward to `now` (>= the current one). Valid only when no step lies in
    // between: nothing was released or reserved from the old `now` to the new one.
    void advanceTo(Seconds now) { m_now = std::max(m_now, now); }

    // For a planner kept from one pass to the next (ScheduleSession):
    // Gives `amount` back to `node` during [from, until): undoes take() with the same
    // arguments, or frees what a job that ended early held until its expected end.
    void give(std::size_t node, const Amount &amount, Seconds from, Seconds until);
    // Moves `now` forward to `now` (>= the current one): each node's profile then starts with
    // the amounts it has at `now`, and steps that change nothing are dropped. Forgets what
    // earliestSlot and fitNow learnt.
    void collapseTo(Seconds now);
    // What `node` has free now.
    const Amount &freeNow(std::size_t node) const { return m_steps[m_spans[node].offset].free; }
    // True when nodes that outgrew their room left much unused space in the step array.
    bool fragmented() const;

private:
    struct Step {
        Seconds time; // the amounts hold from here to the next step
        Amount free;
    };
    // Every node's steps live in one array (fewer allocations per pass): node i owns
    // m_steps[offset, offset + capacity), of which the first `size` are used; a node that
    // outgrows its room moves to the end of the array with twice the room.
    struct Span {
        std::size_t offset;
        std::size_t size;
        std::size_t capacity;
    };
    using Profile = std::span<const Step>;
    Profile profile(std::size_t node) const
    {
        const Span &s = m_spans[node];
        return {m_steps.data() + s.offset, s.size};
    }

    // Index (in the node's profile) of the step starting exactly at `at` (>= its first
    // step's time), inserting one if needed.
    std::size_t splitAt(std::size_t node, Seconds at);
    static Seconds endOf(Seconds from, Seconds duration);

    // A candidate node with a lower bound of the time it first has a need free (the first step
    // that covers it). take() only lowers free amounts, so a bound computed before stays a
    // lower bound: the lists are computed once per candidate list and need, and kept.
    // Each also keeps what a scan of its profile found last (in this planner's life): its
    // first covering run [runStart, runEnd) and the start of the next covering step (kForever:
    // none). Later takes only shrink the covering times, so for a duration that the run was
    // too short for, `next` stays a lower bound of the earliest start; and runStart always is.
    struct Bounded {
        Seconds lower;
        std::size_t position; // in the candidate list
        std::size_t node;
        Seconds runStart = 0;
        Seconds runEnd = 0;
        Seconds next = 0;
    };
    struct BoundKey {
        const void *candidates;
        int cpus;
        MiB memory;
        int gpus;
        auto operator<=>(const BoundKey &) const = default;
    };
    // The candidates that ever have `need` free: first those that have it now (bound == now)
    // in candidate order, then the others by bound.
    // The later ones are bounded only when first asked for (fitNow never does), then sorted
    // lazily: callers usually stop after the first few.
    struct BoundList {
        std::vector<Bounded> items; // the free-now ones, then later ones sorted so far
        std::size_t freeNow = 0; // items[0, freeNow) have the need free now
        // Later ones not yet in `items`: a min-heap by key, then candidate order. The key is
        // the bound when `exact`, else a lower bound of it (the node's second step).
        struct Keyed { // 16 bytes: the heap moves many
            Seconds key;
            std::uint32_t position; // in the candidate list
            std::uint32_t exact;
            bool operator>(const Keyed &o) const
            {
                return key != o.key ? key > o.key : position > o.position;
            }
        };
        std::vector<Keyed> heap;
        // Positions of the candidates not free now, before their bounds are computed.
        std::vector<std::size_t> deferred;
        const std::vector<std::size_t> *candidates = nullptr;
        Amount need;
        // The i-th by bound (then candidate order), or nullptr past the end.
        Bounded *at(std::size_t i, const Planner &planner)
        {
            return i < items.size() ? &items[i] : sortMore(i, planner);
        }
        Bounded *sortMore(std::size_t i, const Planner &planner);
    };
    // Scans `b`'s node for its first covering run of `need` (see Bounded).
    void scanRuns(Bounded &b, const Amount &need) const;
    // Whether the first covering run found by the last scan of `b` lasts `duration`.
    static bool longEnough(const Bounded &b, Seconds duration);
    // What the last scan of `b` tells of its earliest start for `duration`: a lower bound.
    static Seconds knownStart(const Bounded &b, Seconds duration);
    BoundList bounds(const std::vector<std::size_t> &candidates, const Amount &need) const;
    // The bounds of a named list, computed once (see listId); `scratch` holds unnamed ones.
    BoundList &byLowerBound(const std::vector<std::size_t> &candidates, const Amount &need,
        const void *listId, BoundList &scratch) const;
    // The first `count` candidates (in candidate order) among those with a bound <= t that
    // have `need` free during [t, end).
    std::optional<std::vector<std::size_t>> firstFitting(BoundList &list, std::size_t limit,
        const Amount &need, Seconds t, Seconds end, int count) const;

    std::vector<Step> m_steps;
    std::vector<Span> m_spans;
    // Each node's second step time (kForever: it has one step), kept with the profiles: a
    // node without a need free now has it at that time at the earliest.
    std::vector<Seconds> m_second;
    Seconds m_now;
    mutable std::map<BoundKey, BoundList> m_bounds;
    // Lists forgotten, kept for their buffers (a planner kept from pass to pass reuses them).
    mutable std::vector<BoundList> m_spareLists;
    void forgetBounds();
    // Scratch space of firstFitting and earliestSlot, kept to save allocations.
    mutable std::vector<std::pair<std::size_t, std::size_t>> m_fitting;
    mutable std::vector<std::pair<Seconds, int>> m_events;
    mutable std::vector<Seconds> m_smallest;
};

} // namespace mc::sched
