// sacct --json: Slurm 22.05's openapi/dbv0.0.38 job records (plugins/openapi/dbv0.0.38/parse.c,
// parse_job[] and parse_job_step[]), one per job sacct selects, with its steps.

#include "../shared/json_commands.h"
#include "../shared/json_out.h"
#include "../shared/text.h"
#include "mc/record/job_object.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "mc/sched/job_state.h"
#include "sacct_select.h"
#include "sacct_settings.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace mc::cmd {
namespace {

using proto::Json;
using record::JobObject;
using record::StepObject;
using sacct::JobSelector;
using sacct::Settings;
using sched::JobState;

// Slurm's {"status", "return_code"[, "signal"]} of an end by `signal` (0: a normal exit). As
// 22.05 writes it, every normal exit is "SUCCESS" with return code 0, whatever the exit code
// (WIFEXITED is tested before the code).
Json exitStatus(std::int64_t signal)
{
    Json e = Json::object();
    if (signal == 0) {
        e.add("status", "SUCCESS");
        e.add("return_code", 0);
        return e;
    }
    e.add("status", "SIGNALED");
    e.add("return_code", Json());
    Json sig = Json::object();
    sig.add("signal_id", signal);
    const char *name = ::strsignal(static_cast<int>(signal));
    sig.add("name", name ? std::string(name) : std::to_string(signal));
    e.add("signal", std::move(sig));
    return e;
}

Json seconds(std::int64_t value, std::int64_t micro)
{
    Json t = Json::object();
    t.add("seconds", value);
    t.add("microseconds", micro);
    return t;
}

Json tres(std::string_view type, Json name, std::int64_t id, Json count)
{
    Json t = Json::object();
    t.add("type", type);
    t.add("name", std::move(name));
    t.add("id", id);
    t.add("count", std::move(count));
    return t;
}

// cpu, mem, [energy], node, billing[, gres/gpu]: a job's TRES, mem in MiB.
Json jobTres(const JobObject &job, bool withEnergy)
{
    const std::int64_t cpus = job.numCpus.value_or(0);
    const std::int64_t nodes = job.numNodes.value_or(1);
    const std::int64_t memory = job.memPerCpu ? job.minMemory * cpus : job.minMemory * nodes;
    Json list = Json::array();
    list.push(tres("cpu", Json(), 1, cpus));
    list.push(tres("mem", Json(), 2, memory));
    if (withEnergy) {
        list.push(tres("energy", Json(), 3, Json()));
    }
    list.push(tres("node", Json(), 4, nodes));
    list.push(tres("billing", Json(), 5, cpus));
    if (const std::int64_t gpus = job.gpusReq; gpus > 0) {
        list.push(tres("gres", "gpu", 1001, gpus));
    }
    return list;
}

// The pending tasks of an array record as Slurm's hex bitmap ("2-4" -> "0x1C").
Json taskBitmap(const std::string &taskString)
{
    std::vector<bool> bits;
    if (const auto spec = sched::parseArraySpec(taskString)) {
        for (const std::uint32_t id : spec->taskIds) {
            if (bits.size() <= id) {
                bits.resize(id + 1);
            }
            bits[id] = true;
        }
    }
    if (bits.empty()) {
        return Json();
    }
    std::string hex;
    for (std::size_t nibble = (bits.size() + 3) / 4; nibble-- > 0;) {
        int value = 0;
        for (int bit = 3; bit >= 0; --bit) {
            const std::size_t index = nibble * 4 + static_cast<std::size_t>(bit);
            value = value * 2 + (index < bits.size() && bits[index] ? 1 : 0);
        }
        hex += "0123456789ABCDEF"[value];
    }
    return Json("0x" + hex);
}

// One usage list of a step (tres/requested or tres/consumed, max/min/average/total); the
// max and min entries name the task and node that reached them.
Json usageList(const std::vector<std::pair<std::string, std::int64_t>> &values,
    const std::string &node, bool withPlace)
{
    static const std::map<std::string, std::int64_t> kIds{
        {"cpu", 1}, {"mem", 2}, {"energy", 3}, {"fs", 6}, {"vmem", 7}, {"pages", 8}};
    Json list = Json::array();
    for (const auto &[type, count] : values) {
        Json t = tres(type, type == "fs" ? Json("disk") : Json(), kIds.at(type), count);
        if (withPlace) {
            t.add("task", 0);
            t.add("node", node);
        }
        list.push(std::move(t));
    }
    return list;
}

Json stepRecord(const JobObject &job, const StepObject &step, std::int64_t now)
{
    const std::string &id = step.stepId; // "batch", "extern", "interactive", "0"
    const bool numbered = id != "batch" && id != "extern" && id != "interactive";
    const std::vector<std::string> &nodes = step.nodes;
    const std::string firstNode = nodes.empty() ? std::string() : nodes.front();
    const std::int64_t start = step.startTime;
    const std::int64_t end = step.endTime;
    const std::int64_t ntasks = step.ntasks.value_or(1);

    Json s = Json::object();
    Json nodeInfo = Json::object();
    if (!nodes.empty()) {
        nodeInfo.add("list", proto::stringList(nodes));
    }
    nodeInfo.add("count", static_cast<std::int64_t>(nodes.size()));
    nodeInfo.add("range", sched::compressHostlist(nodes));
    s.add("nodes", std::move(nodeInfo));

    Json requested = Json::object();
    Json consumed = Json::object();
    const char *kStats[] = {"max", "min", "average", "total"};
    for (const char *stat : kStats) {
        const bool place = std::strcmp(stat, "max") == 0 || std::strcmp(stat, "min") == 0;
        if (end == 0) { // running: no usage recorded yet
            requested.add(stat, Json::array());
            consumed.add(stat, Json::array());
            continue;
        }
        const std::int64_t maxRss = step.maxRssKb * 1024;
        const std::int64_t aveRss = step.aveRssKb * 1024;
        const std::int64_t rss = std::strcmp(stat, "average") == 0 && aveRss > 0 ? aveRss : maxRss;
        requested.add(stat,
            usageList({{"cpu", step.totalCpuMs}, {"mem", rss}, {"energy", 0}, {"fs", 0},
                          {"vmem", 0}, {"pages", 0}},
                firstNode, place));
        consumed.add(stat, usageList({{"energy", 0}, {"fs", 0}}, firstNode, place));
    }
    Json allocated = Json::array();
    const std::int64_t cpus = step.numCpus.value_or(job.numCpus.value_or(0));
    const std::int64_t jobMemory = job.memPerCpu ? job.minMemory * job.numCpus.value_or(0)
                                                 : job.minMemory * job.numNodes.value_or(1);
    allocated.push(tres("cpu", Json(), 1, cpus));
    allocated.push(tres("mem", Json(), 2, jobMemory));
    allocated.push(tres("node", Json(), 4, static_cast<std::int64_t>(nodes.size())));
    Json stepTres = Json::object();
    stepTres.add("requested", std::move(requested));
    stepTres.add("consumed", std::move(consumed));
    stepTres.add("allocated", std::move(allocated));
    s.add("tres", std::move(stepTres));

    const std::int64_t cpuMs = step.totalCpuMs;
    Json time = Json::object();
    time.add("elapsed", start == 0 ? 0 : (end > 0 ? end : now) - start);
    time.add("end", end);
    time.add("start", start);
    time.add("suspended", 0);
    time.add("system", seconds(0, 0));
    time.add("total", seconds(cpuMs / 1000, cpuMs % 1000 * 1000));
    time.add("user", seconds(cpuMs / 1000, cpuMs % 1000 * 1000));
    s.add("time", std::move(time));
    s.add("exit_code", exitStatus(step.exitSignal));
    Json tasks = Json::object();
    tasks.add("count", ntasks);
    s.add("tasks", std::move(tasks));
    s.add("pid", Json());
    Json frequency = Json::object();
    frequency.add("min", numbered ? Json() : Json(0));
    frequency.add("max", numbered ? Json() : Json(0));
    Json cpu = Json::object();
    cpu.add("requested_frequency", std::move(frequency));
    // srun leaves the governor unset (NO_VAL), whose every bit names a governor.
    cpu.add("governor",
        numbered ? proto::stringList(
            {"Conservative", "Performance", "PowerSave", "OnDemand", "UserSpace"})
                 : Json::array());
    s.add("CPU", std::move(cpu));
    s.add("kill_request_user", Json());
    s.add("state", step.state.value_or(""));
    Json statistics = Json::object();
    Json actual = Json::object();
    actual.add("actual_frequency", 0);
    statistics.add("CPU", std::move(actual));
    Json energy = Json::object();
    energy.add("consumed", 0);
    statistics.add("energy", std::move(energy));
    s.add("statistics", std::move(statistics));
    Json stepId = Json::object();
    stepId.add("job_id", job.jobId);
    Json het = Json::object();
    het.add("component", Json());
    stepId.add("het", std::move(het));
    if (numbered) {
        stepId.add("id", parseLeadingInteger(id));
    } else {
        stepId.add("id", id);
    }
    stepId.add("name", step.name.value_or(id));
    s.add("step", std::move(stepId));
    Json task = Json::object();
    task.add("distribution",
        !numbered ? "Unknown"
                  : (ntasks > static_cast<std::int64_t>(nodes.size()) ? "Block" : "Cyclic"));
    s.add("task", std::move(task));
    return s;
}

// interactive, batch, extern, then the srun steps by number, as Slurm stores them.
std::vector<const StepObject *> orderedSteps(const JobObject &job)
{
    std::vector<const StepObject *> steps;
    for (const auto &step : job.steps) {
        steps.push_back(&step);
    }
    auto rank = [](const StepObject *step) {
        const std::string &id = step->stepId;
        return id == "interactive" ? -3
            : id == "batch"        ? -2
            : id == "extern"       ? -1
                                   : parseLeadingInteger(id);
    };
    std::stable_sort(steps.begin(), steps.end(),
        [&](const StepObject *a, const StepObject *b) { return rank(a) < rank(b); });
    return steps;
}

// `onlyStep`: the step the last -j that selects the job names ("-j 12.batch"), if any.
Json jobRecord(const Context &ctx, const Settings &s, const JobObject &job,
    const std::optional<std::string> &onlyStep, const std::string &cluster,
    std::int64_t arrayThrottle, std::int64_t now)
{
    const std::string &state = job.state;
    const bool pending = state == "PENDING";
    const bool started = job.startTime > 0;
    const bool arrayRecord = job.arrayJobId > 0 && !job.arrayTaskId;
    const std::int64_t start = job.startTime;
    const std::int64_t end = job.endTime;
    const std::int64_t timeLimit = job.timeLimit.value_or(-1);
    const std::string &user = job.user;

    Json steps = Json::array();
    bool srunSteps = false;
    for (const StepObject *step : orderedSteps(job)) {
        const std::string &id = step->stepId;
        srunSteps = srunSteps || (id != "batch" && id != "extern");
        if (!s.allocations && (!onlyStep || *onlyStep == id)) {
            steps.push(stepRecord(job, *step, now));
        }
    }

    Json j = Json::object();
    j.add("account", job.account);
    Json comment = Json::object();
    comment.add("administrator", Json());
    comment.add("job", job.comment ? Json(*job.comment) : Json());
    comment.add("system", Json());
    j.add("comment", std::move(comment));
    j.add("allocation_nodes", started ? job.numNodes.value_or(1) : 0);
    Json array = Json::object();
    array.add("job_id", job.arrayJobId);
    Json running = Json::object();
    running.add("tasks", arrayThrottle);
    Json max = Json::object();
    max.add("running", std::move(running));
    Json limits = Json::object();
    limits.add("max", std::move(max));
    array.add("limits", std::move(limits));
    array.add("task", arrayRecord ? taskBitmap(job.arrayTaskStr) : Json());
    array.add("task_id", job.arrayTaskId ? Json(*job.arrayTaskId) : Json());
    j.add("array", std::move(array));
    Json association = Json::object();
    association.add("account", job.account);
    association.add("cluster", cluster);
    association.add("partition", Json());
    association.add("user", user);
    j.add("association", std::move(association));
    j.add("cluster", cluster);
    j.add("constraints", job.constraint);
    j.add("container", Json());
    j.add("derived_exit_code", exitStatus(0));
    const std::string &reason = job.reason;
    Json time = Json::object();
    time.add("elapsed", started ? (end > 0 ? end : now) - start : 0);
    if (pending
        && (reason == "Dependency" || reason == "DependencyNeverSatisfied"
            || reason.rfind("JobHeld", 0) == 0 || reason == "BeginTime")) {
        time.add("eligible", 0);
    } else if (pending && arrayRecord) {
        time.add("eligible", Json()); // a record whose tasks wait for the %N throttle
    } else {
        time.add("eligible", job.eligibleTime.value_or(0));
    }
    time.add("end", end);
    time.add("start", start);
    time.add("submission", job.submitTime);
    time.add("suspended", 0);
    time.add("system", seconds(0, 0));
    time.add("limit", timeLimit >= 0 ? Json((timeLimit + 59) / 60) : Json());
    time.add("total", seconds(0, 0));
    time.add("user", seconds(0, 0));
    j.add("time", std::move(time));
    j.add("exit_code", exitStatus(job.exitSignal));
    j.add("flags",
        started ? proto::stringList({"CLEAR_SCHEDULING", "STARTED_ON_SCHEDULE"}) : Json::array());
    j.add("group", groupName(ctx, user, job.gid.value_or(0)));
    Json het = Json::object();
    het.add("job_id", 0);
    het.add("job_offset", Json());
    j.add("het", std::move(het));
    j.add("job_id", job.jobId);
    j.add("name", job.name);
    Json mcs = Json::object();
    mcs.add("label", "");
    j.add("mcs", std::move(mcs));
    j.add("nodes", started ? sched::compressHostlist(job.nodes) : std::string("None assigned"));
    j.add("partition", job.partition);
    j.add("priority", job.priority);
    j.add("qos", job.qos.value_or(""));
    Json required = Json::object();
    required.add("CPUs", job.numCpus.value_or(0));
    required.add("memory", job.minMemory);
    j.add("required", std::move(required));
    Json killer;
    if (job.cancelledBy) {
        const auto who
            = ctx.lookupUser ? ctx.lookupUser(std::to_string(*job.cancelledBy)) : std::nullopt;
        killer = who ? Json(who->name) : Json();
    }
    j.add("kill_request_user", std::move(killer));
    Json reservation = Json::object();
    reservation.add("id", 0);
    reservation.add("name", 0); // 22.05 reads the name's pointer as a number: 0 without one
    j.add("reservation", std::move(reservation));
    Json stateObject = Json::object();
    stateObject.add("current", state);
    stateObject.add("reason", pending ? reason : std::string("None"));
    j.add("state", std::move(stateObject));
    j.add("steps", std::move(steps));
    Json jobTresObject = Json::object();
    jobTresObject.add("allocated", started ? jobTres(job, !srunSteps) : Json::array());
    jobTresObject.add("requested", jobTres(job, false));
    j.add("tres", std::move(jobTresObject));
    j.add("user", user);
    Json wckey = Json::object();
    wckey.add("wckey", "");
    wckey.add("flags", Json::array());
    j.add("wckey", std::move(wckey));
    j.add("working_directory", job.workDir);
    return j;
}

} // namespace

