#include "foreign_submit.h"

#include "../scontrol/scontrol_records.h"
#include "../shared/text.h"
#include "mc/cmd/sbatch.h"
#include "mc/sched/batch_script.h"

#include <ctime>
#include <sstream>

namespace mc::cmd::foreign {

Submission submitWithSbatch(const Context &ctx, std::vector<std::string> args,
    const std::string &script, std::string_view system)
{
    Context inner = ctx;
    std::ostringstream out;
    std::ostringstream err;
    inner.args = std::move(args);
    inner.out = &out;
    inner.err = &err;
    inner.readStdin = [script] {
        return script;
    };
    inner.environment.push_back("MINICLUSTER_BATCH_SYSTEM=" + std::string(system));
    Sbatch(inner).run();

    Submission result;
    const std::string text = out.str();
    if (const auto pos = text.rfind(' '); pos != std::string::npos) {
        result.jobId = parseLeadingInteger(text.substr(pos + 1));
    }
    std::istringstream lines(err.str());
    for (std::string line; std::getline(lines, line);) {
        constexpr std::string_view kPrefix = "sbatch: error: ";
        if (line.rfind(kPrefix, 0) == 0) {
            line = line.substr(kPrefix.size());
        }
        constexpr std::string_view kFailed = "Batch job submission failed: ";
        if (line.rfind(kFailed, 0) == 0) {
            line = line.substr(kFailed.size());
        }
        if (line.rfind("sbatch: warning: ", 0) != 0) {
            result.errors.push_back(line);
        }
    }
    if (result.jobId > 0) {
        result.errors.clear();
        if (auto jobs = listJobs(ctx, {result.jobId}); jobs && !jobs->empty()) {
            result.partition = jobs->front().partition;
        }
    }
    return result;
}

std::optional<std::vector<record::JobObject>> listJobs(
    const Context &ctx, const std::vector<std::int64_t> &jobIds)
{
    proto::Json request = proto::Json::object();
    request.set("op", "jobs");
    // Only the members LSF's and PBS's listings read: the explanations are not computed.
    using M = record::JobMember;
    proto::Json fields = proto::Json::array();
    for (const M member : {M::JobId, M::Name, M::User, M::State, M::Hold, M::Reason, M::Partition,
             M::SubmitHost, M::SubmitTime, M::StartTime, M::EndTime, M::NumCpus, M::NumNodes,
             M::NumTasks, M::Nodes, M::TimeLimit, M::MinMemory, M::Command, M::WorkDir, M::StdOut,
             M::StdErr, M::ExitCode, M::ArrayJobId, M::ArrayTaskId, M::ArrayTaskStr}) {
        fields.push(std::string(record::jobMemberKey(member)));
    }
    request.set("fields", std::move(fields));
    if (!jobIds.empty()) {
        proto::Json ids = proto::Json::array();
        for (const std::int64_t id : jobIds) {
            ids.push(id);
        }
        request.set("job_ids", std::move(ids));
    }
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    if (!reply || !(*reply)["ok"].toBool(true)) {
        return std::nullopt;
    }
    std::vector<record::JobObject> jobs;
    for (const proto::Json &job : (*reply)["jobs"].items()) {
        jobs.push_back(record::jobObjectFromJson(job));
    }
    return jobs;
}

std::optional<std::vector<std::pair<std::int64_t, std::string>>> actOnJobs(
    const Context &ctx, const std::vector<std::int64_t> &jobIds, std::string_view op)
{
    proto::Json request = proto::Json::object();
    request.set("op", std::string(op));
    if (op == "hold") {
        request.set("admin", false); // the user's own hold (scontrol uhold)
    }
    if (op == "suspend" || op == "resume") {
        request.set("owner", true); // LSF lets a job's owner stop it (Slurm: operators only)
    }
    proto::Json list = proto::Json::array();
    for (const std::int64_t id : jobIds) {
        list.push(id);
    }
    request.set("job_ids", std::move(list));
    request.set("user", ctx.user.name);
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    if (!reply) {
        return std::nullopt;
    }
    std::vector<std::pair<std::int64_t, std::string>> outcome;
    for (const std::int64_t id : jobIds) {
        std::string error = (*reply)["ok"].toBool(true) ? "" : (*reply)["error"].toString();
        for (const auto &result : (*reply)["results"].items()) {
            if (result["job_id"].toInt() == id) {
                error = result["error"].toString("error");
            }
        }
        outcome.emplace_back(id, error);
    }
    return outcome;
}

std::vector<std::string> directiveWords(std::string_view script, std::string_view prefix)
{
    return sched::parseDirectives(script, prefix);
}

std::string jobFile(const record::JobObject &job, bool error)
{
    const std::string &pattern = error && !job.stdErr.empty() ? job.stdErr : job.stdOut;
    return scontrol::stdioPath(job, pattern, false);
}

namespace {

std::string localTime(std::int64_t epoch, const char *format)
{
    const std::time_t t = static_cast<std::time_t>(epoch);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, format, &tm);
    return buffer;
}

} // namespace

std::string lsfTime(std::int64_t epoch)
{
    return localTime(epoch, "%b %e %H:%M");
}

std::string lsfLongTime(std::int64_t epoch)
{
    return localTime(epoch, "%a %b %e %H:%M:%S");
}

std::string pbsTime(std::int64_t epoch)
{
    return localTime(epoch, "%a %b %e %H:%M:%S %Y");
}

std::string serverName(const Context &ctx)
{
    proto::Json ping = proto::Json::object();
    ping.set("op", "ping");
    auto reply = ctx.controller ? ctx.controller(ping) : std::nullopt;
    const std::string name = reply ? (*reply)["cluster_name"].toString() : std::string();
    return name.empty() ? "server" : name;
}

std::optional<std::int64_t> jobIdOf(std::string_view word)
{
    const auto dot = word.find('.');
    auto id = parseInteger(word.substr(0, dot));
    if (!id || *id <= 0) {
        return std::nullopt;
    }
    return id;
}

} // namespace mc::cmd::foreign
