// Requests that change or read scheduling state: hold, release, requeue, update (scontrol),
// priorities (sprio), node_update (scontrol update nodename=), config
// (scontrol show config), and sbatch --test-only. Errors are Slurm's words and errno values.
#include "mc/base/text.h"
#include "mc/ctl/controller.h"
#include "mc/record/job_codec.h"
#include "mc/record/job_update.h"
#include "mc/sched/dependency.h"
#include "mc/sched/job_transitions.h"
#include "mc/sched/time_format.h"
#include "replies.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <numeric>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobId;
using sched::JobState;
using sched::Reason;

namespace {

// Collects per-job failures as `cancel` does: [{job_id, job, error, errno}].
class Results {
public:
    void add(Json failure) { m_list.push(std::move(failure)); }
    Json reply()
    {
        Json reply = success();
        reply.set("results", std::move(m_list));
        return reply;
    }

private:
    Json m_list = Json::array();
};

} // namespace

bool Controller::isAdmin(const std::string &user) const
{
    return isOperator(user);
}

Json Controller::holdOrRelease(const Json &request, Seconds now, bool hold)
{
    const std::string user = request["user"].toString();
    const bool admin = isAdmin(user);
    // scontrol hold by an operator is an admin hold; uhold (admin=false) always a user hold.
    const bool adminHold = hold && admin && request["admin"].toBool(true);
    Results results;
    for (const NamedJob &named : namedJobs(request["job_ids"], now)) {
        auto fail = [&](std::string_view message, int slurmErrno) {
            results.add(jobFailure(named, message, slurmErrno));
        };
        auto it = named.id ? m_jobs.find(*named.id) : m_jobs.end();
        if (it == m_jobs.end()) {
            fail("Invalid job id specified", kInvalidJobId);
            continue;
        }
        Job &job = it->second;
        if (!admin && job.spec.user != user) { // an update of the job, as `scontrol update`
            fail("Invalid user id", kInvalidUser);
            continue;
        }
        if (sched::isFinished(job.state)) {
            fail("Job/step already completing or completed", kAlreadyDone);
            continue;
        }
        if (hold) {
            // A running job keeps running; the hold applies if it is requeued.
            job = sched::holdJob(std::move(job), adminHold);
            if (!job.isPending()) {
                job.reason = Reason::None;
            }
            job.priority = 0;
        } else {
            auto released = sched::releaseJob(job, admin);
            if (!released) {
                fail("Access/permission denied", kAccessDenied);
                continue;
            }
            job = std::move(*released);
        }
        persist(job);
        emitJob(job, now);
    }
    return results.reply();
}

Json Controller::requeue(const Json &request, Seconds now)
{
    const std::string user = request["user"].toString();
    const bool admin = isAdmin(user);
    const bool hold = request["hold"].toBool();
    Results results;
    for (const NamedJob &named : namedJobs(request["job_ids"], now)) {
        auto fail = [&](std::string_view message, int slurmErrno) {
            results.add(jobFailure(named, message, slurmErrno));
        };
        auto it = named.id ? m_jobs.find(*named.id) : m_jobs.end();
        if (it == m_jobs.end()) {
            fail("Invalid job id specified", kInvalidJobId);
            continue;
        }
        Job &job = it->second;
        const std::uint32_t id = job.id.value;
        if (!admin && job.spec.user != user) {
            fail("Access/permission denied", kAccessDenied);
            continue;
        }
        if (job.isPending()) {
            fail("Job is pending execution", kJobPending);
            continue;
        }
        if (job.spec.interactive) {
            fail("Only batch jobs are accepted or processed", kNotSupported);
            continue;
        }
        if (sched::isFinished(job.state)) {
            // Slurm requeues a finished batch job too: it runs again under the same id.
            job = sched::requeueJob(std::move(job), now, m_config.requeueDelay);
            job.exit = {};
            if (hold) {
                job = sched::holdJob(std::move(job), false);
            }
            persist(job);
            emitJob(job, now);
            continue;
        }
        // Running: the node ends it; its end report puts it back in the queue.
        m_requeueOnEnd[job.id] = hold;
        Json order = Json::object();
        order.set("op", "signal");
        order.set("job_id", static_cast<std::int64_t>(id));
        order.set("signal", SIGKILL);
        order.set("cancel", false);
        if (!m_gateway.send(job.batchHost, order)) {
            jobEnded(job, record::JobEnd{.job = job.id}, now);
        }
    }
    return results.reply();
}

