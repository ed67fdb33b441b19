// The controller's side of a scheduling pass: what it feeds the core (nodes, pending and
// running jobs, the fairshare ledger, a lookup over its job table) and how it applies the
// decisions (starts, array tasks, waits with their reasons, preemptions, the `plan` event).
#include "mc/ctl/controller.h"
#include "mc/record/job_codec.h"
#include "mc/record/plan_entry.h"
#include "mc/sched/gres.h"
#include "mc/sched/job_array.h"
#include "mc/sched/job_transitions.h"
#include "mc/sched/node_hold.h"
#include "mc/sched/preemption.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <memory>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobId;
using sched::JobState;
using sched::Reason;

sched::JobLookup Controller::makeLookup() const
{
    // A finished job leaves memory after MinJobAge and is not reloaded by a restart, but a
    // dependency on it is decided by how it ended, for good: what memory lacks comes from the
    // store (its finished records of that id or array, read once per lookup). Memory wins for
    // an id it holds (a finished job requeued runs again under its id).
    auto stored = std::make_shared<std::map<std::uint32_t, std::vector<Job>>>();
    auto storedOf = [this, stored](std::uint32_t id) -> const std::vector<Job> & {
        auto [it, added] = stored->try_emplace(id);
        if (added) {
            it->second = m_store.finishedJobs(id);
        }
        return it->second;
    };
    sched::JobLookup lookup;
    lookup.find = [this, storedOf](JobId id) -> const Job * {
        if (auto it = m_jobs.find(id); it != m_jobs.end()) {
            return &it->second;
        }
        if (id.value > m_jobs.lastId()) {
            return nullptr;
        }
        for (const Job &job : storedOf(id.value)) {
            if (job.id == id) {
                return &job;
            }
        }
        return nullptr;
    };
    lookup.arrayMembers = [this, storedOf](std::uint32_t arrayId) {
        std::vector<const Job *> members;
        const auto self = m_jobs.find(JobId{arrayId});
        if (self != m_jobs.end() && self->second.arrayJobId != arrayId) {
            return members; // a job of its own, or a task of another array: not an array's id
        }
        for (auto it = m_jobs.lower_bound(JobId{arrayId}); it != m_jobs.end(); ++it) {
            if (it->second.arrayJobId == arrayId) {
                members.push_back(&it->second);
            }
        }
        if (arrayId > m_jobs.lastId()) {
            return members;
        }
        for (const Job &job : storedOf(arrayId)) {
            if (job.arrayJobId == arrayId && !m_jobs.contains(job.id)) {
                members.push_back(&job);
            }
        }
        std::sort(members.begin(), members.end(),
            [](const Job *a, const Job *b) { return a->id < b->id; });
        return members;
    };
    lookup.singletonBlocked = [this](const Job &self) {
        for (const auto &[id, other] : m_jobs) {
            if (id >= self.id) {
                break;
            }
            if (!sched::isFinished(other.state) && other.spec.user == self.spec.user
                && other.spec.name == self.spec.name) {
                return true;
            }
        }
        return false;
    };
    return lookup;
}

sched::SchedulerInput Controller::schedulerInput(Seconds now) const
{
    sched::SchedulerInput input;
    input.config = &m_config;
    input.now = now;
    input.fairshare = &m_fairshare.ledger();
    input.nodes.reserve(m_nodes.size());
    // In slurm.conf's order, as the simulator (and Slurm's node table): where nodes fit a job
    // equally, the same one is chosen.
    for (const auto &conf : m_config.nodes) {
        if (auto it = m_nodes.find(conf.name); it != m_nodes.end()) {
            const NodeInfo &node = it->second;
            sched::NodeUsage usage = node.usage;
            usage.available = node.connected && node.adminState.empty() && !node.rebooting;
            input.nodes.push_back(usage);
        }
    }
    for (const auto &[id, job] : m_jobs) {
        if (job.isPending()) {
            input.pending.push_back(&job);
        } else if (job.isActive()) {
            input.running.push_back(&job);
        }
    }
    return input;
}