Outcome sacctJson(
    Context &ctx, const Settings &s, std::int64_t start, std::int64_t end, DataFormat format)
{
    Json request = Json::object();
    request.add("op", "acct");
    request.add("users", Json::array());
    Json ids = Json::array();
    for (const auto &job : s.jobs) {
        ids.push(job.id);
    }
    request.add("job_ids", std::move(ids));
    request.add("since", start);
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    const std::optional<std::string> cluster = reply ? clusterName(ctx) : std::nullopt;
    if (!reply || !(*reply)["ok"].toBool() || !cluster) {
        return Outcome{{},
            errorLine("sacct",
                "Problem talking to the database: "
                    + (reply && !(*reply)["ok"].toBool()
                            ? (*reply)["error"].toString()
                            : std::string("Unable to contact slurm controller (connect failure)"))),
            1};
    }
    const std::int64_t now = (*reply)["now"].toInt(ctx.now);
    std::vector<JobObject> jobs;
    for (const auto &job : (*reply)["jobs"].items()) {
        jobs.push_back(record::jobObjectFromJson(job));
    }
    std::map<std::int64_t, std::int64_t> throttles; // array id -> its %N
    for (const auto &job : jobs) {
        if (job.arrayJobId > 0 && !job.arrayTaskId) {
            const std::string &tasks = job.arrayTaskStr;
            const auto percent = tasks.find('%');
            throttles[job.arrayJobId] = percent == std::string::npos
                ? 0
                : parseLeadingInteger(std::string_view(tasks).substr(percent + 1));
        }
    }
    Json response = openapiResponse("openapi/dbv0.0.38", "Slurm OpenAPI DB v0.0.38");
    Json records = Json::array();
    for (const JobObject &job : jobs) {
        // The selection is the table's (sacct_select.h).
        if (!selected(s, job, false) || !inWindow(s, job, start, end)) {
            continue;
        }
        std::optional<std::string> onlyStep;
        for (const auto &selector : s.jobs) {
            if (selects(selector, job)) {
                onlyStep = selector.step;
            }
        }
        // Slurm's accounting keeps the %N on the array's own record only (its pending tasks,
        // then its last task), not on the tasks split from it.
        const std::int64_t arrayId = job.arrayJobId;
        const auto throttle = throttles.find(arrayId);
        std::int64_t maxTasks = 0;
        if (arrayId > 0 && arrayId == job.jobId) {
            maxTasks
                = job.arrayMaxTasks.value_or(throttle == throttles.end() ? 0 : throttle->second);
        }
        records.push(jobRecord(ctx, s, job, onlyStep, *cluster, maxTasks, now));
    }
    if (records.items().empty()) {
        Json error = Json::object();
        error.add("description", "Nothing found");
        error.add("error_number", 9003);
        error.add("error", "Nothing found with query");
        error.add("source", "slurmdb_jobs_get");
        response.mutableMember("errors")->push(std::move(error));
    }
    response.add("jobs", std::move(records));
    return Outcome{slurmDataText(response, format, EmptyStrings::Kept), {}, 0};
}

} // namespace mc::cmd