Json Controller::update(const Json &request, Seconds now)
{
    // job_id: a number, or "12", "12_3", "12_[1-3]" (each task in turn; the first failure).
    Json ids = Json::array();
    ids.push(request["job_id"]);
    for (const NamedJob &named : namedJobs(ids, now)) {
        Json reply = named.id ? updateJob(*named.id, request, now)
                              : failure("Invalid job id specified", kInvalidJobId);
        if (!reply["ok"].toBool()) {
            return reply;
        }
    }
    return success();
}

Json Controller::updateJob(JobId id, const Json &request, Seconds now)
{
    const std::string user = request["user"].toString();
    const bool admin = isAdmin(user);
    auto it = m_jobs.find(id);
    if (it == m_jobs.end()) {
        return failure("Invalid job id specified", kInvalidJobId);
    }
    Job job = it->second; // changed on a copy: all fields or none
    if (!admin && job.spec.user != user) {
        return failure("Invalid user id", kInvalidUser); // Slurm 22.05: ESLURM_USER_ID_MISSING
    }
    if (sched::isFinished(job.state)) {
        return failure("Job/step already completing or completed", kAlreadyDone);
    }
    // The fields are judged in one order, whatever their order in the request: first those a
    // running job may change, then those of a pending job only; the first refusal is the reply.
    const record::JobUpdate update = record::updateFromJson(request["fields"]);
    const bool pending = job.isPending();
    if (update.timeLimit) {
        const Seconds limit = *update.timeLimit;
        // A user may lengthen a pending job up to the MaxTime of the partition it will be in;
        // past it Slurm says the increase is an operator's (ESLURM_ACCESS_DENIED).
        const auto *part = m_config.partition(update.partition.value_or(job.spec.partition));
        if (!admin && part && part->maxTime != sched::kInfinite
            && (limit == sched::kInfinite || limit > part->maxTime)) {
            return failure("Access/permission denied", kAccessDenied);
        }
        if (!pending) {
            return failure("minicluster does not support changing the time limit of a "
                           "running job",
                kNotSupported);
        }
        job.timeLimit = limit;
        job.spec.timeLimit = limit;
    }
    if (update.nice) {
        if (*update.nice < 0 && !admin) {
            return failure("Access/permission denied", kAccessDenied);
        }
        job.spec.nice = *update.nice;
    }
    if (update.comment) { // the owner's note, pending or running
        job.spec.comment = *update.comment;
    }
    const bool pendingOnly = update.timeMin || update.partition || update.name || update.numNodes
        || update.begin || update.constraint || update.dependency || update.arrayTaskThrottle
        || !update.unknown.empty();
    if (pendingOnly && !pending) {
        return failure("Job is no longer pending execution", kNotPending);
    }
    if (update.timeMin) {
        job.spec.timeMin = *update.timeMin;
    }
    if (update.partition) {
        const auto *part = m_config.partition(*update.partition);
        if (!part) {
            return failure("Invalid partition name specified", kInvalidPartition);
        }
        job.spec.partition = part->name;
        if (!job.spec.timeLimit) {
            job.timeLimit = part->defaultTime.value_or(part->maxTime);
        }
    }
    if (update.name) {
        job.spec.name = *update.name;
    }
    if (update.numNodes) {
        job.spec.nodes = std::max(1, *update.numNodes);
    }
    if (update.begin) {
        job.spec.begin = *update.begin;
    }
    if (update.constraint) {
        job.spec.constraint = *update.constraint;
    }
    if (update.dependency) {
        const auto dep = sched::parseDependency(*update.dependency);
        if (!dep) {
            return failure("Job dependency problem", kDependencyProblem);
        }
        if (sched::dependsOnItself(job, *dep, makeLookup())) {
            return failure("Circular job dependency", kCircularDependency);
        }
        job.spec.dependency = *update.dependency;
    }
    if (update.arrayTaskThrottle) {
        job.arrayMaxRunning = *update.arrayTaskThrottle;
    }
    if (!update.unknown.empty()) {
        return failure(
            "minicluster does not support updating " + update.unknown.front(), kNotSupported);
    }
    it->second = std::move(job);
    m_waits.erase(it->first); // decided again at the next pass
    persist(it->second);
    emitJob(it->second, now);
    return success();
}

