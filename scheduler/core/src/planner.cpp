#include "mc/sched/planner.h"

#include <algorithm>
#include <limits>

namespace mc::sched {
namespace {

constexpr Seconds kForever = std::numeric_limits<Seconds>::max();

Seconds finite(Seconds t)
{
    return t == kInfinite ? kForever : t;
}

} // namespace

Planner::Planner(std::vector<Amount> freeNow, Seconds now)
    : m_now(now)
{
    constexpr std::size_t kRoom = 4; // now, a few releases and reservations
    m_steps.resize(freeNow.size() * kRoom);
    m_spans.reserve(freeNow.size());
    for (std::size_t i = 0; i < freeNow.size(); ++i) {
        m_steps[i * kRoom] = Step{now, freeNow[i]};
        m_spans.push_back(Span{i * kRoom, 1, kRoom});
    }
}

Seconds Planner::endOf(Seconds from, Seconds duration)
{
    if (duration == kInfinite || from > kForever - duration) {
        return kForever;
    }
    return from + duration;
}

std::size_t Planner::splitAt(std::size_t node, Seconds at)
{
    const Profile p = profile(node);
    auto it = std::upper_bound(
        p.begin(), p.end(), at, [](Seconds t, const Step &s) { return t < s.time; });
    // it points past the step containing `at`
    auto containing = it - 1;
    if (containing->time == at) {
        return static_cast<std::size_t>(containing - p.begin());
    }
    const std::size_t pos = static_cast<std::size_t>(it - p.begin());
    Span &span = m_spans[node];
    if (span.size == span.capacity) {
        const std::size_t offset = m_steps.size();
        m_steps.resize(offset + 2 * span.capacity);
        std::copy_n(m_steps.begin() + static_cast<std::ptrdiff_t>(span.offset), span.size,
            m_steps.begin() + static_cast<std::ptrdiff_t>(offset));
        span.offset = offset;
        span.capacity *= 2;
    }
    Step *steps = m_steps.data() + span.offset;
    std::move_backward(steps + pos, steps + span.size, steps + span.size + 1);
    steps[pos] = Step{at, steps[pos - 1].free};
    ++span.size;
    return pos;
}

void Planner::addRelease(std::size_t node, Seconds at, const Amount &amount)
{
    if (at == kInfinite) {
        return;
    }
    m_bounds.clear(); // free amounts grow: the bounds no longer hold
    const std::size_t first = splitAt(node, std::max(at, m_now));
    const Span &span = m_spans[node];
    Step *p = m_steps.data() + span.offset;
    for (std::size_t i = first; i < span.size; ++i) {
        p[i].free.cpus += amount.cpus;
        p[i].free.memory += amount.memory;
        p[i].free.gpus += amount.gpus;
    }
}

void Planner::addReleases(const std::vector<Release> &releases)
{
    m_bounds.clear(); // free amounts grow: the bounds no longer hold
    const std::size_t count = m_spans.size();
    const bool fresh
        = std::all_of(m_spans.begin(), m_spans.end(), [](const Span &s) { return s.size == 1; });
    if (!fresh) {
        for (const Release &r : releases) {
            addRelease(r.node, r.at, r.amount);
        }
        return;
    }
    // Bucket the releases by node (counting sort), then each node's by time.
    std::vector<std::size_t> first(count + 1, 0);
    for (const Release &r : releases) {
        if (r.at != kInfinite) {
            ++first[r.node + 1];
        }
    }
    for (std::size_t n = 0; n < count; ++n) {
        first[n + 1] += first[n];
    }
    std::vector<std::pair<Seconds, Amount>> byNode(first[count]);
    {
        std::vector<std::size_t> next(first.begin(), first.end() - 1);
        for (const Release &r : releases) {
            if (r.at != kInfinite) {
                byNode[next[r.node]++] = {std::max(r.at, m_now), r.amount};
            }
        }
    }
    std::vector<Step> steps;
    steps.reserve(count * 3 + byNode.size() * 2);
    std::vector<Span> spans;
    spans.reserve(count);
    for (std::size_t n = 0; n < count; ++n) {
        const auto from = byNode.begin() + static_cast<std::ptrdiff_t>(first[n]);
        const auto to = byNode.begin() + static_cast<std::ptrdiff_t>(first[n + 1]);
        for (auto it = from; it != to; ++it) { // a few each: insertion sort by time
            for (auto k = it; k != from && (k - 1)->first > k->first; --k) {
                std::iter_swap(k, k - 1);
            }
        }
        const std::size_t offset = steps.size();
        steps.push_back(m_steps[m_spans[n].offset]);
        for (auto it = from; it != to; ++it) {
            if (it->first != steps.back().time) {
                steps.push_back(Step{it->first, steps.back().free});
            }
            Amount &free = steps.back().free;
            free.cpus += it->second.cpus;
            free.memory += it->second.memory;
            free.gpus += it->second.gpus;
        }
        const std::size_t size = steps.size() - offset;
        const std::size_t room = size + 2; // one reservation (more: the node moves)
        steps.resize(offset + room);
        spans.push_back(Span{offset, size, room});
    }
    m_steps = std::move(steps);
    m_spans = std::move(spans);
}

bool Planner::fits(std::size_t node, const Amount &need, Seconds from, Seconds until) const
{
    const Profile p = profile(node);
    const Seconds end = finite(until);
    from = std::max(from, m_now);
    auto it = std::upper_bound(
        p.begin(), p.end(), from, [](Seconds t, const Step &s) { return t < s.time; });
    for (auto s = it - 1; s != p.end() && s->time < end; ++s) {
        if (!s->free.covers(need)) {
            return false;
        }
    }
    return true;
}

void Planner::take(std::size_t node, const Amount &need, Seconds from, Seconds until)
{
    const Seconds end = finite(until);
    const std::size_t first = splitAt(node, std::max(from, m_now));
    const std::size_t last = end == kForever ? m_spans[node].size : splitAt(node, end);
    Step *p = m_steps.data() + m_spans[node].offset;
    for (std::size_t i = first; i < last; ++i) {
        p[i].free.cpus -= need.cpus;
        p[i].free.memory -= need.memory;
        p[i].free.gpus -= need.gpus;
    }
}

std::optional<Seconds> Planner::earliestOn(
    std::size_t node, const Amount &need, Seconds duration, Seconds bound) const
{
    const Profile p = profile(node);
    const Seconds limit = finite(bound);
    // Two pointers: `start` is the first step of a run of covering steps.
    std::size_t start = 0;
    while (start < p.size()) {
        const Seconds from = std::max(p[start].time, m_now);
        if (from >= limit) {
            return std::nullopt;
        }
        if (!p[start].free.covers(need)) {
            ++start;
            continue;
        }
        const Seconds end = endOf(from, duration);
        std::size_t k = start;
        while (k < p.size() && p[k].time < end && p[k].free.covers(need)) {
            ++k;
        }
        if (k == p.size() || p[k].time >= end) {
            return from;
        }
        start = k + 1;
    }
    return std::nullopt;
}

bool Planner::laterBounded(const Bounded &a, const Bounded &b)
{
    return a.lower != b.lower ? a.lower > b.lower : a.position > b.position;
}

Planner::Bounded *Planner::BoundList::sortMore(std::size_t i, const Planner &planner)
{
    if (!deferred.empty()) {
        // Bounded now rather than when the list was made: takes since only raise the bounds.
        for (const std::size_t position : deferred) {
            const std::size_t node = (*candidates)[position];
            for (const Step &step : planner.profile(node)) {
                if (step.free.covers(need)) {
                    const Seconds lower = std::max(step.time, planner.m_now);
                    // Nothing scanned yet: the run is empty and `next` is the bound itself.
                    heap.push_back(Bounded{lower, position, node, lower, lower, lower});
                    break;
                }
            }
        }
        deferred.clear();
        std::make_heap(heap.begin(), heap.end(), laterBounded);
    }
    while (i >= items.size() && !heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), laterBounded);
        items.push_back(heap.back()); // capacity reserved: no reallocation
        heap.pop_back();
    }
    return i < items.size() ? &items[i] : nullptr;
}

