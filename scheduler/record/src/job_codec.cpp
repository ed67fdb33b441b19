#include "mc/record/job_codec.h"

#include "mc/sched/gres.h"
#include "mc/sched/job_array.h"
#include "mc/sched/node_hold.h"

#include <algorithm>
#include <charconv>
#include <type_traits>

namespace mc::record {

using proto::Json;
using sched::Job;
using sched::JobSpec;

// The job's per-node GPU request as --gres gives it ("gpu:a100:2"); empty without one.
std::string gresText(const Job &job)
{
    const JobSpec &s = job.spec;
    return s.gpusPerNode > 0 ? "gpu:" + sched::gpuCountText(s.gpuType, s.gpusPerNode)
                             : std::string();
}

// Slurm's TresPer*/CpusPerTres/MemPerTres form of a per-GPU value: "gres:gpu[:type]:N".
std::string gresPer(const JobSpec &s, std::int64_t value)
{
    return value > 0
        ? "gres:gpu:" + (s.gpuType.empty() ? "" : s.gpuType + ":") + std::to_string(value)
        : std::string();
}

// The GPUs the job holds (running) or asks for (pending) in all: TRES' gres/gpu.
int requestedGpus(const Job &job)
{
    const JobSpec &s = job.spec;
    if (!job.nodeList.empty()) {
        int held = 0; // node by node: --gpus=3 -N2 holds 2 and 1
        for (std::size_t k = 0; k < job.nodeList.size(); ++k) {
            held += sched::gpusOnNode(job, k);
        }
        return held;
    }
    return std::max({s.gpusPerNode * std::max(1, s.nodes), s.gpusPerJob,
        s.gpusPerTask * std::max(1, s.ntasks)});
}

Json gpuIdsJson(const Job &job)
{
    Json nodes = Json::array();
    for (const auto &ids : job.gpuIds) {
        Json list = Json::array();
        for (int id : ids) {
            list.push(id);
        }
        nodes.push(std::move(list));
    }
    return nodes;
}

std::string arrayTaskStr(const Job &job)
{
    if (job.arrayPending.empty()) {
        return {};
    }
    std::string text = sched::formatArrayTasks(job.arrayPending, job.arrayMaxRunning);
    return text.substr(1, text.size() - 2); // squeue %K has no brackets
}

Json specToJson(const JobSpec &spec)
{
    Json j = Json::object();
    j.set("name", spec.name);
    j.set("user", spec.user);
    j.set("uid", static_cast<std::int64_t>(spec.uid));
    j.set("gid", static_cast<std::int64_t>(spec.gid));
    j.set("account", spec.account);
    j.set("partition", spec.partition);
    j.set("qos", spec.qos);
    j.set("work_dir", spec.workDir);
    j.set("script", spec.script);
    j.set("command", spec.command);
    j.set("argv", proto::stringList(spec.argv));
    j.set("env", proto::stringList(spec.env));
    j.set("std_out", spec.stdOut);
    j.set("std_err", spec.stdErr);
    j.set("std_in", spec.stdIn);
    if (spec.timeLimit) {
        j.set("time_limit", *spec.timeLimit);
    }
    j.set("nodes", spec.nodes);
    j.set("ntasks", spec.ntasks);
    j.set("ntasks_given", spec.ntasksGiven);
    j.set("cpus_per_task", spec.cpusPerTask);
    j.set("cpus_per_task_given", spec.cpusPerTaskGiven);
    if (spec.memPerNode) {
        j.set("mem_per_node", *spec.memPerNode);
    }
    if (spec.memPerCpu) {
        j.set("mem_per_cpu", *spec.memPerCpu);
    }
    j.set("submit_host", spec.submitHost);
    if (spec.openAppend) {
        j.set("open_mode", "append");
    }
    if (!spec.signal.empty()) {
        j.set("signal", spec.signal);
    }
    if (spec.requeue) {
        j.set("requeue", *spec.requeue);
    }
    j.set("hold", spec.hold);
    j.set("nice", spec.nice);
    if (spec.ntasksPerNode > 0) {
        j.set("ntasks_per_node", spec.ntasksPerNode);
    }
    if (spec.gpusPerNode > 0) {
        j.set("gpus_per_node", spec.gpusPerNode);
    }
    if (!spec.gpuType.empty()) {
        j.set("gpu_type", spec.gpuType);
    }
    if (spec.gpusPerNodeGiven) {
        j.set("gpus_per_node_given", true);
    }
    if (spec.gpusPerJob > 0) {
        j.set("gpus_per_job", spec.gpusPerJob);
    }
    if (spec.gpusPerTask > 0) {
        j.set("gpus_per_task", spec.gpusPerTask);
    }
    if (spec.cpusPerGpu > 0) {
        j.set("cpus_per_gpu", spec.cpusPerGpu);
    }
    if (spec.memPerGpu) {
        j.set("mem_per_gpu", *spec.memPerGpu);
    }
    if (spec.exclusive) {
        j.set("exclusive", true);
    }
    if (!spec.nodeList.empty()) {
        j.set("node_list", proto::stringList(spec.nodeList));
    }
    if (!spec.excludeNodes.empty()) {
        j.set("exclude", proto::stringList(spec.excludeNodes));
    }
    if (!spec.constraint.empty()) {
        j.set("constraint", spec.constraint);
    }
    if (spec.timeMin) {
        j.set("time_min", *spec.timeMin);
    }
    if (spec.begin) {
        j.set("begin", *spec.begin);
    }
    if (!spec.dependency.empty()) {
        j.set("dependency", spec.dependency);
    }
    if (!spec.array.empty()) {
        j.set("array", spec.array);
    }
    if (spec.interactive) {
        j.set("interactive", true);
    }
    if (spec.comment) {
        j.set("comment", *spec.comment);
    }
    if (spec.testOnly) {
        j.set("test_only", true);
    }
    if (!spec.mailType.empty()) {
        j.set("mail_type", spec.mailType);
    }
    if (!spec.mailUser.empty()) {
        j.set("mail_user", spec.mailUser);
    }
    return j;
}

Json submitRequest(const JobSpec &spec)
{
    Json request = Json::object();
    request.set("op", "submit");
    request.set("job", specToJson(spec));
    return request;
}

JobSpec specFromJson(const Json &j)
{
    JobSpec spec;
    spec.name = j["name"].toString();
    spec.user = j["user"].toString();
    spec.uid = static_cast<std::uint32_t>(j["uid"].toInt());
    spec.gid = static_cast<std::uint32_t>(j["gid"].toInt());
    spec.account = j["account"].toString();
    spec.partition = j["partition"].toString();
    spec.qos = j["qos"].toString("normal");
    spec.workDir = j["work_dir"].toString();
    spec.script = j["script"].toString();
    spec.command = j["command"].toString();
    spec.argv = j["argv"].toStringList();
    spec.env = j["env"].toStringList();
    spec.stdOut = j["std_out"].toString();
    spec.stdErr = j["std_err"].toString();
    spec.stdIn = j["std_in"].toString("/dev/null");
    if (j["time_limit"].isNumber()) {
        spec.timeLimit = j["time_limit"].toInt();
    }
    spec.nodes = static_cast<int>(j["nodes"].toInt(1));
    spec.ntasks = static_cast<int>(j["ntasks"].toInt(1));
    spec.cpusPerTask = static_cast<int>(j["cpus_per_task"].toInt(1));
    spec.ntasksGiven = j["ntasks_given"].toBool();
    spec.cpusPerTaskGiven = j["cpus_per_task_given"].toBool();
    if (j["mem_per_node"].isNumber()) {
        spec.memPerNode = j["mem_per_node"].toInt();
    }
    if (j["mem_per_cpu"].isNumber()) {
        spec.memPerCpu = j["mem_per_cpu"].toInt();
    }
    spec.submitHost = j["submit_host"].toString();
    spec.openAppend = j["open_mode"].toString() == "append";
    spec.signal = j["signal"].toString();
    if (j["requeue"].isBool()) {
        spec.requeue = j["requeue"].toBool();
    }
    spec.hold = j["hold"].toBool();
    spec.nice = static_cast<int>(j["nice"].toInt());
    spec.ntasksPerNode = static_cast<int>(j["ntasks_per_node"].toInt());
    spec.gpusPerNode = static_cast<int>(j["gpus_per_node"].toInt());
    spec.gpuType = j["gpu_type"].toString();
    spec.gpusPerNodeGiven = j["gpus_per_node_given"].toBool();
    spec.gpusPerJob = static_cast<int>(j["gpus_per_job"].toInt());
    spec.gpusPerTask = static_cast<int>(j["gpus_per_task"].toInt());
    spec.cpusPerGpu = static_cast<int>(j["cpus_per_gpu"].toInt());
    if (j["mem_per_gpu"].isNumber()) {
        spec.memPerGpu = j["mem_per_gpu"].toInt();
    }
    spec.exclusive = j["exclusive"].toBool();
    spec.nodeList = j["node_list"].toStringList();
    spec.excludeNodes = j["exclude"].toStringList();
    spec.constraint = j["constraint"].toString();
    if (j["time_min"].isNumber()) {
        spec.timeMin = j["time_min"].toInt();
    }
    if (j["begin"].isNumber()) {
        spec.begin = j["begin"].toInt();
    }
    spec.dependency = j["dependency"].toString();
    spec.array = j["array"].toString();
    spec.interactive = j["interactive"].toBool();
    if (j["comment"].isString()) {
        spec.comment = j["comment"].toString();
    }
    spec.testOnly = j["test_only"].toBool();
    spec.mailType = j["mail_type"].toString();
    spec.mailUser = j["mail_user"].toString();
    return spec;
}

JobKeys JobKeys::all()
{
    JobKeys keys;
    keys.m_bits.set();
    return keys;
}

JobKeys JobKeys::of(const std::vector<std::string> &names)
{
    JobKeys keys;
    for (const auto &name : names) {
        for (std::size_t i = 0; i < kJobKeys.size(); ++i) {
            if (kJobKeys[i] == name) {
                keys.m_bits.set(i);
            }
        }
    }
    return keys;
}

namespace {

// Evaluates a deferred value (a callable) only when it is written.
template <typename Value> decltype(auto) resolve(Value &&value)
{
    if constexpr (std::is_invocable_v<Value>) {
        return value();
    } else {
        return std::forward<Value>(value);
    }
}

// Appends the members of kJobKeys in order, those that `keys` holds (and that apply).
class JobEncoder {
public:
    explicit JobEncoder(const JobKeys &keys)
        : m_keys(keys)
    {
        m_json.reserve(kJobKeys.size());
    }
    template <typename Value> void operator()(Value &&value, bool applies = true)
    {
        if (applies && m_keys.has(m_index)) {
            m_json.add(kJobKeys[m_index], Json(resolve(std::forward<Value>(value))));
        }
        ++m_index;
    }
    Json take() { return std::move(m_json); }

private:
    const JobKeys &m_keys;
    Json m_json = Json::object();
    std::size_t m_index = 0;
};

template <typename Int>
requires(std::is_integral_v<Int> && !std::is_same_v<Int, bool>) void writeValue(
    std::string &out, Int value)
{
    char buffer[24];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, end);
}
void writeValue(std::string &out, bool value)
{
    out += value ? "true" : "false";
}
void writeValue(std::string &out, std::string_view value)
{
    proto::appendQuoted(out, value);
}
void writeValue(std::string &out, const std::string &value)
{
    proto::appendQuoted(out, value);
}
void writeValue(std::string &out, const char *value)
{
    proto::appendQuoted(out, value);
}
void writeValue(std::string &out, const Json &value)
{
    value.dumpTo(out);
}

// Writes the members a JobRowWriter's columns name as JSON text, each into its column's cell.
class TextEncoder {
public:
    TextEncoder(const std::array<int, kJobKeys.size()> &columnOf, std::vector<std::string> &cells)
        : m_columnOf(columnOf)
        , m_cells(cells)
    { }
    template <typename Value> void operator()(Value &&value, bool applies = true)
    {
        const int column = m_columnOf[m_index];
        if (applies && column >= 0) {
            writeValue(
                m_cells[static_cast<std::size_t>(column)], resolve(std::forward<Value>(value)));
        }
        ++m_index;
    }

private:
    const std::array<int, kJobKeys.size()> &m_columnOf;
    std::vector<std::string> &m_cells;
    std::size_t m_index = 0;
};

// The one sequence of members (kJobKeys' order) for both encoders.
template <typename Put> void encodeJob(const Job &job, Put &put)
{
    const JobSpec &s = job.spec;
    put(static_cast<std::int64_t>(job.id.value)); // job_id
    put(s.name);
    put(s.user);
    put(static_cast<std::int64_t>(s.uid));
    put(static_cast<std::int64_t>(s.gid));
    put(s.account);
    put(s.partition);
    put(s.qos);
    put(sched::longName(job.state)); // state
    put(sched::shortName(job.state));
    put(sched::reasonName(job.reason));
    put(job.submitTime);
    put(job.eligibleTime);
    put(job.startTime);
    put(job.endTime);
    put(job.timeLimit);
    put([&job] { return proto::stringList(job.nodeList); }); // nodes
    put(job.nodeList.empty() ? s.nodes : static_cast<int>(job.nodeList.size())); // num_nodes
    put(job.allocCpus > 0 ? job.allocCpus : s.ntasks * s.cpusPerTask); // num_cpus
    put(s.ntasks);
    put(s.cpusPerTask);
    put(s.memPerCpu ? *s.memPerCpu : job.memPerNode); // min_memory
    put(s.memPerCpu.has_value());
    put(s.nice);
    put(job.exit.code);
    put(job.exit.signal);
    put(s.workDir); // work_dir
    put(s.stdOut);
    put(s.stdErr);
    put(s.stdIn);
    put(s.command);
    put(job.batchHost);
    put(job.priority);
    // Issue #3: arrays, dependencies, holds, planned starts, resources asked for.
    put(static_cast<std::int64_t>(job.arrayJobId)); // array_job_id
    put(static_cast<std::int64_t>(job.arrayTaskId.value_or(0)), job.arrayTaskId.has_value());
    put([&job] { return arrayTaskStr(job); });
    put(job.arrayMaxRunning); // array_max_tasks: the %N of the array, on each of its tasks
    put(job.isPending() ? s.dependency : std::string()); // dependency
    put(job.plannedStart.value_or(0));
    put(job.restarts);
    put(job.heldByAdmin ? "admin" : (s.hold ? "user" : "")); // hold
    put(s.constraint);
    put(s.timeMin.value_or(0));
    put([&job] { return gresText(job); }); // gres
    put(job.nodeList.empty() ? 0 : job.gpusPerNode); // gpus
    put([&job] { return gpuIdsJson(job); }, !job.gpuIds.empty()); // gpu_ids
    put(job.gpuAllocType, !job.gpuIds.empty()); // gpu_alloc_type
    put([&s] { return gresPer(s, s.gpusPerJob); }); // tres_per_job
    put([&s] { return gresPer(s, s.gpusPerTask); }); // tres_per_task
    put([&s] { return gresPer(s, s.cpusPerGpu); }); // cpus_per_tres
    put([&s] { return gresPer(s, s.memPerGpu.value_or(0)); }); // mem_per_tres
    put([&job] { return requestedGpus(job); }); // gpus_req
    put(s.exclusive);
    put([&s] { return proto::stringList(s.nodeList); }); // req_nodes
    put([&s] { return proto::stringList(s.excludeNodes); });
    put(job.preemptEnd.value_or(0)); // preempt_end
    put(s.interactive);
    put([] { return Json::array(); }); // waiting_for
    put([&s] { return *s.comment; }, s.comment.has_value()); // comment
    put(
        [&job] {
            Json cpus = Json::array();
            for (int n : job.nodeCpus) {
                cpus.push(n);
            }
            return cpus;
        },
        !job.nodeCpus.empty()); // node_cpus: an uneven layout (4,2)
    put(s.mailType, !s.mailType.empty()); // mail_type
    put(s.mailUser.empty() ? s.user : s.mailUser, !s.mailType.empty()); // mail_user
    // Only of a job ever suspended: the last suspension or resumption, and the seconds of
    // the suspensions that are over (a client adds the current one from suspend_time).
    put(job.suspendTime, job.suspendTime > 0); // suspend_time
    put(job.suspendedSecs, job.suspendTime > 0); // suspended
}

} // namespace

