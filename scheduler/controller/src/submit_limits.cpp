#include "submit_limits.h"

#include "replies.h"

#include <string>
#include <utility>

namespace mc::ctl {

namespace {

constexpr std::size_t kMaxPath = 4096; // MAXPATHLEN: output, error, input, working directory

enum class Kind { Number, Bool, String, StringList };

// Every member the job codec reads (mc/acct/job_codec.h), with its type; null is "not given".
constexpr std::pair<const char *, Kind> kMembers[] = {
    {"begin", Kind::Number},
    {"cpus_per_task", Kind::Number},
    {"gid", Kind::Number},
    {"gpus_per_node", Kind::Number},
    {"mem_per_cpu", Kind::Number},
    {"mem_per_node", Kind::Number},
    {"nice", Kind::Number},
    {"nodes", Kind::Number},
    {"ntasks", Kind::Number},
    {"ntasks_per_node", Kind::Number},
    {"time_limit", Kind::Number},
    {"time_min", Kind::Number},
    {"uid", Kind::Number},
    {"cpus_per_task_given", Kind::Bool},
    {"exclusive", Kind::Bool},
    {"hold", Kind::Bool},
    {"interactive", Kind::Bool},
    {"ntasks_given", Kind::Bool},
    {"requeue", Kind::Bool},
    {"test_only", Kind::Bool},
    {"account", Kind::String},
    {"array", Kind::String},
    {"command", Kind::String},
    {"comment", Kind::String},
    {"constraint", Kind::String},
    {"dependency", Kind::String},
    {"name", Kind::String},
    {"open_mode", Kind::String},
    {"partition", Kind::String},
    {"qos", Kind::String},
    {"script", Kind::String},
    {"signal", Kind::String},
    {"std_err", Kind::String},
    {"std_in", Kind::String},
    {"std_out", Kind::String},
    {"submit_host", Kind::String},
    {"user", Kind::String},
    {"work_dir", Kind::String},
    {"argv", Kind::StringList},
    {"env", Kind::StringList},
    {"exclude", Kind::StringList},
    {"node_list", Kind::StringList},
};

bool hasKind(const proto::Json &value, Kind kind)
{
    switch (kind) {
    case Kind::Number:
        return value.isNumber();
    case Kind::Bool:
        return value.isBool();
    case Kind::String:
        return value.isString();
    case Kind::StringList:
        if (!value.isArray()) {
            return false;
        }
        for (const auto &item : value.items()) {
            if (!item.isString()) {
                return false;
            }
        }
        return true;
    }
    return false;
}

const char *kindName(Kind kind)
{
    switch (kind) {
    case Kind::Number:
        return "a number";
    case Kind::Bool:
        return "true or false";
    case Kind::String:
        return "text";
    case Kind::StringList:
        return "a list of text";
    }
    return "";
}

} // namespace

std::optional<proto::Json> checkSubmitTypes(const proto::Json &job, std::string &why)
{
    if (!job.isObject()) {
        why = "the job is not an object";
        return failure("Invalid job specification: the job must be an object");
    }
    for (const auto &[member, kind] : kMembers) {
        const proto::Json &value = job[member];
        if (!value.isNull() && !hasKind(value, kind)) {
            why = std::string("member ") + member + " is not " + kindName(kind);
            return failure(
                std::string("Invalid job specification: ") + member + " must be " + kindName(kind));
        }
    }
    return std::nullopt;
}

std::optional<proto::Json> checkSubmitLimits(const sched::JobSpec &spec, std::string &why)
{
    // slurmctld's _test_job_desc_fields: a string over its limit is ESLURM_PATHNAME_TOO_LONG.
    const std::pair<const char *, std::pair<const std::string *, std::size_t>> strings[] = {
        {"script", {&spec.script, kMaxScriptSize}},
        {"name", {&spec.name, 1024}},
        {"account", {&spec.account, 1024}},
        {"partition", {&spec.partition, 1024}},
        {"qos", {&spec.qos, 1024}},
        {"comment", {spec.comment ? &*spec.comment : nullptr, 1024}},
        {"features", {&spec.constraint, 1024}},
        {"array_inx", {&spec.array, 1024 * 4}},
        {"dependency", {&spec.dependency, 1024 * 128}},
        {"std_out", {&spec.stdOut, kMaxPath}},
        {"std_err", {&spec.stdErr, kMaxPath}},
        {"std_in", {&spec.stdIn, kMaxPath}},
        {"work_dir", {&spec.workDir, kMaxPath}},
    };
    for (const auto &[field, value] : strings) {
        const auto &[text, limit] = value;
        if (text && text->size() > limit) {
            why = std::string("_test_strlen: strlen(") + field + ") " + std::to_string(text->size())
                + " exceeds limit " + std::to_string(limit);
            return failure(
                "Pathname of a file, directory or other parameter too long", kPathnameTooLong);
        }
    }
    // Numbers sbatch would never send (a client of the socket may): refused with the words
    // slurmctld has for each, not applied.
    if (spec.ntasks < 1 || spec.cpusPerTask < 1 || spec.ntasksPerNode < 0) {
        why = "negative or zero task count or CPUs per task";
        return failure("Task count specification invalid");
    }
    if (spec.nodes < 1) {
        why = "node count below 1";
        return failure("Node count specification invalid");
    }
    if ((spec.memPerNode && *spec.memPerNode < 0) || (spec.memPerCpu && *spec.memPerCpu < 0)) {
        why = "negative memory";
        return failure("Memory required by task is not available");
    }
    if ((spec.timeLimit && *spec.timeLimit < 0) || (spec.timeMin && *spec.timeMin < 0)) {
        why = "negative time limit";
        return failure(
            "Requested time limit is invalid (missing or exceeds some limit)", kInvalidTimeLimit);
    }
    if (spec.gpusPerNode < 0) {
        why = "negative GPU count";
        return failure("Invalid generic resource (gres) specification");
    }
    return std::nullopt;
}

} // namespace mc::ctl
