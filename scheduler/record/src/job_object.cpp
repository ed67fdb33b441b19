#include "mc/record/job_object.h"

namespace mc::record {

using proto::Json;

namespace {

std::optional<std::int64_t> optionalInt(const Json &value)
{
    return value.isNumber() ? std::optional(value.toInt()) : std::nullopt;
}

std::optional<std::string> optionalString(const Json &value)
{
    return value.isString() ? std::optional(value.toString()) : std::nullopt;
}

template <typename Int> std::vector<Int> intList(const Json &value)
{
    std::vector<Int> out;
    for (const Json &item : value.items()) {
        out.push_back(static_cast<Int>(item.toInt()));
    }
    return out;
}

// An object's members looked up from where the last one was found: the decoder asks for them
// in the order jobToJson() writes them, so each is found in a step or two instead of a scan
// from the first member (a job has about 65). Any order still finds every member.
class MemberCursor {
public:
    explicit MemberCursor(const Json &object)
        : m_members(object.members())
    { }

    const Json &operator[](std::string_view key)
    {
        const std::size_t count = m_members.size();
        for (std::size_t step = 0; step < count; ++step) {
            const std::size_t at = (m_next + step) % count;
            if (m_members[at].first == key) {
                m_next = at + 1;
                return m_members[at].second;
            }
        }
        return kAbsent;
    }

private:
    static inline const Json kAbsent;
    const Json::Object &m_members;
    std::size_t m_next = 0;
};

} // namespace

// The members in kJobKeys' order (jobToJson()'s), then the others.
JobObject jobObjectFromJson(const Json &json)
{
    MemberCursor j(json);
    JobObject o;
    o.jobId = j["job_id"].toInt();
    o.name = j["name"].toString();
    o.user = j["user"].toString();
    o.uid = j["uid"].toInt();
    o.gid = optionalInt(j["gid"]);
    o.account = j["account"].toString();
    o.partition = j["partition"].toString();
    o.qos = optionalString(j["qos"]);
    o.state = j["state"].toString();
    o.stateShort = j["state_short"].toString();
    o.reason = j["reason"].toString();
    o.submitTime = j["submit_time"].toInt();
    o.eligibleTime = optionalInt(j["eligible_time"]);
    o.startTime = j["start_time"].toInt();
    o.endTime = j["end_time"].toInt();
    o.timeLimit = optionalInt(j["time_limit"]);
    o.nodes = j["nodes"].toStringList();
    o.numNodes = optionalInt(j["num_nodes"]);
    o.numCpus = optionalInt(j["num_cpus"]);
    o.numTasks = optionalInt(j["num_tasks"]);
    o.cpusPerTask = optionalInt(j["cpus_per_task"]);
    o.minMemory = j["min_memory"].toInt();
    o.memPerCpu = j["mem_per_cpu"].toBool();
    o.nice = j["nice"].toInt();
    o.exitCode = j["exit_code"].toInt();
    o.exitSignal = j["exit_signal"].toInt();
    o.workDir = j["work_dir"].toString();
    o.stdOut = j["std_out"].toString();
    o.stdErr = j["std_err"].toString();
    o.stdIn = j["std_in"].toString();
    o.command = j["command"].toString();
    o.batchHost = optionalString(j["batch_host"]);
    o.priority = j["priority"].toInt();
    o.arrayJobId = j["array_job_id"].toInt();
    o.arrayTaskId = optionalInt(j["array_task_id"]);
    o.arrayTaskStr = j["array_task_str"].toString();
    o.arrayMaxTasks = optionalInt(j["array_max_tasks"]);
    o.dependency = j["dependency"].toString();
    o.plannedStart = j["planned_start"].toInt();
    o.restarts = j["restarts"].toInt();
    o.hold = j["hold"].toString();
    o.constraint = j["constraint"].toString();
    o.timeMin = j["time_min"].toInt();
    o.gres = j["gres"].toString();
    o.gpus = j["gpus"].toInt();
    for (const Json &node : j["gpu_ids"].items()) {
        o.gpuIds.push_back(intList<int>(node));
    }
    o.gpuAllocType = j["gpu_alloc_type"].toString();
    o.tresPerJob = j["tres_per_job"].toString();
    o.tresPerTask = j["tres_per_task"].toString();
    o.cpusPerTres = j["cpus_per_tres"].toString();
    o.memPerTres = j["mem_per_tres"].toString();
    o.gpusReq = j["gpus_req"].toInt();
    o.exclusive = j["exclusive"].toBool();
    o.reqNodes = j["req_nodes"].toStringList();
    o.excNodes = j["exc_nodes"].toStringList();
    o.preemptEnd = j["preempt_end"].toInt();
    o.interactive = j["interactive"].toBool();
    o.waitingFor = intList<std::int64_t>(j["waiting_for"]);
    o.comment = optionalString(j["comment"]);
    o.nodeCpus = intList<int>(j["node_cpus"]);
    o.mailType = j["mail_type"].toString();
    o.mailUser = j["mail_user"].toString();
    o.suspendTime = j["suspend_time"].toInt();
    o.suspended = j["suspended"].toInt();

    o.submitHost = optionalString(j["submit_host"]);
    o.submitSid = j["submit_sid"].toInt();
    o.ntasksPerNode = j["ntasks_per_node"].toInt();
    o.lastSchedEval = optionalInt(j["last_sched_eval"]);
    o.group = optionalString(j["group"]);

    for (const Json &step : j["steps"].items()) {
        o.steps.push_back(stepObjectFromJson(step));
    }
    o.cancelledBy = optionalInt(j["cancelled_by"]);

    o.now = j["now"].toInt();
    for (const auto &[language, words] : j["explanation"].members()) {
        o.explanation.emplace(language, words.toString());
    }
    if (j["backfilled"].isBool()) {
        o.backfilled = j["backfilled"].toBool();
    }
    return o;
}

StepObject stepObjectFromJson(const Json &j)
{
    StepObject o;
    o.jobId = j["job_id"].toInt();
    const Json &id = j.contains("step_id") ? j["step_id"] : j["step"];
    o.stepId = id.isInt() ? std::to_string(id.toInt()) : id.toString();
    o.name = optionalString(j["name"]);
    o.state = optionalString(j["state"]);
    o.startTime = j["start_time"].toInt();
    o.endTime = j["end_time"].toInt();
    o.exitCode = j["exit_code"].toInt();
    o.exitSignal = j["exit_signal"].toInt();
    o.nodes = j["nodes"].toStringList();
    o.ntasks = optionalInt(j["ntasks"]);
    o.numCpus = optionalInt(j["num_cpus"]);
    o.totalCpuMs = j["total_cpu_ms"].toInt();
    o.maxRssKb = j["max_rss_kb"].toInt();
    o.aveRssKb = j["ave_rss_kb"].toInt();

    o.uid = j["uid"].toInt();
    o.partition = j["partition"].toString();
    o.timeLimit = optionalInt(j["time_limit"]);
    o.tres = j["tres"].toString();
    o.srunHost = optionalString(j["srun_host"]);
    o.srunPid = j["srun_pid"].toInt();
    return o;
}

} // namespace mc::record