void Controller::schedule(Seconds now)
{
    if (!flushUnsaved()) {
        return; // nothing starts while the store refuses what we have (controller_store.cpp)
    }
    m_fairshare.chargeRunning(m_jobs.map(), now);
    enforcePreemptions(now);
    // A job started in a pass may satisfy an `after` dependency at once, and a preemption
    // without grace time frees nodes at once: look again, a few times at most.
    for (int round = 0; round < 4; ++round) {
        const bool anyPending = std::any_of(
            m_jobs.begin(), m_jobs.end(), [](const auto &e) { return e.second.isPending(); });
        if (!anyPending) {
            break;
        }
        ++m_passes;
        sched::SchedulerInput input = schedulerInput(now);
        const sched::JobLookup lookup = makeLookup();
        input.lookup = &lookup;
        sched::SchedulePlan plan = m_scheduler.run(input);
        for (const auto &p : plan.priorities) {
            if (auto it = m_jobs.find(p.job); it != m_jobs.end()) {
                const bool held = it->second.spec.hold || it->second.heldByAdmin;
                const auto priority = held ? 0 : p.factors.priority; // Slurm shows 0 when held
                if (it->second.priority != priority) {
                    it->second.priority = priority;
                    m_jobs.touch(it->second);
                }
            }
        }
        for (const auto &start : plan.starts) {
            startDecided(start, now);
        }
        applyWaits(plan, now);
        applyPreemptions(plan, now);
        const bool dependencyWaits = std::any_of(plan.waits.begin(), plan.waits.end(),
            [](const sched::WaitDecision &w) { return w.reason == Reason::Dependency; });
        const bool freedNow = std::any_of(plan.preemptions.begin(), plan.preemptions.end(),
            [now](const sched::PreemptDecision &p) { return p.endAt <= now; });
        if (!((!plan.starts.empty() && dependencyWaits) || freedNow)) {
            break;
        }
    }
    std::erase_if(m_waits, [this](const auto &e) {
        auto it = m_jobs.find(e.first);
        return it == m_jobs.end() || !it->second.isPending();
    });
    publishPlan();
}

void Controller::startDecided(const sched::StartDecision &start, Seconds now)
{
    auto found = m_jobs.find(start.job);
    if (found == m_jobs.end() || !found->second.isPending() || storeFailing()) {
        return;
    }
    Job *record = &found->second;
    if (start.arrayTaskId) {
        // One record until tasks start: the task leaves the record under a new id.
        record = &splitTask(found->second, *start.arrayTaskId, now);
        if (record != &found->second && storeFailing()) {
            // the task stays pending, saved with the record later
            m_unsaved.insert(record->id);
            m_jobs.touch(*record);
            return;
        }
    }
    Job &job = *record;
    Job before = job;
    std::vector<const sched::NodeUsage *> usages;
    for (const auto &name : start.nodes) {
        auto it = m_nodes.find(name);
        usages.push_back(it == m_nodes.end() ? nullptr : &it->second.usage);
    }
    job = sched::startOnNodes(std::move(job), start, usages, now);
    if (start.shape.exclusive && !job.nodeList.empty()) {
        if (auto it = m_nodes.find(job.nodeList.front()); it != m_nodes.end()) {
            job.gpusPerNode = it->second.usage.gpus; // --exclusive: every GPU as well
        }
    }
    m_nodes.pickGpus(job, start.shape.exclusive ? std::vector<int>{} : start.shape.gpusOnNode);
    m_waits.erase(job.id);
    m_starts.insert_or_assign(job.id, start);
    m_nodes.allocate(job, +1);
    for (const auto &name : job.nodeList) {
        if (auto it = m_nodes.find(name); it != m_nodes.end()) {
            emitNode(it->second);
        }
    }
    if (!persist(job)) {
        // Not stored RUNNING, so not launched: a restarted controller would not know it ran.
        release(job);
        job = std::move(before);
        m_jobs.touch(job);
        return;
    }
    if (job.spec.interactive) { // salloc/srun: no batch script; srun brings the steps
        emitJob(job, now);
        return;
    }
    if (!m_gateway.send(job.batchHost, launchOrder(job))) {
        jobEnded(job, record::JobEnd{.job = job.id, .nodeFail = true}, now);
        return;
    }
    noteLaunched(job); // BatchStartTimeout runs from here
    emitJob(job, now);
}

