#include "mc/acct/job_codec.h"

namespace mc::acct {

using proto::Json;
using sched::Job;
using sched::JobSpec;

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
    return j;
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
    return spec;
}

Json jobToJson(const Job &job)
{
    const JobSpec &s = job.spec;
    Json j = Json::object();
    j.set("job_id", static_cast<std::int64_t>(job.id.value));
    j.set("name", s.name);
    j.set("user", s.user);
    j.set("uid", static_cast<std::int64_t>(s.uid));
    j.set("gid", static_cast<std::int64_t>(s.gid));
    j.set("account", s.account);
    j.set("partition", s.partition);
    j.set("qos", s.qos);
    j.set("state", sched::longName(job.state));
    j.set("state_short", sched::shortName(job.state));
    j.set("reason", sched::reasonName(job.reason));
    j.set("submit_time", job.submitTime);
    j.set("eligible_time", job.eligibleTime);
    j.set("start_time", job.startTime);
    j.set("end_time", job.endTime);
    j.set("time_limit", job.timeLimit);
    j.set("nodes", proto::stringList(job.nodeList));
    int nodes = job.nodeList.empty() ? s.nodes : static_cast<int>(job.nodeList.size());
    j.set("num_nodes", nodes);
    j.set("num_cpus", job.allocCpus > 0 ? job.allocCpus : s.ntasks * s.cpusPerTask);
    j.set("num_tasks", s.ntasks);
    j.set("cpus_per_task", s.cpusPerTask);
    j.set("min_memory", s.memPerCpu ? *s.memPerCpu : job.memPerNode);
    j.set("mem_per_cpu", s.memPerCpu.has_value());
    j.set("nice", s.nice);
    j.set("exit_code", job.exit.code);
    j.set("exit_signal", job.exit.signal);
    j.set("work_dir", s.workDir);
    j.set("std_out", s.stdOut);
    j.set("std_err", s.stdErr);
    j.set("std_in", s.stdIn);
    j.set("command", s.command);
    j.set("batch_host", job.batchHost);
    return j;
}

Json jobToRecord(const Job &job)
{
    Json j = jobToJson(job);
    j.set("mem_per_node_resolved", job.memPerNode);
    if (job.cancelledBy) {
        j.set("cancelled_by", static_cast<std::int64_t>(*job.cancelledBy));
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
    job.exit.code = static_cast<int>(r["exit_code"].toInt());
    job.exit.signal = static_cast<int>(r["exit_signal"].toInt());
    job.batchHost = r["batch_host"].toString();
    if (r["cancelled_by"].isNumber()) {
        job.cancelledBy = static_cast<std::uint32_t>(r["cancelled_by"].toInt());
    }
    return job;
}

} // namespace mc::acct
