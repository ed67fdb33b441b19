// srun and salloc on the controller's side: job steps of running jobs (step_create, step_end,
// steps for sstat) and the end of interactive allocations (alloc_release, time limits).
// The steps themselves run on the nodes, started by srun through the node daemons; the
// controller numbers them, checks them against the allocation and keeps their accounting.

#include "mc/ctl/controller.h"
#include "mc/record/job_codec.h"
#include "mc/record/job_object.h"
#include "mc/record/step.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "replies.h"

#include <algorithm>
#include <cctype>
#include <csignal>
#include <numeric>
#include <string>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobId;
using sched::JobState;

namespace {

// A step's tasks over its nodes as Slurm lays them out: block distribution when every node
// holds its share, else one task on each node and the rest filling them in order up to what
// each holds (`cpus`: the job's CPUs on each step node). Empty when they do not fit.
std::vector<int> stepTaskCounts(int ntasks, const std::vector<int> &cpus, int cpusPerTask)
{
    std::vector<int> counts = sched::blockTaskCounts(ntasks, static_cast<int>(cpus.size()));
    bool fits = true;
    for (std::size_t k = 0; k < counts.size(); ++k) {
        fits = fits && counts[k] * cpusPerTask <= cpus[k];
    }
    if (fits || static_cast<int>(cpus.size()) > ntasks) {
        return fits ? counts : std::vector<int>{};
    }
    int rest = ntasks - static_cast<int>(cpus.size());
    for (std::size_t k = 0; k < counts.size(); ++k) {
        counts[k] = 1;
        const int more = std::clamp(cpus[k] / cpusPerTask - 1, 0, rest);
        counts[k] += more;
        rest -= more;
    }
    return rest == 0 ? counts : std::vector<int>{};
}

inline constexpr int kDuplicateStepId = 2110; // ESLURM_DUPLICATE_STEP_ID

// The interactive step's id in the step maps (the int of record::kInteractiveStep).
constexpr int kInteractive = static_cast<int>(record::kInteractiveStep);

// Slurm's order of a job's steps: by step id as its accounting stores it (a signed 32-bit
// column), so interactive (-6), batch (-5), extern (-4), then 0, 1, 2...
long stepOrder(const std::string &step)
{
    if (step == "interactive") {
        return kInteractive;
    }
    if (step == "batch") {
        return -5;
    }
    if (step == "extern") {
        return -4;
    }
    return std::isdigit(static_cast<unsigned char>(step.empty() ? 'x' : step[0])) ? std::stol(step)
                                                                                  : -3;
}

} // namespace

std::map<int, RunningStep> Controller::storedRunningSteps(JobId job)
{
    std::map<int, RunningStep> running;
    for (const auto &s : m_store.steps(job)) {
        const bool interactive = s.step == "interactive";
        if (s.state == JobState::Running && !s.step.empty()
            && (interactive || std::isdigit(static_cast<unsigned char>(s.step[0])))) {
            RunningStep step;
            step.id = interactive ? kInteractive : std::stoi(s.step);
            step.name = s.name;
            step.nodes = s.nodes;
            step.ntasks = std::max(1, s.ntasks);
            step.cpus = s.cpus;
            step.start = s.startTime;
            running[step.id] = std::move(step);
        }
    }
    return running;
}

// The record of a running step that ends now in `state`.
acct::StepRecord Controller::endedStep(
    JobId job, int stepId, const RunningStep &step, JobState state, Seconds now)
{
    acct::StepRecord record;
    record.job = job;
    record.step = record::stepIdText(stepId);
    record.state = state;
    record.startTime = step.start;
    record.endTime = now;
    record.nodes = step.nodes;
    record.cpus = step.cpus;
    record.ntasks = step.ntasks;
    return record;
}

void Controller::endRunningSteps(const Job &job, Seconds now)
{
    std::map<int, RunningStep> running;
    if (auto steps = m_nodes.steps().find(job.id.value); steps != m_nodes.steps().end()) {
        running = std::move(steps->second);
        m_nodes.steps().erase(steps);
    }
    // Steps started before a controller restart are known from their stored records only.
    running.merge(storedRunningSteps(job.id));
    for (const auto &[stepId, step] : running) {
        acct::StepRecord record = endedStep(job.id, stepId, step, JobState::Cancelled, now);
        record.name = step.name;
        record.exit.signal = SIGTERM;
        saveStep(record);
    }
}

