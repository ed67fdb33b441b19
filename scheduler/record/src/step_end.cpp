#include "mc/record/step_end.h"

namespace mc::record {

using proto::Json;

namespace {

void addExit(Json &j, const sched::ExitStatus &exit)
{
    j.add("exit_code", exit.code);
    j.add("exit_signal", exit.signal);
}

sched::ExitStatus exitOf(const Json &j)
{
    return {static_cast<int>(j["exit_code"].toInt()), static_cast<int>(j["exit_signal"].toInt())};
}

} // namespace

Json taskExitToJson(const TaskExit &exit)
{
    Json j = Json::object();
    j.add("event", "task_exit");
    j.add("task", exit.task);
    addExit(j, exit.exit);
    if (exit.oom) {
        j.add("oom", true);
    }
    return j;
}

TaskExit taskExitFromJson(const Json &event)
{
    return {static_cast<int>(event["task"].toInt()), exitOf(event), event["oom"].toBool()};
}

Json stepDoneToJson(const StepDone &done)
{
    Json j = Json::object();
    j.add("event", "step_done");
    j.add("usage", usageToJson(done.usage));
    if (done.oom) {
        j.add("oom", true);
    }
    return j;
}

StepDone stepDoneFromJson(const Json &event)
{
    return {usageFromJson(event["usage"]), event["oom"].toBool()};
}

Json stepEndToJson(const StepEnd &end)
{
    Json j = Json::object();
    j.add("op", "step_end");
    j.add("job_id", static_cast<std::int64_t>(end.job.value));
    j.add("step_id", end.stepId);
    addExit(j, end.exit);
    j.add("usage", usageToJson(end.usage));
    if (end.oom) {
        j.add("oom", true);
    }
    if (end.timeout) {
        j.add("timeout", true);
    }
    if (end.cancelled) {
        j.add("cancelled", true);
    }
    return j;
}

StepEnd stepEndFromJson(const Json &request)
{
    StepEnd end;
    end.job = sched::JobId{static_cast<std::uint32_t>(request["job_id"].toInt())};
    end.stepId = request["step_id"].toInt(-1);
    end.exit = exitOf(request);
    end.usage = usageFromJson(request["usage"]);
    end.oom = request["oom"].toBool();
    end.timeout = request["timeout"].toBool();
    end.cancelled = request["cancelled"].toBool();
    return end;
}

Json allocReleaseToJson(const AllocRelease &release)
{
    Json j = Json::object();
    j.add("op", "alloc_release");
    j.add("job_id", static_cast<std::int64_t>(release.job.value));
    addExit(j, release.exit);
    if (release.lost) {
        j.add("lost", true);
    }
    if (release.stepEnd) {
        j.add("step_end", stepEndToJson(*release.stepEnd));
    }
    return j;
}

AllocRelease allocReleaseFromJson(const Json &request)
{
    AllocRelease release;
    release.job = sched::JobId{static_cast<std::uint32_t>(request["job_id"].toInt())};
    release.exit = exitOf(request);
    release.lost = request["lost"].toBool();
    if (request["step_end"].isObject()) {
        release.stepEnd = stepEndFromJson(request["step_end"]);
    }
    return release;
}

} // namespace mc::record