Json Controller::priorities(const Json &request, Seconds now) const
{
    const auto &p = m_config.priority;
    Json weights = Json::object();
    weights.set("age", p.weightAge);
    weights.set("fairshare", p.weightFairshare);
    weights.set("job_size", p.weightJobSize);
    weights.set("partition", p.weightPartition);
    weights.set("qos", p.weightQos);
    const auto context = sched::makePriorityContext(m_config, &m_fairshare.ledger());
    Json jobs = Json::array();
    for (const auto &[id, job] : m_jobs) {
        // Like Slurm's multifactor plugin, only jobs that could start: pending, not held
        // (priority 0 there), eligible (past --begin, dependencies satisfied).
        const bool waitsToBeEligible = job.spec.hold || job.heldByAdmin
            || (job.spec.begin && *job.spec.begin > now) || job.reason == sched::Reason::Dependency
            || job.reason == sched::Reason::DependencyNeverSatisfied;
        if (!job.isPending() || waitsToBeEligible
            || (request["job_ids"].size() && !listedId(request["job_ids"], id.value))
            || (request["users"].size() && !listed(request["users"], job.spec.user))
            || (request["partitions"].size()
                && !listed(request["partitions"], job.spec.partition))) {
            continue;
        }
        const sched::PriorityFactors f = sched::priorityOf(job, context, now);
        Json j = Json::object();
        j.set("job_id", static_cast<std::int64_t>(id.value));
        j.set("user", job.spec.user);
        j.set("account", job.spec.account);
        j.set("partition", job.spec.partition);
        j.set("priority", job.priority);
        j.set("age", f.age);
        j.set("fairshare", f.fairshare);
        j.set("job_size", f.jobSize);
        j.set("partition_factor", f.partition);
        j.set("qos", f.qos);
        j.set("nice", f.nice);
        jobs.push(std::move(j));
    }
    Json reply = success();
    reply.set("priority_type",
        p.kind == sched::PriorityKind::Multifactor ? "priority/multifactor" : "priority/basic");
    reply.set("weights", std::move(weights));
    reply.set("jobs", std::move(jobs));
    reply.set("now", now);
    return reply;
}

Json Controller::nodeUpdate(const Json &request, Seconds now)
{
    if (!isAdmin(request["user"].toString())) {
        return failure("Invalid user id", kInvalidUser);
    }
    auto it = m_nodes.find(request["node"].toString());
    if (it == m_nodes.end()) {
        return failure("Invalid node name specified", kInvalidNodeName);
    }
    NodeInfo &node = it->second;
    const std::string state = request["state"].toString();
    const std::string reason = request["reason"].toString();
    if (state == "resume") {
        node.adminState.clear();
        node.reason = node.connected ? std::string() : std::string("Not responding");
    } else if (state == "drain" || state == "fail" || state == "down") {
        node.adminState = state;
        node.reason = reason;
    } else {
        return failure("Invalid node state specified", kInvalidNodeState);
    }
    if (state == "down") {
        // Its jobs are lost with it: requeued (JobRequeue=1) or NODE_FAIL, processes killed.
        failJobsOn(node.usage.name, JobId{}, true, now);
    }
    emitNode(node);
    return success();
}