std::vector<acct::StepRecord> Controller::accountedSteps(
    const Job &job, std::vector<acct::StepRecord> stored) const
{
    const bool running = job.startTime > 0
        && (job.state == JobState::Running || job.state == JobState::Completing
            || job.state == JobState::Suspended);
    if (running) {
        // A requeued job runs again under its id: Slurm lists the current run's steps.
        std::erase_if(
            stored, [&job](const acct::StepRecord &s) { return s.startTime < job.startTime; });
        auto has = [&stored](std::string_view id) {
            return std::any_of(stored.begin(), stored.end(),
                [id](const acct::StepRecord &s) { return s.step == id; });
        };
        const JobState state
            = job.state == JobState::Suspended ? JobState::Suspended : JobState::Running;
        auto addRunning = [&](const char *id, std::vector<std::string> nodes, int cpus) {
            acct::StepRecord step;
            step.job = job.id;
            step.step = id;
            step.name = id;
            step.state = state;
            step.startTime = job.startTime;
            step.nodes = std::move(nodes);
            step.cpus = cpus;
            stored.push_back(std::move(step));
        };
        if (!job.spec.interactive && !job.batchHost.empty() && !has("batch")) {
            addRunning("batch", {job.batchHost}, job.cpusOnNode(0));
        }
        if (m_externSteps && !has("extern")) {
            addRunning("extern", job.nodeList, job.allocCpus);
        }
    }
    for (auto &s : stored) {
        if (s.ntasks == 0 && (s.step == "batch" || s.step == "extern")) {
            s.ntasks = s.step == "batch" ? 1 : static_cast<int>(s.nodes.size()); // one per node
        }
    }
    std::stable_sort(
        stored.begin(), stored.end(), [](const acct::StepRecord &a, const acct::StepRecord &b) {
            return stepOrder(a.step) < stepOrder(b.step);
        });
    return stored;
}

// A step that ends while its job is being cancelled (scancel) ends CANCELLED, as in Slurm.
bool Controller::jobCancelled(JobId id) const
{
    auto it = m_jobs.find(id);
    return it != m_jobs.end()
        && (it->second.state == JobState::Completing || it->second.state == JobState::Cancelled);
}

Json Controller::stepUsage(const Json &request)
{
    // srun passes on its nodes' samples about once a second (sstat reads them).
    auto steps = m_nodes.steps().find(static_cast<std::uint32_t>(request["job_id"].toInt()));
    int stepId = static_cast<int>(request["step_id"].toInt(-1));
    if (steps != m_nodes.steps().end() && steps->second.contains(stepId)) {
        steps->second[stepId].usage = record::usageFromJson(request["usage"]);
    }
    Json reply = Json::object();
    reply.set("ok", true);
    return reply;
}

