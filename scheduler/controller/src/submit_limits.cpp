#include "submit_limits.h"

#include "mc/record/job_codec.h"
#include "replies.h"

#include <string>
#include <utility>

namespace mc::ctl {

namespace {

constexpr std::size_t kMaxPath = 4096; // MAXPATHLEN: output, error, input, working directory

using record::SpecKind;

bool hasKind(const proto::Json &value, SpecKind kind)
{
    switch (kind) {
    case SpecKind::Number:
        return value.isNumber();
    case SpecKind::Bool:
        return value.isBool();
    case SpecKind::String:
        return value.isString();
    case SpecKind::StringList:
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

const char *kindName(SpecKind kind)
{
    switch (kind) {
    case SpecKind::Number:
        return "a number";
    case SpecKind::Bool:
        return "true or false";
    case SpecKind::String:
        return "text";
    case SpecKind::StringList:
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
    for (const auto &[member, kind] : record::kSpecKeys) {
        const proto::Json &value = job[member];
        if (!value.isNull() && !hasKind(value, kind)) {
            why = "member " + std::string(member) + " is not " + kindName(kind);
            return failure(
                "Invalid job specification: " + std::string(member) + " must be " + kindName(kind));
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