Planner::BoundList Planner::bounds(
    const std::vector<std::size_t> &candidates, const Amount &need) const
{
    BoundList list;
    list.items.reserve(candidates.size());
    list.candidates = &candidates;
    list.need = need;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        // The first step holds from now on (no step lies before it and now).
        const Step &first = m_steps[m_spans[candidates[i]].offset];
        if (first.free.covers(need)) {
            list.items.push_back(Bounded{m_now, i, candidates[i], m_now, m_now, m_now});
        } else {
            list.deferred.push_back(i);
        }
    }
    list.freeNow = list.items.size();
    return list;
}

Planner::BoundList &Planner::byLowerBound(const std::vector<std::size_t> &candidates,
    const Amount &need, const void *listId, BoundList &scratch) const
{
    if (!listId) {
        scratch = bounds(candidates, need);
        return scratch;
    }
    const BoundKey key{listId, need.cpus, need.memory, need.gpus};
    auto it = m_bounds.find(key);
    if (it == m_bounds.end()) {
        it = m_bounds.emplace(key, bounds(candidates, need)).first;
    }
    return it->second;
}

void Planner::scanRuns(Bounded &b, const Amount &need) const
{
    const Profile p = profile(b.node);
    std::size_t i = 0;
    while (i < p.size() && !p[i].free.covers(need)) {
        ++i;
    }
    if (i == p.size()) {
        b.runStart = b.runEnd = b.next = kForever;
        return;
    }
    b.runStart = std::max(p[i].time, m_now);
    while (i < p.size() && p[i].free.covers(need)) {
        ++i;
    }
    if (i == p.size()) {
        b.runEnd = b.next = kForever;
        return;
    }
    b.runEnd = p[i].time;
    while (i < p.size() && !p[i].free.covers(need)) {
        ++i;
    }
    b.next = i == p.size() ? kForever : p[i].time;
}

