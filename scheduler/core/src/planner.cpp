#include "mc/sched/planner.h"

#include <algorithm>
#include <functional>
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
    m_second.assign(freeNow.size(), kForever);
}

Planner::Planner(std::vector<Amount> freeNow, Seconds now, const std::vector<Release> &releases)
    : m_now(now)
{
    // One step per node, no spare room: addReleases lays the profiles out again.
    m_steps.reserve(freeNow.size());
    m_spans.reserve(freeNow.size());
    for (std::size_t i = 0; i < freeNow.size(); ++i) {
        m_steps.push_back(Step{now, freeNow[i]});
        m_spans.push_back(Span{i, 1, 1});
    }
    m_second.assign(freeNow.size(), kForever);
    addReleases(releases);
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
    if (pos == 1) {
        m_second[node] = at;
    }
    return pos;
}

void Planner::addRelease(std::size_t node, Seconds at, const Amount &amount)
{
    if (at == kInfinite) {
        return;
    }
    forgetBounds(); // free amounts grow: the bounds no longer hold
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
    forgetBounds(); // free amounts grow: the bounds no longer hold
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
    for (std::size_t n = 0; n < count; ++n) {
        m_second[n] = m_spans[n].size > 1 ? m_steps[m_spans[n].offset + 1].time : kForever;
    }
}

void Planner::give(std::size_t node, const Amount &amount, Seconds from, Seconds until)
{
    forgetBounds(); // free amounts grow: the bounds no longer hold
    take(node, Amount{-amount.cpus, -amount.memory, -amount.gpus}, from, until);
}

void Planner::collapseTo(Seconds now)
{
    forgetBounds();
    m_now = std::max(m_now, now);
    for (Span &span : m_spans) {
        Step *p = m_steps.data() + span.offset;
        std::size_t k = 0; // the step holding at `now`
        while (k + 1 < span.size && p[k + 1].time <= m_now) {
            ++k;
        }
        p[0] = Step{m_now, p[k].free};
        // Drop the steps that change nothing (left by give()), keeping the profiles short.
        std::size_t size = 1;
        for (std::size_t i = k + 1; i < span.size; ++i) {
            const Amount &a = p[i].free;
            const Amount &b = p[size - 1].free;
            if (a.cpus != b.cpus || a.memory != b.memory || a.gpus != b.gpus) {
                p[size++] = p[i];
            }
        }
        span.size = size;
    }
    for (std::size_t n = 0; n < m_spans.size(); ++n) {
        m_second[n] = m_spans[n].size > 1 ? m_steps[m_spans[n].offset + 1].time : kForever;
    }
}

bool Planner::fragmented() const
{
    std::size_t used = 0;
    for (const Span &span : m_spans) {
        used += span.capacity;
    }
    return m_steps.size() > 2 * used + 1024;
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

Planner::Bounded *Planner::BoundList::sortMore(std::size_t i, const Planner &planner)
{
    if (!deferred.empty()) {
        // A node without the need free now first has it at its second step or later: that
        // time keys the node until it comes to the top of the heap, where its profile is
        // scanned for the real bound (bounded then rather than now: takes since only raise
        // it). Most nodes are never scanned: callers stop after the first few.
        for (const std::size_t position : deferred) {
            const Seconds second = planner.m_second[(*candidates)[position]];
            if (second != kForever) {
                heap.push_back(
                    {std::max(second, planner.m_now), static_cast<std::uint32_t>(position), 0});
            }
        }
        deferred.clear();
        std::make_heap(heap.begin(), heap.end(), std::greater<>{});
    }
    while (i >= items.size() && !heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<>{});
        const Keyed top = heap.back();
        heap.pop_back();
        const std::size_t node = (*candidates)[top.position];
        if (!top.exact) {
            const Profile p = planner.profile(node);
            std::size_t k = 1; // the first step does not cover the need
            while (k < p.size() && !p[k].free.covers(need)) {
                ++k;
            }
            if (k == p.size()) {
                continue; // never has it
            }
            if (const Seconds lower = std::max(p[k].time, planner.m_now); lower != top.key) {
                heap.push_back({lower, top.position, 1});
                std::push_heap(heap.begin(), heap.end(), std::greater<>{});
                continue;
            }
        }
        // Nothing scanned yet: the run is empty and `next` is the bound itself.
        // (capacity reserved: no reallocation)
        items.push_back(Bounded{top.key, top.position, node, top.key, top.key, top.key});
    }
    return i < items.size() ? &items[i] : nullptr;
}

void Planner::forgetBounds()
{
    for (auto &[key, list] : m_bounds) {
        m_spareLists.push_back(std::move(list));
    }
    m_bounds.clear();
}

Planner::BoundList Planner::bounds(
    const std::vector<std::size_t> &candidates, const Amount &need) const
{
    BoundList list;
    if (!m_spareLists.empty()) { // its buffers, emptied
        list = std::move(m_spareLists.back());
        m_spareLists.pop_back();
        list.items.clear();
        list.heap.clear();
        list.deferred.clear();
    }
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
    auto &smallest = m_smallest;
    smallest.clear();
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
    // In time order; a heap rather than a sort: the slot is usually among the first times.
    std::make_heap(events.begin(), events.end(), std::greater<>{});
    int open = 0;
    while (!events.empty()) {
        const Seconds t = events.front().first;
        while (!events.empty() && events.front().first == t) {
            open += events.front().second;
            std::pop_heap(events.begin(), events.end(), std::greater<>{});
            events.pop_back();
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