void Controller::applyWaits(sched::SchedulePlan &plan, Seconds now)
{
    for (auto &wait : plan.waits) {
        auto it = m_jobs.find(wait.job);
        if (it == m_jobs.end() || !it->second.isPending()) {
            continue;
        }
        Job &job = it->second;
        if (wait.reason == Reason::DependencyNeverSatisfied && m_config.killInvalidDepend) {
            // SchedulerParameters=kill_invalid_depend: Slurm cancels the job (its reason
            // stays DependencyNeverSatisfied, start and end now, cancelled by nobody).
            job.state = JobState::Cancelled;
            job.reason = wait.reason;
            job.startTime = now;
            job.endTime = now;
            m_waits.erase(wait.job);
            persist(job);
            emitJob(job, now);
            continue;
        }
        auto old = m_waits.find(wait.job);
        const bool changed = job.reason != wait.reason || job.plannedStart != wait.plannedStart
            || old == m_waits.end() || old->second.waitingFor != wait.waitingFor
            || old->second.dependency != wait.dependency || old->second.nodes != wait.nodes;
        job.reason = wait.reason;
        job.plannedStart = wait.plannedStart;
        m_waits.insert_or_assign(wait.job, std::move(wait));
        if (changed) {
            persist(job);
            emitJob(job, now);
        }
    }
}

void Controller::applyPreemptions(const sched::SchedulePlan &plan, Seconds now)
{
    for (const auto &p : plan.preemptions) {
        auto it = m_jobs.find(p.victim);
        if (it == m_jobs.end() || !it->second.isActive() || it->second.preemptEnd) {
            continue;
        }
        Job &victim = it->second;
        victim.preemptEnd = p.endAt;
        persist(victim);
        emitJob(victim, now);
        if (p.endAt > now && !victim.spec.interactive) {
            // GraceTime: SIGTERM now (the job may save its state), the end when it is over.
            // With SlurmctldParameters=preempt_send_user_signal the job's own --signal goes
            // instead, to whom --signal names (B: the batch shell, else the steps), once.
            Json order = Json::object();
            order.set("op", "signal");
            order.set("job_id", static_cast<std::int64_t>(victim.id.value));
            order.set("signal", SIGTERM);
            order.set("cancel", false);
            const std::string &user = victim.spec.signal;
            if (m_config.preemptSendUserSignal && !user.empty()) {
                const bool batch = user.rfind("B:", 0) == 0;
                order.set("signal", std::atoi(user.c_str() + (batch ? 2 : 0)));
                order.set("scope", batch ? "batch" : "steps");
                order.set("user_signal", true); // the node sends it unless it already did
            }
            m_gateway.send(victim.batchHost, order);
        }
    }
    enforcePreemptions(now);
}

void Controller::enforcePreemptions(Seconds now)
{
    std::vector<JobId> due;
    for (const auto &[id, job] : m_jobs) {
        if (job.isActive() && job.preemptEnd && *job.preemptEnd <= now
            && !m_preemptKilled.contains(id)) {
            due.push_back(id);
        }
    }
    for (JobId id : due) {
        Job &job = m_jobs[id];
        m_preemptKilled[id] = true;
        Json order = Json::object();
        order.set("op", "signal");
        order.set("job_id", static_cast<std::int64_t>(id.value));
        order.set("signal", SIGKILL);
        order.set("cancel", false);
        if (job.spec.interactive || !m_gateway.send(job.batchHost, order)) {
            // Nothing runs there to report an end: end it here.
            jobEnded(job, record::JobEnd{.job = id, .exit = {0, SIGKILL}}, now);
        }
    }
}

void Controller::publishPlan()
{
    Json plan = Json::array();
    for (const auto &[id, job] : m_jobs) {
        if (!job.isPending() || !job.plannedStart) {
            continue;
        }
        record::PlanEntry entry{static_cast<std::int64_t>(id.value), *job.plannedStart, {}};
        if (auto wait = m_waits.find(id); wait != m_waits.end()) {
            entry.nodes = wait->second.nodes;
        }
        plan.push(record::planEntryToJson(entry));
    }
    if (plan == m_lastPlan) {
        return;
    }
    m_lastPlan = plan;
    if (!publish) {
        return;
    }
    Json event = Json::object();
    event.set("event", "plan");
    event.set("plan", std::move(plan));
    publish(event);
}

} // namespace mc::ctl
