#include "mc/sim/simulation.h"

#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "mc/sched/job_transitions.h"
#include "mc/sched/node_hold.h"

#include <algorithm>

namespace mc::sim {

using sched::Job;
using sched::JobState;
using sched::Reason;

Simulation::Simulation(sched::ClusterConfig config, SimulationOptions options)
    : m_config(std::move(config))
    , m_options(options)
    , m_scheduler(sched::SchedulerOptions{options.policy, options.reservationDepth})
    , m_fairshare(m_config.priority.decayHalfLife)
{
    for (const auto &n : m_config.nodes) {
        m_nodeIndex.emplace(n.name, m_nodes.size());
        sched::NodeUsage usage;
        usage.name = n.name;
        usage.cpus = n.cpus;
        usage.memory = n.realMemory;
        usage.gpus = n.gpus;
        m_nodes.push_back(usage);
    }
    m_clusterIndex.emplace(m_config, m_nodes);
    m_lookup.find = [this](JobId id) {
        return job(id);
    };
    m_lookup.arrayMembers = [this](std::uint32_t arrayId) {
        std::vector<const Job *> members;
        for (auto it = m_jobs.lower_bound(arrayId); it != m_jobs.end(); ++it) {
            if (it->second.arrayJobId == arrayId) {
                members.push_back(&it->second);
            } else if (it->first != arrayId && it->second.arrayJobId == 0
                && it->first > arrayId + 1001) {
                break;
            }
        }
        return members;
    };
    m_lookup.singletonBlocked = [this](const Job &self) {
        for (const auto &[id, other] : m_jobs) {
            if (other.id < self.id && !sched::isFinished(other.state)
                && other.spec.user == self.spec.user && other.spec.name == self.spec.name) {
                return true;
            }
        }
        return false;
    };
}

std::size_t Simulation::nodeIndex(const std::string &name) const
{
    auto it = m_nodeIndex.find(name);
    return it == m_nodeIndex.end() ? m_nodes.size() : it->second;
}

std::string Simulation::displayId(const Job &job) const
{
    if (job.arrayJobId != 0 && job.arrayTaskId) {
        return std::to_string(job.arrayJobId) + '_' + std::to_string(*job.arrayTaskId);
    }
    if (job.arrayJobId != 0 && !job.arrayPending.empty()) {
        return std::to_string(job.arrayJobId) + '_'
            + sched::formatArrayTasks(job.arrayPending, job.arrayMaxRunning);
    }
    return std::to_string(job.id.value);
}

void Simulation::log(EventKind kind, const Job &job, std::string detail)
{
    if (m_options.keepEvents) {
        m_events.push_back({m_now, kind, displayId(job), std::move(detail)});
    }
}

void Simulation::at(Seconds time, std::function<void()> action)
{
    m_commands.push({time, m_seq++, std::move(action)});
}

JobId Simulation::submit(
    Seconds time, sched::JobSpec spec, Behaviour behaviour, std::optional<JobId> id)
{
    const JobId jobId = id.value_or(JobId{m_nextId});
    m_nextId = std::max(m_nextId, jobId.value + 1);
    Command command{time, m_seq++, {}, true};
    command.action = [this, jobId, spec = std::move(spec), behaviour]() mutable {
        Job job;
        job.id = jobId;
        const sched::PartitionConfig *part = spec.partition.empty()
            ? m_config.defaultPartition()
            : m_config.partition(spec.partition);
        if (part) {
            spec.partition = part->name;
        }
        job.spec = std::move(spec);
        job.submitTime = m_now;
        job.eligibleTime = m_now;
        job.timeLimit = job.spec.timeLimit
            ? *job.spec.timeLimit
            : (part ? part->defaultTime.value_or(part->maxTime) : sched::kInfinite);
        if (!job.spec.array.empty()) {
            if (auto array = sched::parseArraySpec(job.spec.array)) {
                job.arrayJobId = jobId.value;
                job.arrayPending = array->taskIds;
                job.arrayMaxRunning = array->maxRunning;
            }
        }
        m_fairshare.addUser(job.spec.user);
        m_behaviour[jobId.value] = behaviour;
        auto [it, inserted] = m_jobs.insert_or_assign(jobId.value, std::move(job));
        m_pending.insertOrAssign(jobId.value, &it->second);
        m_fresh.push_back(jobId.value);
        if (!inserted) {
            m_dirty = true; // an explicit id replaced a job
        }
        log(EventKind::Submit, it->second, {});
    };
    m_commands.push(std::move(command));
    return jobId;
}

void Simulation::cancel(Seconds time, JobId id)
{
    at(time, [this, id] {
        auto it = m_jobs.find(id.value);
        if (it == m_jobs.end() || sched::isFinished(it->second.state)) {
            return;
        }
        Job &job = it->second;
        if (job.isPending()) {
            m_pending.erase(id.value);
            job = sched::endJob(std::move(job), JobState::Cancelled, {}, m_now);
            log(EventKind::End, job, "CANCELLED");
        } else {
            finish(job, JobState::Cancelled, 0);
        }
    });
}

void Simulation::hold(Seconds time, JobId id, bool admin)
{
    at(time, [this, id, admin] {
        auto it = m_jobs.find(id.value);
        if (it != m_jobs.end() && it->second.isPending()) {
            it->second = sched::holdJob(std::move(it->second), admin);
            log(EventKind::Hold, it->second, admin ? "admin" : "user");
        }
    });
}

void Simulation::release(Seconds time, JobId id, bool admin)
{
    at(time, [this, id, admin] {
        auto it = m_jobs.find(id.value);
        if (it == m_jobs.end() || !it->second.isPending()) {
            return;
        }
        if (auto released = sched::releaseJob(it->second, admin)) {
            it->second = std::move(*released);
            log(EventKind::Release, it->second, admin ? "admin" : "user");
        } else {
            log(EventKind::Release, it->second, "denied");
        }
    });
}

void Simulation::requeue(Seconds time, JobId id)
{
    at(time, [this, id] {
        auto it = m_jobs.find(id.value);
        if (it != m_jobs.end() && it->second.isActive()) {
            requeueRunning(it->second);
        }
    });
}

void Simulation::failNode(Seconds time, const std::string &node)
{
    at(time, [this, node] {
        const std::size_t n = nodeIndex(node);
        if (n == m_nodes.size()) {
            return;
        }
        m_nodes[n].available = false;
        m_events.push_back({m_now, EventKind::NodeDown, node, {}});
        std::vector<std::uint32_t> hit;
        for (const auto &[id, running] : m_running) {
            const Job &job = *running.job;
            if (std::find(job.nodeList.begin(), job.nodeList.end(), node) != job.nodeList.end()) {
                hit.push_back(id);
            }
        }
        for (std::uint32_t id : hit) {
            Job &job = m_jobs.at(id);
            log(EventKind::End, job, "NODE_FAIL");
            requeueRunning(job);
        }
    });
}

void Simulation::resumeNode(Seconds time, const std::string &node)
{
    at(time, [this, node] {
        const std::size_t n = nodeIndex(node);
        if (n < m_nodes.size()) {
            m_nodes[n].available = true;
            m_events.push_back({m_now, EventKind::NodeUp, node, {}});
        }
    });
}

void Simulation::setPartitionState(
    Seconds time, const std::string &partition, sched::PartitionState state)
{
    at(time, [this, partition, state] {
        for (auto &p : m_config.partitions) {
            if (p.name == partition) {
                p.state = state;
            }
        }
    });
}

const Job *Simulation::job(JobId id) const
{
    auto it = m_jobs.find(id.value);
    return it == m_jobs.end() ? nullptr : &it->second;
}

const sched::WaitDecision *Simulation::lastWait(JobId id) const
{
    auto it = m_waits.find(id.value);
    return it == m_waits.end() ? nullptr : &it->second;
}

void Simulation::allocate(const Job &job, int sign)
{
    const sched::JobShape &shape = m_shapes.at(job.id.value);
    const RunningJob *running = m_running.find(job.id.value);
    if (!running) {
        return;
    }
    for (std::size_t k = 0; k < running->nodes.size(); ++k) {
        sched::NodeUsage &u = m_nodes[running->nodes[k]];
        sched::applyHold(u, sched::holdOn(u, shape, k), sign);
    }
}

void Simulation::scheduleEnd(const Job &job)
{
    const Behaviour &b = m_behaviour[job.id.value];
    Seconds end = job.startTime + b.runTime;
    if (job.timeLimit != sched::kInfinite) {
        end = std::min(end, job.startTime + job.timeLimit);
    }
    if (job.preemptEnd) {
        end = std::min(end, *job.preemptEnd);
    }
    m_endings.push({std::max(end, m_now), job.id.value, ++m_generation[job.id.value]});
}

void Simulation::finish(Job &job, JobState state, int exitCode)
{
    allocate(job, -1);
    m_running.erase(job.id.value);
    m_generation[job.id.value]++; // invalidates its pending ending
    const double cpuSeconds = static_cast<double>(job.allocCpus)
        * static_cast<double>(std::max<Seconds>(0, m_now - job.startTime));
    m_fairshare.charge(job.spec.user, cpuSeconds, m_now);
    job = sched::endJob(std::move(job), state, sched::ExitStatus{exitCode, 0}, m_now);
    log(EventKind::End, job, std::string(sched::longName(state)));
}

void Simulation::requeueRunning(Job &job)
{
    allocate(job, -1);
    m_running.erase(job.id.value);
    m_generation[job.id.value]++;
    job = sched::requeueJob(std::move(job), m_now, m_config.requeueDelay);
    m_pending.insertOrAssign(job.id.value, &job);
    log(EventKind::Requeue, job, {});
}

void Simulation::endDue()
{
    while (!m_endings.empty() && m_endings.top().time <= m_now) {
        const Ending e = m_endings.top();
        m_endings.pop();
        auto it = m_jobs.find(e.job);
        if (it == m_jobs.end() || m_generation[e.job] != e.generation || !it->second.isActive()) {
            continue;
        }
        Job &job = it->second;
        const Behaviour &b = m_behaviour[e.job];
        m_dirty = true;
        if (job.preemptEnd && *job.preemptEnd <= m_now) {
            const auto *part = m_config.partition(job.spec.partition);
            const auto mode
                = part ? part->preemptMode.value_or(m_config.preemptMode) : m_config.preemptMode;
            if (mode == sched::PreemptMode::Requeue) {
                requeueRunning(job);
            } else {
                finish(job, JobState::Preempted, 0);
            }
        } else if (job.startTime + b.runTime <= m_now) {
            finish(job, b.exitCode == 0 ? JobState::Completed : JobState::Failed, b.exitCode);
        } else {
            finish(job, JobState::Timeout, 0);
        }
    }
}

void Simulation::startJob(const sched::StartDecision &start)
{
    Job *record = &m_jobs.at(start.job.value);
    if (start.arrayTaskId) {
        const JobId newId{m_nextId};
        auto split = sched::splitArrayTask(*record, *start.arrayTaskId, newId);
        if (split.lastTask) {
            *record = std::move(split.task);
        } else {
            ++m_nextId;
            *record = std::move(split.record);
            m_behaviour[newId.value] = m_behaviour[start.job.value];
            record = &m_jobs.insert_or_assign(newId.value, std::move(split.task)).first->second;
            m_pending.insertOrAssign(newId.value, record);
        }
    }
    Job &job = *record;
    m_pending.erase(job.id.value);
    std::vector<std::size_t> at;
    std::vector<const sched::NodeUsage *> usages;
    at.reserve(start.nodes.size());
    for (const auto &name : start.nodes) {
        const std::size_t n = nodeIndex(name);
        usages.push_back(n < m_nodes.size() ? &m_nodes[n] : nullptr);
        if (n < m_nodes.size()) {
            at.push_back(n);
        }
    }
    // As the controller: an exclusive job's AllocCPUS (and fairshare charge) is whole nodes.
    job = sched::startOnNodes(std::move(job), start, usages, m_now);
    m_shapes[job.id.value] = start.shape;
    m_running.insertOrAssign(job.id.value, RunningJob{&job, std::move(at)});
    allocate(job, +1);
    scheduleEnd(job);
    m_waits.erase(job.id.value);
    log(EventKind::Start, job, sched::compressHostlist(job.nodeList));
}

Job &Simulation::pendingJob(JobId id)
{
    // The jobs of a plan were pending: the pending table is far smaller than the job table.
    Job **pending = m_pending.find(id.value);
    return pending ? **pending : m_jobs.at(id.value);
}

void Simulation::apply(sched::SchedulePlan &plan, bool &immediate)
{
    for (const auto &p : plan.priorities) {
        pendingJob(p.job).priority = p.factors.priority;
    }
    for (const auto &start : plan.starts) {
        startJob(start);
    }
    for (auto &wait : plan.waits) {
        Job &job = pendingJob(wait.job);
        job.plannedStart = wait.plannedStart;
        if (job.reason != wait.reason) {
            job.reason = wait.reason;
            log(EventKind::Pending, job, std::string(sched::reasonName(wait.reason)));
        }
        if ((wait.reason == Reason::BeginTime || wait.reason == Reason::Dependency)
            && wait.plannedStart && *wait.plannedStart > m_now) {
            m_wakes.push(*wait.plannedStart);
        }
        if (wait.reason == Reason::Resources && wait.plannedStart && wait.waitingFor.size() < 100) {
            if (m_reserved.insert(wait.job.value).second) {
                m_reservations.push_back({wait.job, *wait.plannedStart});
            }
        }
        m_waits.insert_or_assign(wait.job.value, std::move(wait));
    }
    // A job started in this pass may satisfy an `after` dependency at once: look again.
    if (!plan.starts.empty()) {
        for (const auto &[id, pending] : m_pending) {
            if (pending->reason == Reason::Dependency) {
                immediate = true;
                break;
            }
        }
    }
    for (const auto &p : plan.preemptions) {
        Job &victim = m_jobs.at(p.victim.value);
        if (!victim.isActive() || victim.preemptEnd) {
            continue;
        }
        m_dirty = true; // the victim's expected end changed
        log(EventKind::Preempt, victim, "by " + std::to_string(p.preemptor.value));
        victim.preemptEnd = p.endAt;
        if (p.endAt <= m_now) {
            immediate = true;
        }
        scheduleEnd(victim);
    }
}

void Simulation::pass()
{
    if (m_pending.empty()) {
        m_fresh.clear();
        return; // nothing to decide (preemptions only come from pending jobs)
    }
    if (!m_dirty && !m_fresh.empty()) {
        // Only submissions since the last pass: decide the new jobs after the others.
        std::vector<const Job *> fresh;
        for (std::uint32_t id : m_fresh) {
            if (Job **pending = m_pending.find(id)) {
                fresh.push_back(*pending);
            }
        }
        m_fresh.clear();
        if (auto plan = m_scheduler.append(fresh, m_now)) {
            ++m_passes;
            bool immediate = false;
            apply(*plan, immediate);
            if (!immediate) {
                return;
            }
            m_dirty = true;
        }
    }
    m_fresh.clear();
    for (int round = 0; round < 4; ++round) {
        ++m_passes;
        sched::SchedulerInput input;
        input.config = &m_config;
        input.nodeView = &m_nodes;
        input.now = m_now;
        input.fairshare = &m_fairshare;
        input.index = &*m_clusterIndex;
        input.pending.reserve(m_pending.size());
        for (const auto &[id, pending] : m_pending) {
            input.pending.push_back(pending);
        }
        input.running.reserve(m_running.size());
        input.runningNodes.reserve(m_running.size());
        for (const auto &[id, running] : m_running) {
            input.running.push_back(running.job);
            input.runningNodes.push_back(&running.nodes);
        }
        input.lookup = &m_lookup;
        if (!m_options.carryPlan) {
            m_scheduler.reset();
        }
        sched::SchedulePlan plan = m_scheduler.run(input);
        m_dirty = false;
        bool immediate = false;
        apply(plan, immediate);
        if (!immediate) {
            return;
        }
        m_dirty = true;
        endDue();
        if (m_pending.empty()) {
            return;
        }
    }
    m_dirty = true;
}

void Simulation::run(std::optional<Seconds> until)
{
    while (true) {
        std::optional<Seconds> next;
        auto consider = [&](Seconds t) {
            next = next ? std::min(*next, t) : t;
        };
        if (!m_commands.empty()) {
            consider(m_commands.top().time);
        }
        while (!m_endings.empty()) {
            const Ending &e = m_endings.top();
            if (m_generation[e.job] == e.generation) {
                consider(e.time);
                break;
            }
            m_endings.pop();
        }
        while (!m_wakes.empty() && m_wakes.top() <= m_now) {
            m_wakes.pop();
        }
        if (!m_wakes.empty()) {
            consider(m_wakes.top());
        }
        if (!next || (until && *next > *until)) {
            break;
        }
        m_now = std::max(m_now, *next);
        endDue();
        while (!m_commands.empty() && m_commands.top().time <= m_now) {
            auto action = m_commands.top().action;
            if (!m_commands.top().submit) {
                m_dirty = true; // cancel, hold, node change, inspection...: decide all again
            }
            m_commands.pop();
            action();
        }
        while (!m_wakes.empty() && m_wakes.top() <= m_now) {
            m_wakes.pop();
            m_dirty = true; // a begin time or `after` delay came: eligibility changed
        }
        pass();
    }
    if (until) {
        m_now = std::max(m_now, *until);
    }
}

} // namespace mc::sim