Json Controller::stepCreate(const Json &request, Seconds now)
{
    const record::StepSpec spec = record::stepSpecFromJson(request);
    const std::uint32_t id = spec.job.value;
    auto it = m_jobs.find(JobId{id});
    if (it == m_jobs.end()) {
        return failure("Invalid job id specified", kInvalidJobId);
    }
    Job &job = it->second;
    if (spec.user != job.spec.user && spec.user != "root") {
        return failure("Access/permission denied", kAccessDenied);
    }
    if (job.state != JobState::Running) {
        return failure(job.isPending() ? "Job is pending execution"
                                       : "Job/step already completing or completed",
            job.isPending() ? 2014 : kAlreadyDone);
    }
    // A step starts: it is kept (and saved later if the store refuses it now), and srun hears
    // its id, nodes and tasks, with the job.
    auto started = [&](const RunningStep &step, const std::vector<int> &tasksPerNode) {
        noteActive(job.id, now); // a new step is a sign of life of the allocation (slurmctld)
        m_nodes.steps()[id][step.id] = step;
        acct::StepRecord record;
        record.job = job.id;
        record.step = record::stepIdText(step.id);
        record.name = step.name;
        record.state = JobState::Running;
        record.startTime = step.start;
        record.nodes = step.nodes;
        record.cpus = step.cpus;
        record.ntasks = step.ntasks;
        saveStep(record);
        record::StepGrant grant;
        grant.stepId = step.id == kInteractive ? static_cast<std::int64_t>(record::kInteractiveStep)
                                               : static_cast<std::int64_t>(step.id);
        grant.nodes = step.nodes;
        grant.tasksPerNode = tasksPerNode;
        grant.ntasks = step.ntasks;
        grant.job = job;
        grant.clusterName = m_config.clusterName;
        Json reply = record::stepGrantToJson(grant);
        reply.set("ok", true);
        reply.set("now", now);
        return reply;
    };
    if (spec.interactive) {
        // salloc's shell (srun --interactive), as Slurm's _build_interactive_step(): one per
        // job, one task on its first node, holding the job's CPUs there, started with the job;
        // it takes no number, so the user's own steps are numbered from 0.
        auto running = m_nodes.steps().find(id);
        if ((running != m_nodes.steps().end() && running->second.contains(kInteractive))
            || storedRunningSteps(job.id).contains(kInteractive)) {
            return failure("Duplicate job step id", kDuplicateStepId);
        }
        return started(RunningStep{kInteractive, "interactive", {job.nodeList.front()}, 1,
                           job.cpusOnNode(0), job.startTime, {}},
            {1});
    }
    // The step's candidate nodes: -w names some of the job's nodes (they come first, as
    // Slurm puts them), -x removes some.
    std::vector<std::string> candidates = spec.nodeList;
    for (const auto &name : candidates) {
        if (std::find(job.nodeList.begin(), job.nodeList.end(), name) == job.nodeList.end()) {
            return failure("Requested node configuration is not available", 2010);
        }
    }
    const std::vector<std::string> &excluded = spec.excludeNodes;
    for (const auto &name : job.nodeList) {
        if (std::find(candidates.begin(), candidates.end(), name) == candidates.end()
            && std::find(excluded.begin(), excluded.end(), name) == excluded.end()) {
            candidates.push_back(name);
        }
    }
    const int required = static_cast<int>(spec.nodeList.size());
    const int jobNodes = static_cast<int>(candidates.size());
    int ntasks = spec.ntasks;
    int nodes = std::max(spec.nodes, required);
    const int ntasksPerNode = spec.ntasksPerNode;
    int cpusPerTask = std::max(1, spec.cpusPerTask);
    if (ntasks <= 0) {
        // Slurm: a step without -n runs the job's tasks (SLURM_NTASKS) when the job was given
        // a count, else one task per node (of -N, or of the whole allocation).
        if (job.spec.ntasksGiven || job.spec.ntasksPerNode > 0) {
            ntasks = std::max(job.spec.ntasks, nodes > 0 ? nodes : 1);
        } else {
            ntasks = nodes > 0 ? nodes : jobNodes;
        }
        if (nodes <= 0) {
            nodes = std::min(jobNodes, ntasks);
        }
    }
    if (nodes <= 0 && ntasksPerNode > 0) {
        nodes = std::min(jobNodes, (ntasks + ntasksPerNode - 1) / ntasksPerNode);
    }
    if (nodes <= 0) {
        nodes = std::min(jobNodes, ntasks);
    }
    if (nodes > jobNodes || nodes <= 0) {
        return failure("Requested node configuration is not available", 2010);
    }
    if (ntasks < nodes) {
        ntasks = nodes;
    }
    std::vector<std::string> stepNodes(candidates.begin(), candidates.begin() + nodes);
    auto rank = [&job](const std::string &name) {
        return std::find(job.nodeList.begin(), job.nodeList.end(), name) - job.nodeList.begin();
    };
    std::sort(stepNodes.begin(), stepNodes.end(),
        [&rank](const std::string &a, const std::string &b) { return rank(a) < rank(b); });
    std::vector<int> nodeCpus;
    for (const auto &name : stepNodes) {
        nodeCpus.push_back(job.cpusOnNode(static_cast<std::size_t>(rank(name))));
    }
    const std::vector<int> tasksPerNode = stepTaskCounts(ntasks, nodeCpus, cpusPerTask);
    if (tasksPerNode.empty() || (ntasksPerNode > 0 && tasksPerNode.front() > ntasksPerNode)) {
        return failure("More processors requested than permitted", kTooManyProcessors);
    }

    if (!m_nodes.nextStep().contains(id)) {
        // After a controller restart: number on from the steps already recorded.
        int next = 0;
        acct::AcctQuery query;
        query.jobIds = {id};
        std::string error;
        for (const auto &row : m_store.query(query, error)) {
            for (const auto &s : row.steps) {
                if (!s.step.empty() && std::isdigit(static_cast<unsigned char>(s.step[0]))) {
                    next = std::max(next, std::stoi(s.step) + 1);
                }
            }
        }
        m_nodes.nextStep()[id] = next;
    }
    RunningStep step;
    step.id = m_nodes.nextStep()[id]++;
    step.name = spec.name;
    step.nodes = std::move(stepNodes);
    step.ntasks = ntasks;
    // Without --exact or -c, a step holds all of the job's CPUs on its nodes (sacct's AllocCPUS
    // of `srun -n1` in `salloc -N2 -n4` is 3, node01's share), as in Slurm 22.05.
    step.cpus
        = spec.exact ? ntasks * cpusPerTask : std::accumulate(nodeCpus.begin(), nodeCpus.end(), 0);
    step.start = now;
    return started(step, tasksPerNode);
}

