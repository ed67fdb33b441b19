#include "mc/record/job_end.h"

namespace mc::record {

using proto::Json;

Json jobEndToJson(const JobEnd &end)
{
    Json j = Json::object();
    j.add("op", "job_ended");
    j.add("job_id", static_cast<std::int64_t>(end.job.value));
    j.add("exit_code", end.exit.code);
    j.add("exit_signal", end.exit.signal);
    if (end.endTime) {
        j.add("end_time", *end.endTime);
    }
    if (end.timeout) {
        j.add("timeout", true);
    }
    if (end.oom) {
        j.add("oom", true);
    }
    if (end.nodeReboot) {
        j.add("node_reboot", true);
    }
    if (end.memoryLimitKb) {
        j.add("memory_limit_kb", *end.memoryLimitKb);
    }
    if (end.nodeFail) {
        j.add("node_fail", true);
    }
    if (end.launchFailed) {
        j.add("launch_failed", true);
    }
    if (!end.error.empty()) {
        j.add("error", end.error);
    }
    if (end.usage) {
        j.add("usage", usageToJson(*end.usage));
    }
    if (!end.limits.empty()) {
        j.add("limits", end.limits);
    }
    return j;
}

std::optional<JobEnd> jobEndFromJson(const Json &j)
{
    if (!j["job_id"].isNumber()) {
        return std::nullopt;
    }
    JobEnd end;
    end.job = sched::JobId{static_cast<std::uint32_t>(j["job_id"].toInt())};
    end.exit.code = static_cast<int>(j["exit_code"].toInt());
    end.exit.signal = static_cast<int>(j["exit_signal"].toInt());
    if (j["end_time"].isNumber()) {
        end.endTime = j["end_time"].toDouble();
    }
    end.timeout = j["timeout"].toBool();
    end.oom = j["oom"].toBool();
    end.nodeReboot = j["node_reboot"].toBool();
    if (j["memory_limit_kb"].isNumber()) {
        end.memoryLimitKb = j["memory_limit_kb"].toInt();
    }
    end.nodeFail = j["node_fail"].toBool();
    end.launchFailed = j["launch_failed"].toBool();
    end.error = j["error"].toString();
    if (j["usage"].isObject()) {
        end.usage = usageFromJson(j["usage"]);
    }
    end.limits = j["limits"].toString();
    return end;
}

} // namespace mc::record