Json jobToJson(const Job &job, const JobKeys &keys)
{
    JobEncoder put(keys);
    encodeJob(job, put);
    return put.take();
}

JobRowWriter::JobRowWriter(const std::vector<std::string> &columns)
    : m_names(columns)
    , m_cells(columns.size())
{
    m_columnOf.fill(-1);
    for (std::size_t c = 0; c < columns.size(); ++c) {
        for (std::size_t i = 0; i < kJobKeys.size(); ++i) {
            if (kJobKeys[i] == columns[c] && m_columnOf[i] < 0) {
                m_columnOf[i] = static_cast<int>(c);
            }
        }
    }
}

void JobRowWriter::encode(const Job &job)
{
    for (auto &cell : m_cells) {
        cell.clear();
    }
    TextEncoder put(m_columnOf, m_cells);
    encodeJob(job, put);
}

void JobRowWriter::appendRow(std::string &out) const
{
    out += '[';
    for (std::size_t c = 0; c < m_cells.size(); ++c) {
        if (c > 0) {
            out += ',';
        }
        out += m_cells[c].empty() ? std::string_view("null") : std::string_view(m_cells[c]);
    }
    out += ']';
}

Json jobToRecord(const Job &job)
{
    Json j = jobToJson(job);
    j.set("mem_per_node_resolved", job.memPerNode);
    if (job.cancelledBy) {
        j.set("cancelled_by", static_cast<std::int64_t>(*job.cancelledBy));
    }
    j.set("held_by_admin", job.heldByAdmin);
    if (!job.arrayPending.empty()) {
        Json pending = Json::array();
        for (std::uint32_t task : job.arrayPending) {
            pending.push(static_cast<std::int64_t>(task));
        }
        j.set("array_pending", std::move(pending));
    }
    j.set("array_max_running", job.arrayMaxRunning);
    if (job.plannedStart) {
        j.set("planned_start", *job.plannedStart);
    }
    if (job.preemptEnd) {
        j.set("preempt_end", *job.preemptEnd);
    }
    j.set("spec", specToJson(job.spec));
    return j;
}