Json Controller::stepEnd(const Json &request, Seconds now)
{
    return stepEnd(record::stepEndFromJson(request), now);
}

Json Controller::stepEnd(const record::StepEnd &end, Seconds now)
{
    const std::uint32_t id = end.job.value;
    const int stepId = static_cast<int>(end.stepId); // the interactive step's is -6 here
    auto steps = m_nodes.steps().find(id);
    RunningStep step;
    if (steps != m_nodes.steps().end() && steps->second.contains(stepId)) {
        step = steps->second[stepId];
        steps->second.erase(stepId);
    } else if (auto stored = storedRunningSteps(JobId{id}); stored.contains(stepId)) {
        step = stored[stepId]; // started before this controller did (a restart): its record
    } else {
        return failure("Invalid job id specified", kInvalidJobId);
    }
    acct::StepRecord record;
    record.job = JobId{id};
    record.step = record::stepIdText(stepId);
    record.name = step.name;
    record.exit = end.exit;
    if (end.timeout) {
        record.state = JobState::Timeout;
    } else if (end.cancelled || jobCancelled(JobId{id})
        || m_nodes.cancelledSteps().erase({id, stepId}) > 0) {
        record.state = JobState::Cancelled;
        if (jobCancelled(JobId{id})) {
            record.exit = {0, SIGTERM}; // Slurm ends a cancelled job's steps with SIGTERM
        }
    } else if (end.oom) {
        record.state = JobState::OutOfMemory;
    } else if (record.exit.code != 0 || record.exit.signal != 0) {
        record.state = JobState::Failed;
    } else {
        record.state = JobState::Completed;
    }
    record.startTime = step.start;
    record.endTime = now;
    record.nodes = step.nodes;
    record.cpus = step.cpus;
    record.ntasks = step.ntasks;
    record.totalCpuMs = end.usage.totalCpuMs;
    record.maxRssKb = end.usage.maxRssKb;
    record.aveRssKb = end.usage.aveRssKb;
    saveStep(record); // kept and saved later if the store refuses it now
    Json reply = Json::object();
    reply.set("ok", true);
    return reply;
}