Json Controller::configInfo(Seconds now) const
{
    const auto &c = m_config;
    const auto &p = c.priority;
    // One list (not emplace_back one by one: GCC 12 -O3 reports a false -Warray-bounds).
    std::vector<std::pair<std::string, std::string>> keys{
        {"BatchStartTimeout", std::to_string(c.batchStartTimeout) + " sec"},
        {"ClusterName", c.clusterName},
        {"DefMemPerCPU", c.defMemPerCpu ? std::to_string(*c.defMemPerCpu) : "UNLIMITED"},
        {"InactiveLimit", std::to_string(c.inactiveLimit) + " sec"},
        {"JobRequeue", "1"},
        {"KillWait", std::to_string(c.killWait) + " sec"},
        {"MinJobAge", std::to_string(c.minJobAge) + " sec"},
        {"OverTimeLimit",
            c.overTimeLimit ? std::to_string(*c.overTimeLimit / 60) + " min" : "UNLIMITED"},
        {"PreemptMode",
            c.preemptMode == sched::PreemptMode::Requeue
                ? "REQUEUE"
                : (c.preemptMode == sched::PreemptMode::Cancel ? "CANCEL" : "OFF")},
        {"PreemptType", c.preemptPartitionPrio ? "preempt/partition_prio" : "preempt/none"},
        {"PriorityCalcPeriod", sched::formatHms(p.calcPeriod)},
        {"PriorityDecayHalfLife", sched::formatHms(p.decayHalfLife)},
        {"PriorityFavorSmall", p.favorSmall ? "Yes" : "No"},
        {"PriorityMaxAge", sched::formatHms(p.maxAge)},
        {"PriorityType",
            p.kind == sched::PriorityKind::Multifactor ? "priority/multifactor" : "priority/basic"},
        {"PriorityWeightAge", std::to_string(p.weightAge)},
        {"PriorityWeightFairShare", std::to_string(p.weightFairshare)},
        {"PriorityWeightJobSize", std::to_string(p.weightJobSize)},
        {"PriorityWeightPartition", std::to_string(p.weightPartition)},
        {"PriorityWeightQOS", std::to_string(p.weightQos)},
        {"SchedulerParameters", c.schedulerParameters.empty() ? "(null)" : c.schedulerParameters},
        {"SchedulerType",
            c.scheduler == sched::SchedulerKind::Backfill ? "sched/backfill" : "sched/builtin"},
        {"SlurmctldHost[0]", c.controlMachine},
    };
    if (c.defMemPerNode) {
        keys.emplace_back("DefMemPerNode", std::to_string(*c.defMemPerNode));
    }
    std::sort(keys.begin(), keys.end(), [](const auto &a, const auto &b) {
        return base::toUpper(a.first) < base::toUpper(b.first);
    });
    Json list = Json::array();
    for (auto &[key, value] : keys) {
        Json entry = Json::object();
        entry.set("key", key);
        entry.set("value", value);
        list.push(std::move(entry));
    }
    Json reply = success();
    reply.set("config", std::move(list));
    reply.set("now", now);
    return reply;
}

Json Controller::testOnly(Job job, Seconds now) const
{
    // A job that submits (EnforcePartLimits=NO) but could never start there: Slurm's will-run
    // test says so, where a submission would wait.
    const sched::JobShape shape = sched::shapeOf(job.spec, m_config);
    const sched::PartitionConfig *part = m_config.partition(job.spec.partition);
    if (part && shape.nodes > static_cast<int>(part->nodes.size())) {
        return failure("Requested node configuration is not available");
    }
    sched::SchedulerInput input = schedulerInput(now);
    const sched::JobLookup lookup = makeLookup();
    input.lookup = &lookup;
    if (!job.arrayPending.empty()) {
        job.arrayJobId = job.id.value;
    }
    input.pending.push_back(&job);
    const sched::SchedulePlan plan = m_scheduler.run(input);
    // The reply is the tested copy, a pending job, as the job object writes it: its CPUs, and
    // when and where it would start (now, on the nodes it would get; or its planned start, nodes
    // and the reason it waits).
    job.allocCpus = shape.cpusOnNode.empty()
        ? shape.cpusPerNode * shape.nodes
        : std::accumulate(shape.cpusOnNode.begin(), shape.cpusOnNode.end(), 0);
    job.plannedStart = 0;
    const auto start = std::find_if(
        plan.starts.begin(), plan.starts.end(), [&job](const auto &s) { return s.job == job.id; });
    const auto wait = std::find_if(
        plan.waits.begin(), plan.waits.end(), [&job](const auto &w) { return w.job == job.id; });
    if (start != plan.starts.end()) {
        job.plannedStart = now;
        job.nodeList = start->nodes;
    } else if (wait != plan.waits.end()) {
        job.plannedStart = wait->plannedStart.value_or(0);
        job.nodeList = wait->nodes;
        job.reason = wait->reason;
    }
    Json reply = record::jobToJson(job);
    reply.set("ok", true);
    return reply;
}

} // namespace mc::ctl