std::optional<Job> jobFromRecord(const Json &r)
{
    if (!r.isObject() || !r["spec"].isObject()) {
        return std::nullopt;
    }
    Job job;
    job.id = sched::JobId{static_cast<std::uint32_t>(r["job_id"].toInt())};
    job.spec = specFromJson(r["spec"]);
    auto state = sched::parseJobState(r["state"].toString());
    if (!state) {
        return std::nullopt;
    }
    job.state = *state;
    job.reason = sched::parseReason(r["reason"].toString()).value_or(sched::Reason::None);
    job.submitTime = r["submit_time"].toInt();
    job.eligibleTime = r["eligible_time"].toInt();
    job.startTime = r["start_time"].toInt();
    job.endTime = r["end_time"].toInt();
    job.timeLimit = r["time_limit"].toInt(sched::kInfinite);
    job.memPerNode = r["mem_per_node_resolved"].toInt();
    job.nodeList = r["nodes"].toStringList();
    job.allocCpus = static_cast<int>(job.nodeList.empty() ? 0 : r["num_cpus"].toInt());
    if (r["node_cpus"].isArray() && r["node_cpus"].size() == job.nodeList.size()) {
        for (const Json &cpus : r["node_cpus"].items()) {
            job.nodeCpus.push_back(static_cast<int>(cpus.toInt()));
        }
    }
    job.gpusPerNode = static_cast<int>(job.nodeList.empty() ? 0 : r["gpus"].toInt());
    job.gpuAllocType = r["gpu_alloc_type"].toString();
    for (const auto &ids : r["gpu_ids"].items()) {
        job.gpuIds.emplace_back();
        for (const auto &id : ids.items()) {
            job.gpuIds.back().push_back(static_cast<int>(id.toInt()));
        }
    }
    job.exit.code = static_cast<int>(r["exit_code"].toInt());
    job.exit.signal = static_cast<int>(r["exit_signal"].toInt());
    job.batchHost = r["batch_host"].toString();
    if (r["cancelled_by"].isNumber()) {
        job.cancelledBy = static_cast<std::uint32_t>(r["cancelled_by"].toInt());
    }
    job.heldByAdmin = r["held_by_admin"].toBool();
    job.priority = r["priority"].toInt();
    job.arrayJobId = static_cast<std::uint32_t>(r["array_job_id"].toInt());
    if (r["array_task_id"].isNumber()) {
        job.arrayTaskId = static_cast<std::uint32_t>(r["array_task_id"].toInt());
    }
    for (const auto &task : r["array_pending"].items()) {
        job.arrayPending.push_back(static_cast<std::uint32_t>(task.toInt()));
    }
    job.arrayMaxRunning = static_cast<int>(r["array_max_running"].toInt());
    job.restarts = static_cast<int>(r["restarts"].toInt());
    if (r["planned_start"].toInt() > 0) {
        job.plannedStart = r["planned_start"].toInt();
    }
    if (r["preempt_end"].toInt() > 0) {
        job.preemptEnd = r["preempt_end"].toInt();
    }
    job.suspendTime = r["suspend_time"].toInt();
    job.suspendedSecs = r["suspended"].toInt();
    return job;
}

} // namespace mc::record