Json Controller::stepSignal(const Json &request, Seconds now)
{
    // The job named: its id, or a started task of an array ("12_3"). A task still pending in
    // its array's record has no steps: like a pending job, nothing to signal.
    const Json &named = request["job"];
    const auto spec = sched::parseJobIdSpec(
        named.isString() ? named.toString() : std::to_string(named.toInt()));
    if (!spec || spec->tasks.size() > 1) {
        return failure("Invalid job id specified", kInvalidJobId);
    }
    Job *job = nullptr;
    bool pendingTask = false;
    for (auto it = m_jobs.lower_bound(JobId{spec->job}); it != m_jobs.end(); ++it) {
        Job &candidate = it->second;
        if (spec->tasks.empty()) {
            job = candidate.id.value == spec->job ? &candidate : nullptr;
            break;
        }
        if (candidate.arrayJobId != spec->job) {
            continue;
        }
        const std::uint32_t task = spec->tasks.front();
        if (candidate.arrayTaskId == task && candidate.arrayPending.empty()) {
            job = &candidate;
            break;
        }
        pendingTask = pendingTask
            || std::find(candidate.arrayPending.begin(), candidate.arrayPending.end(), task)
                != candidate.arrayPending.end();
    }
    if (!job && pendingTask) {
        return success();
    }
    if (!job || sched::isFinished(job->state)) {
        return failure("Invalid job id specified", kInvalidJobId);
    }
    // From here the job is known: the reply names it (`job_id`), as Slurm's scancel then
    // words its errors by the job alone.
    auto jobFailure = [job](std::string_view message, int slurmErrno) {
        Json reply = failure(message, slurmErrno);
        reply.set("job_id", static_cast<std::int64_t>(job->id.value));
        return reply;
    };
    const std::string user = request["user"].toString();
    if (user != job->spec.user && user != "root") {
        return jobFailure("Invalid user id", kInvalidUser); // Slurm's words for a step's job
    }
    if (job->isPending()) {
        return success(); // Slurm answers a pending job's step with success and does nothing
    }
    const int stepId = static_cast<int>(request["step_id"].toInt(-1));
    auto steps = m_nodes.steps().find(job->id.value);
    if (steps == m_nodes.steps().end() || !steps->second.contains(stepId)) {
        return jobFailure("Invalid job id specified", kInvalidJobId);
    }
    const RunningStep &step = steps->second.at(stepId);
    const int signal = static_cast<int>(request["signal"].toInt(SIGKILL));
    if (signal == SIGKILL) {
        // Slurm kills the step's tasks at once (no SIGTERM first) and records it CANCELLED.
        m_nodes.cancelledSteps().insert({job->id.value, stepId});
    }
    Json order = Json::object();
    order.set("op", "signal");
    order.set("job_id", static_cast<std::int64_t>(job->id.value));
    order.set("step_id", stepId);
    order.set("signal", signal);
    order.set("cancel", signal == SIGKILL);
    order.set("time", now); // the notice's "CANCELLED AT", on the cluster clock
    order.set("kill_wait", std::int64_t{m_config.killWait}); // srun's "Waiting up to" words
    for (const auto &node : step.nodes) {
        m_gateway.send(node, order);
    }
    return success();
}

Json Controller::listSteps(const Json &request, Seconds now) const
{
    const Json &ids = request["job_ids"];
    Json list = Json::array();
    auto add = [&list](const Job &job, const std::string &stepId, const RunningStep &step) {
        record::StepObject s;
        s.jobId = job.id.value;
        s.stepId = stepId;
        s.user = job.spec.user; // the job's, as squeue -s and scontrol show step name it
        s.uid = job.spec.uid;
        s.partition = job.spec.partition;
        s.name = step.name;
        s.state = "RUNNING";
        s.startTime = step.start;
        s.nodes = step.nodes;
        s.ntasks = step.ntasks;
        s.numCpus = step.cpus;
        s.totalCpuMs = step.usage.totalCpuMs;
        s.maxRssKb = step.usage.maxRssKb;
        s.aveRssKb = step.usage.aveRssKb;
        list.push(record::stepObjectToJson(s));
    };
    for (const auto &[id, job] : m_jobs) {
        bool wanted = ids.size() == 0;
        for (const auto &item : ids.items()) {
            wanted = wanted || item.toInt(-1) == static_cast<std::int64_t>(id.value);
        }
        if (!wanted || job.state != JobState::Running) {
            continue;
        }
        // Slurm's order: the batch step, the extern step, then the numbered ones.
        if (!job.spec.interactive) {
            RunningStep batch{0, "batch", {job.batchHost}, 1, job.cpusOnNode(0), job.startTime, {}};
            if (auto usage = m_nodes.batchUsage().find(id.value);
                usage != m_nodes.batchUsage().end()) {
                batch.usage = usage->second;
            }
            add(job, "batch", batch);
        }
        if (m_externSteps) {
            add(job, "extern",
                RunningStep{0, "extern", job.nodeList, static_cast<int>(job.nodeList.size()),
                    job.allocCpus, job.startTime, {}});
        }
        if (auto steps = m_nodes.steps().find(id.value); steps != m_nodes.steps().end()) {
            for (const auto &[stepId, step] : steps->second) {
                add(job, record::stepIdText(stepId), step); // interactive (-6) first
            }
        }
    }
    Json reply = Json::object();
    reply.set("ok", true);
    reply.set("now", now);
    reply.set("steps", std::move(list));
    return reply;
}

