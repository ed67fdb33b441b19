#include "mc/sched/schedule_pass.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>

namespace mc::sched {
namespace {

bool hasFeature(const NodeConfig *node, std::string_view feature)
{
    return node != nullptr
        && std::find(node->features.begin(), node->features.end(), feature) != node->features.end();
}

} // namespace

bool satisfiesConstraint(const NodeConfig *node, std::string_view constraint)
{
    if (constraint.empty()) {
        return true;
    }
    const bool any = constraint.find('|') != std::string_view::npos;
    const char separator = any ? '|' : (constraint.find('&') != std::string_view::npos ? '&' : ',');
    bool result = !any;
    while (!constraint.empty()) {
        const auto at = constraint.find(separator);
        const bool has = hasFeature(node, constraint.substr(0, at));
        result = any ? (result || has) : (result && has);
        constraint.remove_prefix(at == std::string_view::npos ? constraint.size() : at + 1);
    }
    return result;
}

namespace {

bool contains(const std::vector<std::string> &list, const std::string &name)
{
    return std::find(list.begin(), list.end(), name) != list.end();
}

// A job still running past its limit is expected to end at once.
Seconds expectedEnd(const Job &job, Seconds now)
{
    if (job.preemptEnd) {
        return std::max(*job.preemptEnd, now + 1);
    }
    const Seconds limit = job.timeLimit;
    if (limit == kInfinite) {
        return kInfinite;
    }
    return std::max(job.startTime + limit, now + 1);
}

} // namespace

SchedulePass::SchedulePass(const SchedulerInput &input, SchedulePlan &plan)
    : m_input(input)
    , m_plan(plan)
    , m_planner({}, input.now)
{
    if (input.index && input.index->size() == input.nodeList().size()) {
        m_index = input.index;
    } else {
        m_ownIndex.emplace(*input.config, input.nodeList());
        m_index = &*m_ownIndex;
    }
    std::vector<Amount> free;
    free.reserve(input.nodeList().size());
    for (std::size_t i = 0; i < input.nodeList().size(); ++i) {
        const NodeUsage &n = input.nodeList()[i];
        if (n.available) {
            free.push_back(Amount{std::max(0, n.cpus - n.allocCpus),
                std::max<MiB>(0, n.memory - n.allocMemory), std::max(0, n.gpus - n.allocGpus)});
        } else {
            free.push_back(Amount{});
        }
    }
    m_planner = Planner(std::move(free), input.now);
    m_running.reserve(input.running.size() + 16);
    m_runningNodes.reserve(input.running.size() * 2 + 16);
    const bool indexed = input.runningNodes.size() == input.running.size();
    std::vector<Planner::Release> releases;
    releases.reserve(input.running.size() * 2);
    std::vector<std::size_t> found;
    for (std::size_t j = 0; j < input.running.size(); ++j) {
        const Job *job = input.running[j];
        Running r{job->id, m_runningNodes.size(), 0, expectedEnd(*job, input.now)};
        const int count = std::max(1, static_cast<int>(job->nodeList.size()));
        const PartitionConfig *part = input.config->partition(job->spec.partition);
        const std::vector<std::size_t> *at = indexed ? input.runningNodes[j] : nullptr;
        if (!at) {
            found.clear();
            for (const auto &name : job->nodeList) {
                if (const auto i = m_index->find(name)) {
                    found.push_back(*i);
                }
            }
            at = &found;
        }
        const bool exclusive = job->spec.exclusive || (part && part->exclusive);
        for (const std::size_t i : *at) {
            m_runningNodes.push_back(i);
            ++r.count;
            const NodeUsage &n = input.nodeList()[i];
            Amount back{job->allocCpus / count, job->memPerNode, job->spec.gpusPerNode};
            if (exclusive) {
                back = Amount{n.cpus, n.memory, n.gpus};
            }
            if (n.available) {
                releases.push_back({i, r.end, back});
            }
        }
        m_running.push_back(r);
    }
    m_planner.addReleases(releases);
}

void SchedulePass::prepare(QueueEntry &entry)
{
    const Job &job = *entry.job;
    entry.need = Amount{entry.shape.cpusPerNode, entry.shape.memPerNode, entry.shape.gpusPerNode};
    entry.duration = job.timeLimit;
    if (entry.partition && entry.partition->maxTime != kInfinite && job.spec.timeMin
        && (job.timeLimit == kInfinite || job.timeLimit > entry.partition->maxTime)) {
        entry.duration = entry.partition->maxTime; // --time-min allows the partition's MaxTime
    }
    entry.required = 0;
    static const std::vector<std::size_t> kNone;
    entry.candidates = &kNone;
    if (!entry.partition) {
        return;
    }
    for (const auto &name : job.spec.nodeList) {
        if (m_index->find(name)) {
            ++entry.required;
        }
    }
    const bool plain
        = job.spec.nodeList.empty() && job.spec.excludeNodes.empty() && job.spec.constraint.empty();
    if (plain) {
        if (auto known = m_plainCandidates.find(entry.partition);
            known != m_plainCandidates.end()) {
            entry.candidates = known->second;
            return;
        }
    }
    std::string key = entry.partition->name + '|' + job.spec.constraint + '|';
    for (const auto &n : job.spec.nodeList) {
        key += n + ',';
    }
    key += '|';
    for (const auto &n : job.spec.excludeNodes) {
        key += n + ',';
    }
    auto [it, inserted] = m_candidates.try_emplace(std::move(key));
    entry.candidates = &it->second;
    if (plain) {
        m_plainCandidates.emplace(entry.partition, &it->second);
    }
    if (!inserted) {
        return;
    }
    std::vector<std::size_t> &candidates = it->second;
    for (const auto &name : job.spec.nodeList) {
        if (auto at = m_index->find(name)) {
            candidates.push_back(*at);
        }
    }
    std::vector<std::size_t> others;
    for (const std::size_t at : m_index->partitionNodes(entry.partition->name)) {
        const std::string &name = m_input.nodeList()[at].name;
        if (!m_input.nodeList()[at].available || contains(job.spec.nodeList, name)
            || contains(job.spec.excludeNodes, name)
            || !satisfiesConstraint(m_index->nodeConfig(at), job.spec.constraint)) {
            continue;
        }
        others.push_back(at);
    }
    const auto lighter = [&](std::size_t a, std::size_t b) {
        const NodeConfig *ca = m_index->nodeConfig(a);
        const NodeConfig *cb = m_index->nodeConfig(b);
        const int wa = ca ? ca->weight : 1;
        const int wb = cb ? cb->weight : 1;
        return wa < wb;
    };
    if (!std::is_sorted(others.begin(), others.end(), lighter)) { // usually all weigh the same
        std::stable_sort(others.begin(), others.end(), lighter);
    }
    candidates.insert(candidates.end(), others.begin(), others.end());
}

Amount SchedulePass::needOn(const QueueEntry &entry, std::size_t n) const
{
    if (entry.shape.exclusive) {
        const NodeUsage &u = m_input.nodeList()[n];
        return Amount{u.cpus, u.memory, u.gpus};
    }
    return entry.need;
}

std::optional<std::vector<std::size_t>> SchedulePass::fitNow(
    const QueueEntry &entry, Seconds duration)
{
    // The candidate list identifies partition, constraint, --nodelist and --exclude.
    const FailKey key{entry.candidates, entry.shape.nodes, entry.need.cpus, entry.need.memory,
        entry.need.gpus, entry.shape.exclusive};
    const Seconds length = duration == kInfinite ? std::numeric_limits<Seconds>::max() : duration;
    if (auto it = m_failed.find(key); it != m_failed.end() && length >= it->second) {
        return std::nullopt;
    }
    const Seconds now = m_input.now;
    const Seconds until = duration == kInfinite ? kInfinite : now + duration;
    if (!entry.shape.exclusive && entry.required == 0) {
        // The same need on every node: the planner looks only at nodes that may have it now.
        auto nodes = m_planner.fitNow(
            *entry.candidates, entry.need, until, entry.shape.nodes, entry.candidates);
        if (nodes) {
            return nodes;
        }
        auto &failed = m_failed[key];
        failed = failed == 0 ? length : std::min(failed, length);
        return std::nullopt;
    }
    std::vector<std::size_t> chosen;
    const int wanted = std::max(entry.shape.nodes, static_cast<int>(entry.required));
    for (std::size_t i = 0; i < entry.candidates->size(); ++i) {
        const std::size_t n = (*entry.candidates)[i];
        const bool ok
            = m_input.nodeList()[n].available && m_planner.fits(n, needOn(entry, n), now, until);
        if (!ok && i < entry.required) {
            break; // a --nodelist node is busy: no start now
        }
        if (ok) {
            chosen.push_back(n);
            if (static_cast<int>(chosen.size()) == wanted) {
                return chosen;
            }
        }
    }
    auto &failed = m_failed[key];
    failed = failed == 0 ? length : std::min(failed, length);
    return std::nullopt;
}

std::optional<Planner::Slot> SchedulePass::earliest(const QueueEntry &entry) const
{
    const int wanted = std::max(entry.shape.nodes, static_cast<int>(entry.required));
    if (entry.shape.exclusive || entry.required > 0) {
        // per-node needs differ (whole nodes) or some nodes are imposed: scan start times
        std::vector<Seconds> times{m_input.now};
        for (const auto &r : m_running) {
            if (r.end != kInfinite) {
                times.push_back(r.end);
            }
        }
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        for (Seconds t : times) {
            const Seconds until = entry.duration == kInfinite ? kInfinite : t + entry.duration;
            Planner::Slot slot{t, {}};
            for (std::size_t i = 0; i < entry.candidates->size(); ++i) {
                const std::size_t n = (*entry.candidates)[i];
                if (m_planner.fits(n, needOn(entry, n), t, until)) {
                    slot.nodes.push_back(n);
                } else if (i < entry.required) {
                    break;
                }
                if (static_cast<int>(slot.nodes.size()) == wanted) {
                    return slot;
                }
            }
        }
        return std::nullopt;
    }
    return m_planner.earliestSlot(
        *entry.candidates, entry.need, entry.duration, wanted, entry.candidates);
}

void SchedulePass::start(const QueueEntry &entry, const std::vector<std::size_t> &nodes,
    Seconds duration, std::optional<std::uint32_t> taskId, bool shortened)
{
    const Seconds until = duration == kInfinite ? kInfinite : m_input.now + duration;
    StartDecision decision{
        entry.job->id, names(nodes), entry.shape, taskId, std::nullopt, anyStartedAhead()};
    if (shortened) {
        decision.timeLimit = duration;
    }
    for (std::size_t n : nodes) {
        m_planner.take(n, needOn(entry, n), m_input.now, until);
    }
    m_running.push_back({entry.job->id, m_runningNodes.size(), nodes.size(), until});
    m_runningNodes.insert(m_runningNodes.end(), nodes.begin(), nodes.end()); // may wait for it
    if (!m_runningByNode.empty()) {
        for (std::size_t n : nodes) {
            m_runningByNode[n].push_back(m_running.size() - 1);
        }
    }
    m_plan.starts.push_back(std::move(decision));
}

void SchedulePass::reserve(const QueueEntry &entry, const Planner::Slot &slot)
{
    const Seconds until = entry.duration == kInfinite ? kInfinite : slot.start + entry.duration;
    for (std::size_t n : slot.nodes) {
        m_planner.take(n, needOn(entry, n), slot.start, until);
    }
    ++m_reservations;
}

std::vector<JobId> SchedulePass::runningOn(const std::vector<std::size_t> &nodes, Seconds at)
{
    if (++m_runningOnCalls == 1) {
        // Usually asked once a pass (the first blocked job): a scan beats building the index.
        std::vector<JobId> ids;
        for (const Running &r : m_running) {
            if (r.end == kInfinite || r.end > at) {
                continue;
            }
            const auto first = m_runningNodes.begin() + static_cast<std::ptrdiff_t>(r.first);
            const auto last = first + static_cast<std::ptrdiff_t>(r.count);
            const bool overlaps = std::any_of(first, last, [&](std::size_t n) {
                return std::find(nodes.begin(), nodes.end(), n) != nodes.end();
            });
            if (overlaps) {
                ids.push_back(r.id);
            }
        }
        std::sort(ids.begin(), ids.end());
        return ids;
    }
    if (m_runningByNode.size() != m_input.nodeList().size()) {
        m_runningByNode.assign(m_input.nodeList().size(), {});
        for (std::size_t i = 0; i < m_running.size(); ++i) {
            const Running &r = m_running[i];
            for (std::size_t k = r.first; k < r.first + r.count; ++k) {
                m_runningByNode[m_runningNodes[k]].push_back(i);
            }
        }
    }
    std::vector<JobId> ids;
    for (std::size_t n : nodes) {
        for (std::size_t i : m_runningByNode[n]) {
            const Running &r = m_running[i];
            if (r.end != kInfinite && r.end <= at) {
                ids.push_back(r.id);
            }
        }
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

std::vector<std::string> SchedulePass::names(const std::vector<std::size_t> &nodes) const
{
    std::vector<std::string> result;
    result.reserve(nodes.size());
    for (std::size_t n : nodes) {
        result.push_back(m_input.nodeList()[n].name);
    }
    return result;
}

std::optional<JobId> SchedulePass::firstBlocked(const std::string &partition) const
{
    auto it = m_blocked.find(partition);
    return it == m_blocked.end() ? std::nullopt : std::optional<JobId>(it->second);
}

void SchedulePass::markBlocked(const std::string &partition, JobId job)
{
    m_blocked.try_emplace(partition, job);
}

} // namespace mc::sched
