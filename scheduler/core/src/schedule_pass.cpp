#include "mc/sched/schedule_pass.h"

#include "mc/sched/node_hold.h"

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

bool hasGpuType(const NodeConfig *node, std::string_view type)
{
    return type.empty() || (node != nullptr && node->gpuType == type);
}

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
    if (job.state == JobState::Suspended) {
        return kInfinite; // until it is resumed, and nobody knows when
    }
    return std::max(job.startTime + job.suspendedSecs + limit, now + 1);
}

Amount negate(const Amount &a)
{
    return Amount{-a.cpus, -a.memory, -a.gpus};
}

} // namespace

SchedulePass::SchedulePass(const SchedulerInput &input, SchedulePlan &plan, SchedulePass *previous)
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
    if (!previous || !carry(*previous)) {
        build();
    }
}

Amount SchedulePass::backOn(const Running &r, std::size_t n, Held held) const
{
    if (r.exclusive) {
        const NodeUsage &u = m_input.nodeList()[n];
        return Amount{u.cpus, u.memory, u.gpus};
    }
    return Amount{held.cpus, r.back.memory, held.gpus};
}

SchedulePass::Running SchedulePass::describe(std::size_t j)
{
    const Job *job = m_input.running[j];
    Running r{job->id, m_runningNodes.size(), 0, expectedEnd(*job, m_input.now), job, {}, false};
    const int count = std::max(1, static_cast<int>(job->nodeList.size()));
    r.back = Amount{job->allocCpus / count, job->memPerNode, job->gpusPerNode};
    r.exclusive = job->spec.exclusive;
    if (!r.exclusive) {
        // Only an exclusive partition matters here: most passes look up no partition by name.
        const auto &parts = m_input.config->partitions;
        if (std::any_of(parts.begin(), parts.end(), [](const auto &p) { return p.exclusive; })) {
            const PartitionConfig *part = m_input.config->partition(job->spec.partition);
            r.exclusive = part && part->exclusive;
        }
    }
    if (m_input.runningNodes.size() == m_input.running.size()) {
        for (const std::size_t i : *m_input.runningNodes[j]) { // a few: no memmove call
            const std::size_t k = m_runningNodes.size() - r.first;
            m_runningHeld.push_back({job->cpusOnNode(k), gpusOnNode(*job, k)});
            m_runningNodes.push_back(i);
        }
    } else {
        for (std::size_t k = 0; k < job->nodeList.size(); ++k) {
            if (const auto i = m_index->find(job->nodeList[k])) {
                m_runningNodes.push_back(*i);
                m_runningHeld.push_back({job->cpusOnNode(k), gpusOnNode(*job, k)});
            }
        }
    }
    r.count = m_runningNodes.size() - r.first;
    return r;
}

void SchedulePass::build()
{
    const SchedulerInput &input = m_input;
    const std::size_t nodes = input.nodeList().size();
    std::vector<Amount> free;
    free.reserve(nodes);
    m_nodeKeys.clear();
    m_nodeKeys.reserve(nodes);
    for (std::size_t i = 0; i < nodes; ++i) {
        const NodeUsage &n = input.nodeList()[i];
        m_nodeKeys.push_back({n.available, Amount{n.cpus, n.memory, n.gpus}});
        if (n.available) {
            free.push_back(Amount{std::max(0, n.cpus - n.allocCpus),
                std::max<MiB>(0, n.memory - n.allocMemory), std::max(0, n.gpus - n.allocGpus)});
        } else {
            free.push_back(Amount{});
        }
    }
    m_running.clear();
    m_runningNodes.clear();
    m_runningHeld.clear();
    m_takes.clear();
    m_running.reserve(input.running.size() + 16);
    m_runningNodes.reserve(input.running.size() * 2 + 16);
    m_runningHeld.reserve(input.running.size() * 2 + 16);
    std::vector<Planner::Release> releases;
    releases.reserve(input.running.size() * 2);
    for (std::size_t j = 0; j < input.running.size(); ++j) {
        const Running r = describe(j);
        for (std::size_t k = r.first; k < r.first + r.count; ++k) {
            const std::size_t i = m_runningNodes[k];
            if (m_nodeKeys[i].available) {
                releases.push_back({i, r.end, backOn(r, i, m_runningHeld[k])});
            }
        }
        m_running.push_back(r);
    }
    m_inputRunning = m_running.size();
    m_planner = Planner(std::move(free), input.now, releases);
}

