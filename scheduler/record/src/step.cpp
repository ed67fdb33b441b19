#include "mc/record/step.h"

#include "mc/record/job_codec.h"
#include "mc/sched/hostlist.h"

namespace mc::record {

using proto::Json;

std::string stepIdText(std::int64_t id)
{
    return static_cast<std::uint32_t>(id) == kInteractiveStep ? std::string("interactive")
                                                              : std::to_string(id);
}

std::string stepIdFromText(const std::string &text)
{
    return text == std::to_string(kInteractiveStep) ? std::string("interactive") : text;
}

Json stepCreateRequest(const StepSpec &spec)
{
    Json j = Json::object();
    j.set("op", "step_create");
    j.set("job_id", static_cast<std::int64_t>(spec.job.value));
    j.set("user", spec.user);
    j.set("ntasks", spec.ntasks);
    j.set("nodes", spec.nodes);
    j.set("ntasks_per_node", spec.ntasksPerNode);
    if (!spec.nodeList.empty()) {
        j.set("node_list", proto::stringList(spec.nodeList));
    }
    if (!spec.excludeNodes.empty()) {
        j.set("exclude", proto::stringList(spec.excludeNodes));
    }
    j.set("cpus_per_task", spec.cpusPerTask);
    if (spec.exact) {
        j.set("exact", true);
    }
    j.set("name", spec.name);
    j.set("pty", spec.pty);
    if (spec.interactive) {
        j.set("interactive", true);
    }
    return j;
}

StepSpec stepSpecFromJson(const Json &j)
{
    StepSpec spec;
    spec.job = sched::JobId{static_cast<std::uint32_t>(j["job_id"].toInt())};
    spec.user = j["user"].toString();
    spec.ntasks = static_cast<int>(j["ntasks"].toInt(0));
    spec.nodes = static_cast<int>(j["nodes"].toInt(0));
    spec.ntasksPerNode = static_cast<int>(j["ntasks_per_node"].toInt(0));
    spec.nodeList = j["node_list"].toStringList();
    spec.excludeNodes = j["exclude"].toStringList();
    spec.cpusPerTask = static_cast<int>(j["cpus_per_task"].toInt(1));
    spec.exact = j["exact"].toBool();
    spec.name = j["name"].toString();
    spec.pty = j["pty"].toBool();
    spec.interactive = j["interactive"].toBool();
    return spec;
}

Json stepGrantToJson(const StepGrant &grant)
{
    Json j = Json::object();
    j.set("step_id", grant.stepId);
    j.set("nodes", proto::stringList(grant.nodes));
    j.set("node_list", sched::compressHostlist(grant.nodes));
    Json tasks = Json::array();
    for (const int n : grant.tasksPerNode) {
        tasks.push(n);
    }
    j.set("tasks_per_node", std::move(tasks));
    j.set("ntasks", grant.ntasks);
    if (grant.job) {
        Json job = jobToRecord(*grant.job);
        if (grant.clusterName) {
            job.set("cluster_name", *grant.clusterName);
        }
        job.set("cpus_on_node", grant.job->cpusOnNode(0));
        job.set("node_list", sched::compressHostlist(grant.job->nodeList));
        j.set("job", std::move(job));
    }
    return j;
}

StepGrant stepGrantFromJson(const Json &j)
{
    StepGrant grant;
    grant.stepId = j["step_id"].toInt();
    grant.nodes = j["nodes"].toStringList();
    for (const Json &n : j["tasks_per_node"].items()) {
        grant.tasksPerNode.push_back(static_cast<int>(n.toInt()));
    }
    grant.ntasks = static_cast<int>(j["ntasks"].toInt(1));
    grant.job = jobFromRecord(j["job"]);
    if (const Json &name = j["job"]["cluster_name"]; name.isString()) {
        grant.clusterName = name.toString();
    }
    return grant;
}

Json stepRecordToJson(const StepRecord &s)
{
    Json step = Json::object();
    step.add("step", s.step);
    step.add("step_id", s.step);
    if (!s.name.empty() || s.step == "batch" || s.step == "extern") {
        step.add("name", s.name.empty() ? s.step : s.name);
    }
    step.add("state", sched::longName(s.state));
    step.add("exit_code", s.exit.code);
    step.add("exit_signal", s.exit.signal);
    step.add("start_time", s.startTime);
    step.add("end_time", s.endTime);
    step.add("nodes", proto::stringList(s.nodes));
    step.add("num_cpus", s.cpus);
    if (s.ntasks > 0) {
        step.add("ntasks", s.ntasks);
    }
    step.add("total_cpu_ms", s.totalCpuMs);
    step.add("max_rss_kb", s.maxRssKb);
    step.add("ave_rss_kb", s.aveRssKb);
    return step;
}

StepRecord stepRecordFromJson(const Json &j, sched::JobId job)
{
    StepRecord s;
    s.job = job;
    s.step = j["step"].toString();
    s.state = sched::parseJobState(j["state"].toString()).value_or(sched::JobState::Running);
    s.exit.code = static_cast<int>(j["exit_code"].toInt());
    s.exit.signal = static_cast<int>(j["exit_signal"].toInt());
    s.startTime = j["start_time"].toInt();
    s.endTime = j["end_time"].toInt();
    s.nodes = j["nodes"].toStringList();
    s.cpus = static_cast<int>(j["num_cpus"].toInt());
    s.totalCpuMs = j["total_cpu_ms"].toInt();
    s.maxRssKb = j["max_rss_kb"].toInt();
    s.aveRssKb = j["ave_rss_kb"].toInt();
    // The name shown for an unnamed batch or extern step is the step's own.
    const std::string name = j["name"].toString();
    s.name = name == s.step && (s.step == "batch" || s.step == "extern") ? std::string() : name;
    s.ntasks = static_cast<int>(j["ntasks"].toInt(0));
    return s;
}

} // namespace mc::record