Json Controller::allocationRelease(const Json &request, Seconds now)
{
    const record::AllocRelease release = record::allocReleaseFromJson(request);
    if (release.stepEnd) {
        // srun's own allocation: its step's end comes with the release (one round trip).
        record::StepEnd end = *release.stepEnd;
        end.job = release.job;
        stepEnd(end, now);
    }
    auto it = m_jobs.find(release.job);
    if (it == m_jobs.end()) {
        return failure("Invalid job id specified", kInvalidJobId);
    }
    Job &job = it->second;
    if (!job.spec.interactive) {
        return failure("Access/permission denied", kAccessDenied);
    }
    if (sched::isFinished(job.state)) {
        Json reply = Json::object();
        reply.set("ok", true); // already ended (time limit, scancel): nothing more to do
        reply.set("state", sched::longName(job.state));
        return reply;
    }
    if (job.isPending()) {
        // salloc/srun gave up waiting (Ctrl-C, --immediate): the request is withdrawn.
        job.state = JobState::Cancelled;
        job.reason = sched::Reason::None;
        job.endTime = now;
        persist(job);
        emitJob(job, now);
        Json reply = Json::object();
        reply.set("ok", true);
        return reply;
    }
    sched::ExitStatus exit = release.exit;
    JobState state = JobState::Completed;
    if (release.lost || job.state == JobState::Completing) {
        state = JobState::Cancelled; // its salloc/srun died, or scancel
        exit = {};
    } else if (release.stepEnd && release.stepEnd->oom) {
        state = JobState::OutOfMemory; // srun's own allocation ends with its step: 0:125
    } else if (exit.code != 0 || exit.signal != 0) {
        state = JobState::Failed;
    }
    endAllocation(job, state, exit, now);
    Json reply = Json::object();
    reply.set("ok", true);
    reply.set("state", sched::longName(state));
    return reply;
}

void Controller::endAllocation(Job &job, JobState state, sched::ExitStatus exit, Seconds now,
    std::optional<sched::Reason> reason)
{
    job.state = state;
    job.reason = reason              ? *reason
        : state == JobState::Failed  ? sched::Reason::NonZeroExitCode
        : state == JobState::Timeout ? sched::Reason::TimeLimit
                                     : sched::Reason::None;
    job.exit = exit;
    job.endTime = now;
    // Steps still running end with their job.
    if (auto steps = m_nodes.steps().find(job.id.value); steps != m_nodes.steps().end()) {
        for (const auto &[stepId, step] : steps->second) {
            const acct::StepRecord record = endedStep(job.id, stepId, step,
                state == JobState::Timeout ? JobState::Cancelled : state, now);
            saveStep(record);
        }
    }
    m_nodes.forgetSteps(job.id.value);
    // Whatever still runs of its steps on the nodes goes with it.
    Json order = Json::object();
    order.set("op", "signal");
    order.set("job_id", static_cast<std::int64_t>(job.id.value));
    order.set("signal", 9);
    order.set("cancel", true);
    for (const auto &node : job.nodeList) {
        m_gateway.send(node, order);
    }
    if (m_externSteps) {
        acct::StepRecord external;
        external.job = job.id;
        external.step = "extern";
        external.state = JobState::Completed;
        external.startTime = job.startTime;
        external.endTime = now;
        external.nodes = job.nodeList;
        external.cpus = job.allocCpus;
        saveStep(external);
    }
    release(job);
    persist(job);
    emitJob(job, now);
}

} // namespace mc::ctl
