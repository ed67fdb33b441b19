// squeue --json: Slurm 22.05's openapi/v0.0.38 job records (plugins/openapi/v0.0.38/jobs.c,
// dump_job_info()), one per job of the controller's `jobs` reply.

#include "../shared/json_commands.h"
#include "../shared/json_out.h"
#include "../shared/text.h"
#include "mc/record/job_object.h"
#include "mc/sched/hostlist.h"

#include <algorithm>
#include <map>

namespace mc::cmd {
namespace {

using proto::Json;
using record::JobObject;

bool isPending(const JobObject &job)
{
    return job.state == "PENDING";
}

bool isArrayRecord(const JobObject &job)
{
    return job.arrayJobId > 0 && !job.arrayTaskId;
}

// Reasons under which Slurm has not yet made a pending job eligible (eligible_time 0).
bool waitsBeforeEligible(const JobObject &job)
{
    static const std::vector<std::string> kReasons{
        "Dependency", "DependencyNeverSatisfied", "JobHeldUser", "JobHeldAdmin", "BeginTime"};
    const std::string &reason = job.reason;
    return isPending(job) && std::find(kReasons.begin(), kReasons.end(), reason) != kReasons.end();
}

// The "%N" of an array's task string ("2-4%1" -> 1); 0 without a throttle.
std::int64_t throttleOf(const std::string &taskString)
{
    const auto percent = taskString.find('%');
    return percent == std::string::npos
        ? 0
        : parseLeadingInteger(std::string_view(taskString).substr(percent + 1));
}

std::int64_t minutes(std::int64_t seconds)
{
    return (seconds + 59) / 60;
}

// Memory of the whole job in MiB, from the per-CPU or per-node request.
std::int64_t jobMemory(const JobObject &job)
{
    const std::int64_t perUnit = job.minMemory;
    return job.memPerCpu ? perUnit * job.numCpus.value_or(0) : perUnit * job.numNodes.value_or(1);
}

// "cpu=1,mem=500M,node=1,billing=1" (TRES ids in order; GPUs as gres/gpu last).
std::string tresString(const JobObject &job)
{
    const std::int64_t cpus = job.numCpus.value_or(0);
    std::string text = "cpu=" + std::to_string(cpus);
    if (const std::int64_t mem = jobMemory(job); mem > 0) {
        text += ",mem=" + tresMemory(mem);
    }
    text += ",node=" + std::to_string(job.numNodes.value_or(1));
    text += ",billing=" + std::to_string(cpus);
    if (const std::string &gres = job.gres; gres.rfind("gpu:", 0) == 0) {
        const std::int64_t perNode = parseLeadingInteger(std::string_view(gres).substr(4));
        text += ",gres/gpu=" + std::to_string(perNode * job.numNodes.value_or(1));
    }
    return text;
}

Json jobFlags(const JobObject &job)
{
    Json flags = Json::array();
    const std::string &state = job.state;
    if (job.cpusPerTask.value_or(1) > 1) {
        flags.push("JOB_CPUS_SET");
    }
    if (state == "RUNNING" || state == "SUSPENDED" || state == "COMPLETING") {
        flags.push("JOB_WAS_RUNNING");
    }
    if (!job.memPerCpu && job.minMemory > 0) {
        flags.push("JOB_MEM_SET"); // --mem given (without it the default is per CPU)
    }
    return flags;
}

// Slurm's job_resources: the allocated cores of each node. minicluster's nodes are defined by
// CPUs= alone, which Slurm reads as one core per socket, so each CPU is a socket here.
Json jobResources(const JobObject &job)
{
    const std::vector<std::string> &nodes = job.nodes;
    const std::int64_t cpus = job.numCpus.value_or(0);
    const std::int64_t perNode = nodes.empty()
        ? 0
        : std::max<std::int64_t>(1, cpus / static_cast<std::int64_t>(nodes.size()));
    const std::int64_t memory = job.memPerCpu ? job.minMemory * perNode : job.minMemory;
    Json resources = Json::object();
    resources.add("nodes", sched::compressHostlist(nodes));
    resources.add("allocated_cores", cpus);
    resources.add("allocated_hosts", static_cast<std::int64_t>(nodes.size()));
    Json allocated = Json::array();
    for (const auto &name : nodes) {
        Json sockets = Json::object();
        for (std::int64_t socket = 0; socket < perNode; ++socket) {
            Json cores = Json::object();
            cores.add("0", "allocated");
            Json entry = Json::object();
            entry.add("cores", std::move(cores));
            sockets.add(std::to_string(socket), std::move(entry));
        }
        Json node = Json::object();
        node.add("sockets", std::move(sockets));
        node.add("nodename", name);
        node.add("cpus_used", 0);
        node.add("memory_used", 0);
        node.add("memory_allocated", memory);
        allocated.push(std::move(node));
    }
    resources.add("allocated_nodes", std::move(allocated));
    return resources;
}

Json orNull(bool present, Json value)
{
    return present ? std::move(value) : Json();
}

Json jobRecord(const Context &ctx, const JobObject &job, const std::string &cluster,
    std::int64_t arrayThrottle, std::int64_t now)
{
    const bool pending = isPending(job);
    const bool allocated = !job.nodes.empty();
    const std::string &state = job.state;
    const bool running = state == "RUNNING" || state == "SUSPENDED" || state == "COMPLETING";
    const std::int64_t eligible = waitsBeforeEligible(job) || (pending && isArrayRecord(job))
        ? 0
        : job.eligibleTime.value_or(0);
    const std::int64_t timeLimit = job.timeLimit.value_or(-1);
    std::int64_t endTime = job.endTime;
    if (running && timeLimit >= 0) {
        endTime = job.startTime + timeLimit;
    }
    const std::string &gres = job.gres;
    const std::int64_t gpus = job.gpus;
    std::string command = job.command;
    if (command == "(null)") {
        command.clear();
    }

    Json j = Json::object();
    j.reserve(112);
    j.add("account", job.account);
    j.add("accrue_time", waitsBeforeEligible(job) ? 0 : job.eligibleTime.value_or(0));
    j.add("admin_comment", "");
    j.add("array_job_id", job.arrayJobId);
    j.add("array_task_id", orNull(job.arrayTaskId.has_value(), job.arrayTaskId.value_or(0)));
    j.add("array_max_tasks", arrayThrottle);
    j.add("array_task_string", job.arrayTaskStr);
    j.add("association_id", 0);
    j.add("batch_features", "");
    j.add("batch_flag", !job.interactive);
    j.add("batch_host", job.batchHost.value_or(""));
    j.add("flags", jobFlags(job));
    j.add("burst_buffer", "");
    j.add("burst_buffer_state", "");
    j.add("cluster", cluster);
    j.add("cluster_features", "");
    j.add("command", command);
    j.add("comment", job.comment.value_or(""));
    j.add("container", "");
    j.add("contiguous", false);
    j.add("core_spec", Json());
    j.add("thread_spec", Json());
    j.add("cores_per_socket", Json());
    j.add("billable_tres", orNull(!pending, static_cast<double>(job.numCpus.value_or(0))));
    j.add("cpus_per_task", Json()); // Slurm 22.05 tests cpu_freq_min here: null unless set
    j.add("cpu_frequency_minimum", Json());
    j.add("cpu_frequency_maximum", Json());
    j.add("cpu_frequency_governor", Json());
    j.add("cpus_per_tres", "");
    j.add("deadline", 0);
    j.add("delay_boot", 0);
    j.add("dependency", job.dependency);
    j.add("derived_exit_code", 0);
    j.add("eligible_time", eligible);
    j.add("end_time", endTime);
    j.add("excluded_nodes", sched::compressHostlist(job.excNodes));
    j.add("exit_code", job.exitCode * 256 + job.exitSignal);
    j.add("features", job.constraint);
    j.add("federation_origin", "");
    j.add("federation_siblings_active", "");
    j.add("federation_siblings_viable", "");
    Json gresDetail = Json::array();
    if (allocated && gpus > 0) {
        gresDetail.push("gpu:" + std::to_string(gpus)
            + "(IDX:" + (gpus == 1 ? std::string("0") : "0-" + std::to_string(gpus - 1)) + ")");
    }
    j.add("gres_detail", std::move(gresDetail));
    j.add("group_id", job.gid.value_or(0));
    j.add("group_name", groupName(ctx, job.user, job.gid.value_or(0)));
    j.add("job_id", job.jobId);
    if (allocated) {
        j.add("job_resources", jobResources(job));
    }
    j.add("job_state", state);
    j.add("last_sched_evaluation", pending ? now : job.startTime);
    j.add("licenses", "");
    j.add("max_cpus", 0);
    j.add("max_nodes", 0);
    j.add("mcs_label", "");
    j.add("memory_per_tres", "");
    j.add("name", job.name);
    j.add("nodes", sched::compressHostlist(job.nodes));
    j.add("nice", orNull(job.nice != 0, job.nice));
    j.add("tasks_per_core", Json());
    j.add("tasks_per_node", 0);
    j.add("tasks_per_socket", Json());
    j.add("tasks_per_board", 0);
    j.add("cpus", job.numCpus.value_or(0));
    j.add("node_count", job.numNodes.value_or(1));
    j.add("tasks", job.numTasks.value_or(1));
    j.add("het_job_id", 0);
    j.add("het_job_id_set", "");
    j.add("het_job_offset", 0);
    j.add("partition", job.partition);
    j.add("prefer", "");
    const bool perCpu = job.memPerCpu;
    const std::int64_t memory = job.minMemory;
    j.add("memory_per_node", orNull(!perCpu && memory > 0, memory));
    j.add("memory_per_cpu", orNull(perCpu && memory > 0, memory));
    j.add("minimum_cpus_per_node", job.cpusPerTask.value_or(1));
    j.add("minimum_tmp_disk_per_node", 0);
    j.add("preempt_time", 0);
    j.add("pre_sus_time", 0);
    j.add("priority", job.priority);
    j.add("profile", Json());
    j.add("qos", job.qos.value_or(""));
    j.add("reboot", false);
    j.add("required_nodes", sched::compressHostlist(job.reqNodes));
    j.add("requeue", true);
    j.add("resize_time", 0);
    j.add("restart_cnt", job.restarts);
    j.add("resv_name", "");
    j.add("shared", orNull(job.exclusive, "none"));
    j.add("show_flags", proto::stringList({"SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL"}));
    j.add("sockets_per_board", 0);
    j.add("sockets_per_node", Json());
    j.add("start_time", pending ? job.plannedStart : job.startTime);
    j.add("state_description", "");
    j.add("state_reason", job.reason);
    j.add("standard_error", job.stdErr);
    j.add("standard_input", job.stdIn);
    j.add("standard_output", job.stdOut);
    j.add("submit_time", job.submitTime);
    j.add("suspend_time", 0);
    j.add("system_comment", "");
    j.add("time_limit", orNull(timeLimit >= 0, minutes(timeLimit)));
    j.add("time_minimum", minutes(job.timeMin));
    j.add("threads_per_core", Json());
    j.add("tres_bind", "");
    j.add("tres_freq", "");
    j.add("tres_per_job", "");
    j.add("tres_per_node", gres.empty() ? std::string() : "gres:" + gres);
    j.add("tres_per_socket", "");
    j.add("tres_per_task", "");
    j.add("tres_req_str", tresString(job));
    j.add("tres_alloc_str", allocated ? tresString(job) : std::string());
    j.add("user_id", job.uid);
    j.add("user_name", job.user);
    j.add("wckey", "");
    j.add("current_working_directory", job.workDir);
    return j;
}

} // namespace

Outcome squeueJson(Context &ctx, DataFormat format)
{
    Json response = openapiResponse("openapi/v0.0.38", "Slurm OpenAPI v0.0.38");
    const std::optional<std::string> cluster = clusterName(ctx);
    Json request = Json::object();
    request.add("op", "jobs");
    auto reply = cluster ? ctx.controller(request) : std::nullopt;
    if (!reply || !(*reply)["ok"].toBool()) {
        Json error = Json::object();
        error.add("description", "Failed while looking for jobs");
        error.add("error_number", reply ? (*reply)["errno"].toInt(1) : 1001);
        error.add("error",
            reply ? (*reply)["error"].toString()
                  : "Unable to contact slurm controller (connect failure)");
        error.add("source", "slurm_load_jobs");
        response.mutableMember("errors")->push(std::move(error));
        response.add("jobs", Json::array());
        return Outcome{slurmDataText(response, format, EmptyStrings::AreNull), {}, 0};
    }
    const std::int64_t now = (*reply)["now"].toInt(ctx.now);
    std::vector<JobObject> jobs;
    for (const auto &job : (*reply)["jobs"].items()) {
        jobs.push_back(record::jobObjectFromJson(job));
    }
    std::map<std::int64_t, std::int64_t> throttles; // array id -> its %N
    for (const auto &job : jobs) {
        if (isArrayRecord(job)) {
            throttles[job.arrayJobId] = throttleOf(job.arrayTaskStr);
        }
    }
    Json records = Json::array();
    records.reserve(jobs.size());
    for (const auto &job : jobs) {
        // Every task keeps its array's %N, also once none waits (a controller without
        // `array_max_tasks` gives it only on the array record).
        const auto throttle = throttles.find(job.arrayJobId);
        const std::int64_t maxTasks
            = job.arrayMaxTasks.value_or(throttle == throttles.end() ? 0 : throttle->second);
        records.push(jobRecord(ctx, job, *cluster, maxTasks, now));
    }
    response.add("jobs", std::move(records));
    return Outcome{slurmDataText(response, format, EmptyStrings::AreNull), {}, 0};
}

} // namespace mc::cmd