bool SchedulePass::carry(SchedulePass &previous)
{
    const SchedulerInput &input = m_input;
    const std::size_t nodes = input.nodeList().size();
    if (input.runningNodes.size() != input.running.size() || previous.m_nodeKeys.size() != nodes
        || previous.m_index != m_index || previous.m_input.config != input.config
        || input.now < previous.m_planner.now()) {
        return false;
    }
    for (std::size_t i = 0; i < nodes; ++i) {
        const NodeUsage &u = input.nodeList()[i];
        const NodeKey &key = previous.m_nodeKeys[i];
        if (u.available != key.available || u.cpus != key.size.cpus || u.memory != key.size.memory
            || u.gpus != key.size.gpus) {
            return false;
        }
    }
    m_nodeKeys = std::move(previous.m_nodeKeys);
    m_planner = std::move(previous.m_planner);
    // Undo the decisions of the previous pass, the last first.
    for (auto t = previous.m_takes.rbegin(); t != previous.m_takes.rend(); ++t) {
        m_planner.give(t->node, t->need, t->from, t->until);
    }
    const Seconds now = input.now;
    m_planner.collapseTo(now);
    // The running jobs of the previous input and of this one, both in id order: those that
    // ended (or changed) give back what they held until their expected end; those that
    // started (or changed) take it until theirs.
    const std::vector<Running> &before = previous.m_running;
    const std::vector<std::size_t> &beforeNodes = previous.m_runningNodes;
    const std::vector<Held> beforeHeld = std::move(previous.m_runningHeld);
    const auto ended = [&](const Running &r) {
        if (r.end != kInfinite && r.end <= now) {
            return; // its release is already in the amounts now
        }
        for (std::size_t k = r.first; k < r.first + r.count; ++k) {
            const std::size_t n = beforeNodes[k];
            if (m_nodeKeys[n].available) {
                m_planner.give(n, backOn(r, n, beforeHeld[k]), now, r.end);
            }
        }
    };
    m_running.clear();
    m_runningNodes.clear();
    m_runningHeld.clear();
    m_running.reserve(input.running.size() + 16);
    m_runningNodes.reserve(beforeNodes.size() + 16);
    m_runningHeld.reserve(beforeNodes.size() + 16);
    std::size_t i = 0;
    for (std::size_t j = 0; j < input.running.size(); ++j) {
        const JobId id = input.running[j]->id;
        if (j > 0 && !(m_running.back().id < id)) {
            return false; // not in id order
        }
        for (; i < previous.m_inputRunning && before[i].id < id; ++i) {
            ended(before[i]);
        }
        Running r = describe(j);
        if (i < previous.m_inputRunning && before[i].id == id) {
            const Running &old = before[i++];
            bool same = old.job == r.job && old.end == r.end && old.count == r.count
                && old.exclusive == r.exclusive && old.back.cpus == r.back.cpus
                && old.back.memory == r.back.memory && old.back.gpus == r.back.gpus;
            for (std::size_t k = 0; same && k < r.count; ++k) {
                same = beforeNodes[old.first + k] == m_runningNodes[r.first + k]
                    && beforeHeld[old.first + k] == m_runningHeld[r.first + k];
            }
            if (same) {
                m_running.push_back(r);
                continue;
            }
            ended(old);
        }
        for (std::size_t k = r.first; k < r.first + r.count; ++k) {
            const std::size_t n = m_runningNodes[k];
            if (m_nodeKeys[n].available) {
                m_planner.give(n, negate(backOn(r, n, m_runningHeld[k])), now, r.end);
            }
        }
        m_running.push_back(r);
    }
    for (; i < previous.m_inputRunning; ++i) {
        ended(before[i]);
    }
    m_inputRunning = m_running.size();
    if (m_planner.fragmented()) {
        return false;
    }
    // The amounts free now must be the input's: otherwise (a job's usage not as the planner
    // was told) build afresh.
    for (std::size_t n = 0; n < nodes; ++n) {
        const NodeUsage &u = input.nodeList()[n];
        const Amount &free = m_planner.freeNow(n);
        const Amount expected = u.available
            ? Amount{std::max(0, u.cpus - u.allocCpus), std::max<MiB>(0, u.memory - u.allocMemory),
                std::max(0, u.gpus - u.allocGpus)}
            : Amount{};
        if (free.cpus != expected.cpus || free.memory != expected.memory
            || free.gpus != expected.gpus) {
            return false;
        }
    }
    return true;
}

void SchedulePass::takeLogged(std::size_t n, const Amount &need, Seconds from, Seconds until)
{
    m_planner.take(n, need, from, until);
    m_takes.push_back({n, need, from, until});
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
    const bool plain = job.spec.nodeList.empty() && job.spec.excludeNodes.empty()
        && job.spec.constraint.empty() && job.spec.gpuType.empty();
    if (plain) {
        if (auto known = m_plainCandidates.find(entry.partition);
            known != m_plainCandidates.end()) {
            entry.candidates = known->second;
            return;
        }
    }
    std::string key
        = entry.partition->name + '|' + job.spec.constraint + '|' + job.spec.gpuType + '|';
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
            || !satisfiesConstraint(m_index->nodeConfig(at), job.spec.constraint)
            || !hasGpuType(m_index->nodeConfig(at), job.spec.gpuType)) {
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

Amount SchedulePass::needAt(const QueueEntry &entry, std::size_t n, std::size_t k) const
{
    Amount need = needOn(entry, n);
    if (!entry.shape.exclusive && k < entry.shape.cpusOnNode.size()) {
        need.cpus = entry.shape.cpusOnNode[k];
    }
    if (!entry.shape.exclusive && k < entry.shape.gpusOnNode.size()) {
        need.gpus = entry.shape.gpusOnNode[k];
    }
    return need;
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
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const Amount need = needAt(entry, nodes[k], k);
        takeLogged(nodes[k], need, m_input.now, until);
        m_runningHeld.push_back({need.cpus, need.gpus});
    }
    m_running.push_back(
        {entry.job->id, m_runningNodes.size(), nodes.size(), until, nullptr, {}, false});
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
    // The most the job holds on any node, on each: the start is then found as it was planned
    // (fitNow asks that much of every node).
    for (std::size_t n : slot.nodes) {
        takeLogged(n, needOn(entry, n), slot.start, until);
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
