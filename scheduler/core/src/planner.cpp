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
    m_nodes.reserve(freeNow.size());
    for (const Amount &a : freeNow) {
        Profile profile;
        profile.reserve(4); // now, a few releases and a reservation: one allocation
        profile.push_back(Step{now, a});
        m_nodes.push_back(std::move(profile));
    }
}

Seconds Planner::endOf(Seconds from, Seconds duration)
{
    if (duration == kInfinite || from > kForever - duration) {
        return kForever;
    }
    return from + duration;
}

// Index of the step starting exactly at `at`, inserting one if needed (at >= profile front).
std::size_t Planner::splitAt(Profile &profile, Seconds at)
{
    auto it = std::upper_bound(
        profile.begin(), profile.end(), at, [](Seconds t, const Step &s) { return t < s.time; });
    // it points past the step containing `at`
    auto containing = it - 1;
    if (containing->time == at) {
        return static_cast<std::size_t>(containing - profile.begin());
    }
    Step copy{at, containing->free};
    auto inserted = profile.insert(it, copy);
    return static_cast<std::size_t>(inserted - profile.begin());
}

void Planner::addRelease(std::size_t node, Seconds at, const Amount &amount)
{
    if (at == kInfinite) {
        return;
    }
    Profile &p = m_nodes[node];
    const std::size_t first = splitAt(p, std::max(at, m_now));
    for (std::size_t i = first; i < p.size(); ++i) {
        p[i].free.cpus += amount.cpus;
        p[i].free.memory += amount.memory;
        p[i].free.gpus += amount.gpus;
    }
}

bool Planner::fits(std::size_t node, const Amount &need, Seconds from, Seconds until) const
{
    const Profile &p = m_nodes[node];
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
    Profile &p = m_nodes[node];
    const Seconds end = finite(until);
    const std::size_t first = splitAt(p, std::max(from, m_now));
    const std::size_t last = end == kForever ? p.size() : splitAt(p, end);
    for (std::size_t i = first; i < last; ++i) {
        p[i].free.cpus -= need.cpus;
        p[i].free.memory -= need.memory;
        p[i].free.gpus -= need.gpus;
    }
}

std::optional<Seconds> Planner::earliestOn(
    std::size_t node, const Amount &need, Seconds duration) const
{
    const Profile &p = m_nodes[node];
    // Two pointers: `start` is the first step of a run of covering steps.
    std::size_t start = 0;
    while (start < p.size()) {
        if (!p[start].free.covers(need)) {
            ++start;
            continue;
        }
        const Seconds end = endOf(p[start].time, duration);
        std::size_t k = start;
        while (k < p.size() && p[k].time < end && p[k].free.covers(need)) {
            ++k;
        }
        if (k == p.size() || p[k].time >= end) {
            return p[start].time;
        }
        start = k + 1;
    }
    return std::nullopt;
}

std::optional<Planner::Slot> Planner::earliestSlot(const std::vector<std::size_t> &candidates,
    const Amount &need, Seconds duration, int count) const
{
    if (count <= 0 || static_cast<int>(candidates.size()) < count) {
        return std::nullopt;
    }
    // Each node's own earliest start bounds the slot from below: the count-th smallest.
    std::vector<Seconds> earliest;
    earliest.reserve(candidates.size());
    for (std::size_t n : candidates) {
        if (auto t = earliestOn(n, need, duration)) {
            earliest.push_back(*t);
        }
    }
    if (static_cast<int>(earliest.size()) < count) {
        return std::nullopt;
    }
    std::nth_element(earliest.begin(), earliest.begin() + (count - 1), earliest.end());
    const Seconds lowest = earliest[static_cast<std::size_t>(count - 1)];
    // Try `lowest` first (usually the answer), then every later step time, in order.
    const auto trySlot = [&](Seconds t) -> std::optional<Slot> {
        Slot slot{t, {}};
        const Seconds end = endOf(t, duration);
        for (std::size_t n : candidates) {
            if (fits(n, need, t, end == kForever ? kInfinite : end)) {
                slot.nodes.push_back(n);
                if (static_cast<int>(slot.nodes.size()) == count) {
                    return slot;
                }
            }
        }
        return std::nullopt;
    };
    if (auto slot = trySlot(lowest)) {
        return slot;
    }
    std::vector<Seconds> times;
    for (std::size_t n : candidates) {
        for (const Step &s : m_nodes[n]) {
            if (s.time > lowest) {
                times.push_back(s.time);
            }
        }
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    for (Seconds t : times) {
        if (auto slot = trySlot(t)) {
            return slot;
        }
    }
    return std::nullopt;
}

Amount Planner::freeAt(std::size_t node, Seconds at) const
{
    const Profile &p = m_nodes[node];
    auto it = std::upper_bound(
        p.begin(), p.end(), at, [](Seconds t, const Step &s) { return t < s.time; });
    return it == p.begin() ? p.front().free : (it - 1)->free;
}

} // namespace mc::sched