bool Planner::longEnough(const Bounded &b, Seconds duration)
{
    return b.runEnd == kForever || (duration != kInfinite && b.runEnd - b.runStart >= duration);
}

Seconds Planner::knownStart(const Bounded &b, Seconds duration)
{
    // A run long enough for `duration` starts at runStart; a shorter one sends the node to
    // `next` or later.
    return longEnough(b, duration) ? b.runStart : b.next;
}

std::optional<std::vector<std::size_t>> Planner::firstFitting(
    BoundList &list, std::size_t limit, const Amount &need, Seconds t, Seconds end, int count) const
{
    auto &fitting = m_fitting; // (position, node)
    fitting.clear();
    const Seconds duration = end == kForever ? kInfinite : end - t;
    for (std::size_t i = 0; i < limit; ++i) {
        const Bounded *b = list.at(i, *this);
        if (!b || b->lower > t) {
            break; // no free amount covers the need on this node before its bound
        }
        if (knownStart(*b, duration) > t) {
            continue; // an earlier scan showed it cannot start this early
        }
        if (fits(b->node, need, t, end == kForever ? kInfinite : end)) {
            fitting.emplace_back(b->position, b->node);
        }
    }
    if (static_cast<int>(fitting.size()) < count) {
        return std::nullopt;
    }
    std::partial_sort(fitting.begin(), fitting.begin() + count, fitting.end());
    std::vector<std::size_t> nodes;
    nodes.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        nodes.push_back(fitting[static_cast<std::size_t>(i)].second);
    }
    return nodes;
}

std::optional<std::vector<std::size_t>> Planner::fitNow(const std::vector<std::size_t> &candidates,
    const Amount &need, Seconds until, int count, const void *listId) const
{
    if (count <= 0 || static_cast<int>(candidates.size()) < count) {
        return std::nullopt;
    }
    BoundList scratch;
    BoundList &list = byLowerBound(candidates, need, listId, scratch);
    return firstFitting(list, list.freeNow, need, m_now, finite(until), count);
}

std::optional<Planner::Slot> Planner::earliestSlot(const std::vector<std::size_t> &candidates,
    const Amount &need, Seconds duration, int count, const void *listId) const
{
    if (count <= 0 || static_cast<int>(candidates.size()) < count) {
        return std::nullopt;
    }
    BoundList scratch;
    BoundList &bounded = byLowerBound(candidates, need, listId, scratch);
    // Each node's own earliest start bounds the slot from below: the count-th smallest. A
    // max-heap keeps the `count` smallest so far; nodes whose lower bound is not below its top
    // cannot change it, and the list is sorted by that bound.
    std::vector<Seconds> smallest;
    smallest.reserve(static_cast<std::size_t>(count) + 1);
    for (std::size_t i = 0; Bounded *b = bounded.at(i, *this); ++i) {
        const bool full = static_cast<int>(smallest.size()) == count;
        const Seconds bound = full ? smallest.front() : kInfinite;
        if (full && b->lower >= bound) {
            break;
        }
        // What an earlier scan found bounds the node's start from below: skip it when that
        // bound cannot beat the slot found so far, or when it never fits.
        const Seconds known = knownStart(*b, duration);
        if (known == kForever || (full && known >= bound)) {
            continue;
        }
        scanRuns(*b, need);
        std::optional<Seconds> t;
        if (longEnough(*b, duration)) {
            t = b->runStart; // the first covering run holds the whole duration
        } else if (b->next != kForever) {
            t = earliestOn(b->node, need, duration, bound);
        }
        if (t && (b->runStart == kForever || (full && *t >= bound))) {
            t.reset(); // earliestOn looks for starts before the bound only
        }
        if (t) {
            smallest.push_back(*t);
            std::push_heap(smallest.begin(), smallest.end());
            if (static_cast<int>(smallest.size()) > count) {
                std::pop_heap(smallest.begin(), smallest.end());
                smallest.pop_back();
            }
        }
    }
    if (static_cast<int>(smallest.size()) < count) {
        return std::nullopt;
    }
    const Seconds lowest = smallest.front();
    // Try `lowest` first (usually the answer), then every later step time, in order.
    const auto trySlot = [&](Seconds t) -> std::optional<Slot> {
        if (auto nodes
            = firstFitting(bounded, candidates.size(), need, t, endOf(t, duration), count)) {
            return Slot{t, std::move(*nodes)};
        }
        return std::nullopt;
    };
    if (auto slot = trySlot(lowest)) {
        return slot;
    }
    // A later slot starts at a step time of one of its nodes (a start between two step times
    // of all of them could move back to the latest one). Each node can start the job in
    // intervals of time, one per covering step at most: sweep them for the first time at or
    // after `lowest` at which `count` nodes can, and take the nodes there.
    auto &events = m_events; // (time, +1 an interval opens, -1 it closes)
    events.clear();
    for (std::size_t n : candidates) {
        const Profile p = profile(n);
        Seconds runEnd = kForever; // the first non-covering step after the current one
        for (std::size_t j = p.size(); j-- > 0;) {
            if (!p[j].free.covers(need)) {
                runEnd = p[j].time;
                continue;
            }
            // Starts in [time, next step) that end by runEnd.
            Seconds high = j + 1 < p.size() ? p[j + 1].time : kForever;
            if (runEnd != kForever) {
                high = duration == kInfinite ? m_now : std::min(high, runEnd - duration + 1);
            }
            const Seconds low = std::max({p[j].time, m_now, lowest});
            if (high > low) {
                events.emplace_back(low, 1);
                if (high != kForever) {
                    events.emplace_back(high, -1);
                }
            }
        }
    }
    std::sort(events.begin(), events.end());
    int open = 0;
    for (std::size_t i = 0; i < events.size();) {
        const Seconds t = events[i].first;
        for (; i < events.size() && events[i].first == t; ++i) {
            open += events[i].second;
        }
        if (open >= count) {
            if (auto slot = trySlot(t)) {
                return slot;
            }
        }
    }
    return std::nullopt;
}

Amount Planner::freeAt(std::size_t node, Seconds at) const
{
    const Profile p = profile(node);
    auto it = std::upper_bound(
        p.begin(), p.end(), at, [](Seconds t, const Step &s) { return t < s.time; });
    return it == p.begin() ? p.front().free : (it - 1)->free;
}

} // namespace mc::sched
