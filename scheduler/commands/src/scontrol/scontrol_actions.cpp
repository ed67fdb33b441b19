#include "scontrol_actions.h"

#include "../shared/text.h"
#include "mc/record/job_object.h"
#include "mc/record/job_update.h"
#include "mc/record/step.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/time_format.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>

namespace mc::cmd::scontrol {
namespace {

using proto::Json;

constexpr std::string_view kProgram = "scontrol";
constexpr std::string_view kNoController = "Unable to contact slurm controller (connect failure)";

struct JobIds {
    std::vector<std::string> ids; // "112", "43_3", "43_[1-3]"
    std::optional<Outcome> problem;
};

// "112", "112,113", "112 113", array tasks "43_3" and "43_[1-3,5]".
JobIds parseJobIds(const std::vector<std::string> &args, std::string_view command)
{
    JobIds result;
    for (const auto &arg : args) {
        for (const auto &word : splitJobIdList(arg)) {
            if (!sched::parseJobIdSpec(word)) {
                result.problem = Outcome{{}, "Invalid job id specified for job " + word + "\n", 1};
                return result;
            }
            result.ids.push_back(word);
        }
    }
    if (result.ids.empty()) {
        result.problem
            = Outcome{{}, "too few arguments for keyword:" + std::string(command) + "\n", 1};
    }
    return result;
}

// A job id for the controller: a number, or array tasks as written.
Json idValue(const std::string &id)
{
    return id.find('_') == std::string::npos ? Json(parseLeadingInteger(id)) : Json(id);
}

Json idList(const std::vector<std::string> &ids)
{
    Json list = Json::array();
    for (const auto &id : ids) {
        list.push(idValue(id));
    }
    return list;
}

// Per-job failures of a `results` reply, "<error> for job <id>" each; the last error's text.
std::string jobFailures(const Json &reply, std::string &lastError)
{
    std::string err;
    for (const auto &result : reply["results"].items()) {
        lastError = result["error"].toString();
        const std::string job = result["job"].isString() ? result["job"].toString()
                                                         : std::to_string(result["job_id"].toInt());
        err += lastError + " for job " + job + "\n";
    }
    return err;
}

std::optional<Json> call(Context &ctx, const Json &request)
{
    return ctx.controller ? ctx.controller(request) : std::nullopt;
}

// A request on a job list whose failures Slurm prints job by job with no summary line (requeue,
// suspend, resume): exit 1 after any failure; `api` names the call when the controller is away.
Outcome perJobOutcome(Context &ctx, const Json &request, std::string_view api)
{
    auto reply = call(ctx, request);
    if (!reply) {
        return {{}, std::string(api) + " error: " + std::string(kNoController) + "\n", 1};
    }
    std::string lastError;
    std::string err = jobFailures(*reply, lastError);
    if (!(*reply)["ok"].toBool() && err.empty()) {
        err = (*reply)["error"].toString() + "\n";
    }
    return {{}, err, err.empty() ? 0 : 1};
}

// The member of record::JobUpdate a keyword of scontrol update job sets.
enum class Field {
    TimeLimit,
    TimeMin,
    Nice,
    Partition,
    Name,
    NumNodes,
    Dependency,
    Begin,
    ArrayTaskThrottle,
    Constraint,
    Comment,
};

// A job field of scontrol update: its Slurm keyword and what it sets.
struct UpdateKey {
    std::string_view keyword;
    Field field;
};

// What a job's owner may change with scontrol update (Slurm lets users lower limits, rename,
// move pending jobs, change dependencies and begin times; the controller judges each).
constexpr std::array kJobKeys{
    UpdateKey{"TimeLimit", Field::TimeLimit},
    UpdateKey{"TimeMin", Field::TimeMin},
    UpdateKey{"Nice", Field::Nice},
    UpdateKey{"Partition", Field::Partition},
    UpdateKey{"JobName", Field::Name},
    UpdateKey{"Name", Field::Name},
    UpdateKey{"NumNodes", Field::NumNodes},
    UpdateKey{"ReqNodes", Field::NumNodes},
    UpdateKey{"Dependency", Field::Dependency},
    UpdateKey{"StartTime", Field::Begin},
    UpdateKey{"BeginTime", Field::Begin},
    UpdateKey{"ArrayTaskThrottle", Field::ArrayTaskThrottle},
    UpdateKey{"Features", Field::Constraint},
    UpdateKey{"Comment", Field::Comment},
};

// Keys of Slurm's scontrol update job that minicluster does not model.
constexpr std::array kUnmodelledJobKeys{"NumTasks", "ReqProcs", "NumCPUs", "MinCPUsNode",
    "MinMemoryNode", "MinMemoryCPU", "Account", "QOS", "ReqNodeList", "NodeList", "ExcNodeList",
    "Priority", "Requeue", "ReqCores", "ReqSockets", "ReqThreads", "Contiguous", "CoreSpec",
    "Deadline", "DelayBoot", "EligibleTime", "EndTime", "Gres", "Licenses", "MailType", "MailUser",
    "MinTmpDiskNode", "Reboot", "Reservation", "Shared", "OverSubscribe", "SiteFactor", "StdOut",
    "SwitchES", "TRES", "TresPerNode", "UserId", "WCKey", "WorkDir", "Admincomment", "Prefer",
    "ClusterFeatures", "Container"};

const UpdateKey *findJobKey(std::string_view key)
{
    for (const auto &k : kJobKeys) {
        if (equalsIgnoreCase(key, k.keyword)) {
            return &k;
        }
    }
    return nullptr;
}

// Sets the member `key` names to `value` as the controller takes it; an Outcome for a bad value.
std::optional<Outcome> setJobField(
    const UpdateKey &key, const std::string &value, const Context &ctx, record::JobUpdate &update)
{
    auto bad = [&key]() {
        return Outcome{{}, "Invalid " + std::string(key.keyword) + " value\n", 1};
    };
    // TimeLimit=0 is UNLIMITED, as in Slurm; TimeMin=0 is none.
    auto duration = [&](std::optional<sched::Seconds> &member) -> std::optional<Outcome> {
        if (!value.empty() && (value[0] == '+' || value[0] == '-')) {
            return notSupported(
                kProgram, std::string(key.keyword) + "=+/-<time> (relative change)");
        }
        auto limit = sched::parseTimeLimit(value);
        if (!limit) {
            return bad();
        }
        member = key.field == Field::TimeLimit && *limit == 0 ? sched::kInfinite : *limit;
        return std::nullopt;
    };
    auto count = [&](std::optional<int> &member) -> std::optional<Outcome> {
        auto number = parseInteger(value);
        if (!number || (key.field != Field::Nice && *number < 0)) {
            return bad();
        }
        member = static_cast<int>(*number);
        return std::nullopt;
    };
    switch (key.field) {
    case Field::TimeLimit:
        return duration(update.timeLimit);
    case Field::TimeMin:
        return duration(update.timeMin);
    case Field::Nice:
        return count(update.nice);
    case Field::NumNodes:
        return count(update.numNodes);
    case Field::ArrayTaskThrottle:
        return count(update.arrayTaskThrottle);
    case Field::Begin: {
        auto when = sched::parseTimeSpec(value, clusterNow(ctx));
        if (!when) {
            return bad();
        }
        update.begin = *when;
        return std::nullopt;
    }
    case Field::Partition:
        update.partition = value;
        break;
    case Field::Name:
        update.name = value;
        break;
    case Field::Dependency:
        update.dependency = value;
        break;
    case Field::Constraint:
        update.constraint = value;
        break;
    case Field::Comment:
        update.comment = value;
        break;
    }
    return std::nullopt;
}

Outcome updateJob(Context &ctx, const std::string &jobIdText,
    const std::vector<std::pair<std::string, std::string>> &pairs)
{
    if (!sched::parseJobIdSpec(jobIdText)) {
        return {{}, "Invalid job id specified for job " + jobIdText + "\n", 1};
    }
    record::JobUpdate update;
    for (const auto &[key, value] : pairs) {
        if (const UpdateKey *k = findJobKey(key)) {
            if (auto problem = setJobField(*k, value, ctx, update)) {
                return *problem;
            }
            continue;
        }
        for (const char *unmodelled : kUnmodelledJobKeys) {
            if (equalsIgnoreCase(key, unmodelled)) {
                return notSupported(kProgram, "scontrol update " + std::string(unmodelled) + "=");
            }
        }
        return {{},
            "Update of this parameter is not supported: " + key + "=" + value + "\n"
                + "Request aborted\n",
            1};
    }
    if (update.empty()) {
        return {{}, "No changes specified\n", 1};
    }
    Json request = Json::object();
    request.set("op", "update");
    request.set("job_id", idValue(jobIdText));
    request.set("user", ctx.user.name);
    request.set("fields", record::updateToJson(update));
    auto reply = call(ctx, request);
    if (!reply) {
        return {{}, "slurm_update error: " + std::string(kNoController) + "\n", 1};
    }
    if (!(*reply)["ok"].toBool()) {
        return {{}, (*reply)["error"].toString() + " for job " + jobIdText + "\n", 1};
    }
    return {};
}

Outcome updateNode(Context &ctx, const std::string &names,
    const std::vector<std::pair<std::string, std::string>> &pairs)
{
    std::string state;
    std::string reason;
    for (const auto &[key, value] : pairs) {
        if (equalsIgnoreCase(key, "State")) {
            state = toLower(value);
        } else if (equalsIgnoreCase(key, "Reason")) {
            reason = value;
        } else {
            return notSupported(kProgram, "scontrol update NodeName " + key + "=");
        }
    }
    if (state.empty()) {
        return {{}, "No changes specified\n", 1};
    }
    if (state == "undrain") {
        state = "resume";
    }
    if (state != "drain" && state != "resume" && state != "down" && state != "fail") {
        return notSupported(kProgram, "node State=" + state);
    }
    if (reason.empty() && (state == "drain" || state == "down" || state == "fail")) {
        return {
            {}, "You must specify a reason when DOWNING or DRAINING a node. Request denied\n", 1};
    }
    auto expanded = sched::expandHostlist(names);
    if (!expanded) {
        return {{}, "slurm_update error: Invalid node name specified\n", 1};
    }
    for (const auto &node : *expanded) {
        Json request = Json::object();
        request.set("op", "node_update");
        request.set("node", node);
        request.set("state", state);
        request.set("reason", reason);
        request.set("user", ctx.user.name);
        auto reply = call(ctx, request);
        if (!reply) {
            return {{}, "slurm_update error: " + std::string(kNoController) + "\n", 1};
        }
        if (!(*reply)["ok"].toBool()) {
            return {{}, "slurm_update error: " + (*reply)["error"].toString() + "\n", 1};
        }
    }
    return {};
}

std::string orNull(const std::string &text)
{
    return text.empty() ? "(null)" : text;
}

} // namespace

Outcome holdJobs(Context &ctx, HoldKind kind, const std::vector<std::string> &args)
{
    const std::string_view command = kind == HoldKind::Admin ? "hold"
        : kind == HoldKind::User                             ? "uhold"
                                                             : "release";
    JobIds ids = parseJobIds(args, command);
    if (ids.problem) {
        return *ids.problem;
    }
    Json request = Json::object();
    request.set("op", kind == HoldKind::Release ? "release" : "hold");
    request.set("job_ids", idList(ids.ids));
    request.set("user", ctx.user.name);
    if (kind != HoldKind::Release) {
        // `scontrol hold` by an operator is an admin hold; by the owner it is a user hold, as
        // `uhold` always is. The controller decides who is an operator.
        request.set("admin", kind == HoldKind::Admin);
    }
    auto reply = call(ctx, request);
    if (!reply) {
        return {{}, "slurm_suspend error: " + std::string(kNoController) + "\n", 1};
    }
    std::string lastError;
    std::string err = jobFailures(*reply, lastError);
    if (!(*reply)["ok"].toBool() && err.empty()) {
        lastError = (*reply)["error"].toString();
    }
    if (lastError.empty()) {
        return {};
    }
    return {{}, err + "slurm_suspend error: " + lastError + "\n", 1};
}

Outcome suspendJobs(Context &ctx, bool resume, const std::vector<std::string> &args)
{
    JobIds ids = parseJobIds(args, resume ? "resume" : "suspend");
    if (ids.problem) {
        return *ids.problem;
    }
    Json request = Json::object();
    request.set("op", resume ? "resume" : "suspend");
    request.set("job_ids", idList(ids.ids));
    request.set("user", ctx.user.name); // the controller decides who is an operator
    return perJobOutcome(ctx, request, "slurm_suspend");
}

Outcome operatorOnly(Context &ctx, std::string_view command, const std::vector<std::string> &args)
{
    JobIds ids = parseJobIds(args, command);
    if (ids.problem) {
        return *ids.problem;
    }
    // The operators, as the controller counts them (Controller::isAdmin).
    const std::string &user = ctx.user.name;
    if (user == "root" || user == "slurm" || user == "prof") {
        return notSupported(kProgram, std::string(command));
    }
    std::string err;
    for (const auto &id : ids.ids) {
        err += "Access/permission denied for job " + id + "\n";
    }
    return {{}, err, 1};
}

Outcome writeBatchScript(Context &ctx, const std::vector<std::string> &args)
{
    if (args.empty()) {
        return {}; // Slurm says nothing
    }
    const std::string &id = args.front();
    // Slurm's failures exit 0: scontrol does not set its exit code for them.
    auto failed = [](const std::string &why) {
        return Outcome{{}, "job script retrieval failed: " + why + "\n", 0};
    };
    const std::int64_t number = parseLeadingInteger(id);
    if (number <= 0) {
        return failed("Invalid job id specified");
    }
    Json request = Json::object();
    request.set("op", "job_scripts");
    request.set("user", ctx.user.name);
    request.set("live", true);
    Json ids = Json::array();
    ids.push(number);
    request.set("job_ids", std::move(ids));
    auto reply = call(ctx, request);
    if (!reply || !(*reply)["ok"].toBool()) {
        return failed(reply ? (*reply)["error"].toString() : std::string(kNoController));
    }
    const Json *script = nullptr;
    for (const auto &entry : (*reply)["scripts"].items()) {
        if (entry["job_id"].toInt() == number) {
            script = &entry;
        }
    }
    if (!script || !(*script)["script"].isString()) {
        const bool others = script && (*script)["user"].toString() != ctx.user.name;
        return failed(others ? "Invalid user id" : "Invalid job id specified");
    }
    const std::string text = (*script)["script"].toString();
    const std::string file = args.size() > 1 ? args[1] : "slurm-" + std::to_string(number) + ".sh";
    if (file == "-") {
        return {text, {}, 0};
    }
    std::ofstream stream(absolutePath(file, ctx.cwd), std::ios::trunc);
    stream << text;
    if (!stream.flush()) {
        return {{}, "failed to open file `" + file + "`: " + std::strerror(errno) + "\n", 1};
    }
    return {"batch script for job " + std::to_string(number) + " written to " + file + "\n", {}, 0};
}

Outcome listPids(Context &ctx, const std::vector<std::string> &args)
{
    if (ctx.getenv("SLURMD_NODENAME")) {
        return notSupported(kProgram, "listpids");
    }
    if (!args.empty() && parseLeadingInteger(args.front()) <= 0) {
        return {{}, "\"" + args.front() + "\" does not look like a jobid\n", 1};
    }
    std::string err = "No job steps exist on this node.\n";
    if (!args.empty()) {
        const std::string &id = args.front();
        err = (id.find('.') == std::string::npos ? "JobId=" : "StepId=") + id
            + " does not exist on node (null).\n";
    }
    return {"PID      JOBID    STEPID   LOCALID GLOBALID\n", err, 1};
}

Outcome requeueJobs(Context &ctx, bool hold, const std::vector<std::string> &args)
{
    JobIds ids = parseJobIds(args, hold ? "requeuehold" : "requeue");
    if (ids.problem) {
        return *ids.problem;
    }
    Json request = Json::object();
    request.set("op", "requeue");
    request.set("job_ids", idList(ids.ids));
    request.set("user", ctx.user.name);
    request.set("hold", hold);
    return perJobOutcome(ctx, request, "slurm_requeue");
}

Outcome update(Context &ctx, const std::vector<std::string> &args)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    std::string jobId;
    std::string nodeNames;
    for (const auto &arg : args) {
        const std::size_t eq = arg.find('=');
        if (eq == std::string::npos) {
            return {{}, "Invalid input: " + arg + "\nRequest aborted\n", 1};
        }
        const std::string key = arg.substr(0, eq);
        const std::string value = arg.substr(eq + 1);
        if (equalsIgnoreCase(key, "JobId")) {
            jobId = value;
        } else if (equalsIgnoreCase(key, "NodeName")) {
            nodeNames = value;
        } else {
            pairs.emplace_back(key, value);
        }
    }
    if (!jobId.empty()) {
        return updateJob(ctx, jobId, pairs);
    }
    if (!nodeNames.empty()) {
        return updateNode(ctx, nodeNames, pairs);
    }
    static constexpr std::array kOtherEntities{"PartitionName", "ReservationName", "FrontendName",
        "SuspendExcNodes", "SuspendExcParts", "SuspendExcStates", "StepId"};
    for (const auto &[key, value] : pairs) {
        for (const char *entity : kOtherEntities) {
            if (equalsIgnoreCase(key, entity)) {
                return notSupported(kProgram, "scontrol update " + std::string(entity) + "=");
            }
        }
    }
    if (args.empty()) {
        return {{}, "too few arguments for keyword:update\n", 1};
    }
    return {{},
        "No valid entity in update command\nInput line must include \"NodeName\", "
        "\"PartitionName\", \"Reservation\", \"JobId\", \"SuspendExcNodes\", "
        "\"SuspendExcParts\", \"SuspendExcStates\" or \"StepId\"\n",
        1};
}

Outcome showSteps(Context &ctx, bool oneLiner, const std::vector<std::string> &args)
{
    Json request = Json::object();
    request.set("op", "steps");
    Json ids = Json::array();
    std::string wantedStep;
    for (const auto &arg : args) {
        std::string_view rest;
        const std::int64_t id = parseLeadingInteger(arg, &rest);
        if (id <= 0 || (!rest.empty() && rest.front() != '.')) {
            return {{}, "Invalid job id specified\n", 1};
        }
        ids.push(id);
        if (!rest.empty()) {
            // Slurm 22.05's scontrol reads the step with strtol(): "12.interactive" and
            // "12.batch" ask for step 0, and only 12.4294967290 names the interactive step.
            wantedStep = record::stepIdText(
                static_cast<std::uint32_t>(parseLeadingInteger(rest.substr(1))));
        }
    }
    if (ids.size() > 0) {
        request.set("job_ids", std::move(ids));
    }
    auto reply = call(ctx, request);
    if (!reply) {
        return {{}, "slurm_get_job_steps error: " + std::string(kNoController) + "\n", 1};
    }
    if (!(*reply)["ok"].toBool()) {
        return {{}, "slurm_get_job_steps error: " + (*reply)["error"].toString() + "\n", 1};
    }
    const std::string separator = oneLiner ? " " : "\n   ";
    std::string out;
    for (const auto &item : (*reply)["steps"].items()) {
        const record::StepObject step = record::stepObjectFromJson(item);
        const std::string &stepId = step.stepId;
        if (!wantedStep.empty() && stepId != wantedStep) {
            continue;
        }
        // Slurm's interactive step counts no CPUs of its own and has no task layout.
        const bool interactive = stepId == "interactive";
        const std::int64_t cpus = interactive ? 0 : step.numCpus.value_or(1);
        const std::int64_t start = step.startTime;
        const std::vector<std::string> &nodes = step.nodes;
        const std::int64_t limit = step.timeLimit.value_or(sched::kInfinite);
        out += "StepId=" + std::to_string(step.jobId) + "." + stepId
            + " UserId=" + std::to_string(step.uid) + " StartTime=" + sched::formatTimestamp(start)
            + " TimeLimit=" + sched::formatHms(limit) + separator + "State="
            + step.state.value_or("RUNNING") + " Partition=" + step.partition + " NodeList="
            + sched::compressHostlist(nodes) + separator + "Nodes=" + std::to_string(nodes.size())
            + " CPUs=" + std::to_string(cpus) + " Tasks=" + std::to_string(step.ntasks.value_or(1))
            + " Name=" + step.name.value_or("") + " Network=(null)" + separator
            + "TRES=" + orNull(step.tres) + separator + "ResvPorts=(null)" + separator
            + (interactive ? "CPUFreqReq=Default" : "CPUFreqReq=Default Dist=Block") + separator
            + "SrunHost:Pid=" + step.srunHost.value_or("(null)") + ":"
            + std::to_string(step.srunPid) + "\n";
        if (!oneLiner) {
            out += "\n";
        }
    }
    if (out.empty() && !args.empty()) {
        // Slurm's answer for a job it does not know, else for a step the job does not have
        // ("Job step 12. not found" when no step was named).
        Json jobs = Json::object();
        jobs.set("op", "jobs");
        jobs.set("job_ids", request["job_ids"]);
        auto known = call(ctx, jobs);
        if (known && (*known)["ok"].toBool() && (*known)["jobs"].size() == 0) {
            return {{}, "slurm_get_job_steps error: Invalid job id specified\n", 1};
        }
        // The step as scontrol read it (12.interactive is looked for as 12.0).
        return {"Job step " + std::to_string(parseLeadingInteger(args.front())) + "." + wantedStep
                + " not found\n",
            {}, 1};
    }
    if (out.empty()) {
        return {"No job steps in the system\n", {}, 0};
    }
    return {out, {}, 0};
}

Outcome showAssocManager(Context &ctx, const std::vector<std::string> &args)
{
    std::optional<std::vector<std::string>> wanted;
    std::string flags;
    for (const std::string &arg : args) {
        const std::size_t eq = arg.find('=');
        const std::string key = arg.substr(0, eq);
        const std::string value = eq == std::string::npos ? std::string() : arg.substr(eq + 1);
        if (equalsIgnoreCase(key, "users")) {
            wanted = splitList(value);
        } else if (equalsIgnoreCase(key, "flags")) {
            flags = value;
        } else {
            return notSupported(kProgram, "show assoc_mgr " + key + "=");
        }
    }
    if (!equalsIgnoreCase(flags, "users")) {
        return notSupported(kProgram, "show assoc_mgr without flags=users");
    }
    std::vector<sched::SiteUser> users{sched::SiteUser{"root", 0, 0, "root", {"root"}, {}}};
    if (auto text = ctx.readSiteConf ? ctx.readSiteConf() : std::nullopt) {
        const auto site = sched::parseSiteUsers(*text);
        users.insert(users.end(), site.users.begin(), site.users.end());
    }
    std::sort(users.begin(), users.end(),
        [](const sched::SiteUser &a, const sched::SiteUser &b) { return a.name < b.name; });
    std::string out = "Current Association Manager state\n\nUser Records\n\n";
    for (const sched::SiteUser &user : users) {
        if (wanted && std::find(wanted->begin(), wanted->end(), user.name) == wanted->end()) {
            continue;
        }
        out += "UserName=" + user.name + "(" + std::to_string(user.uid)
            + ") DefAccount=" + user.defaultAccount
            + " DefWckey= AdminLevel=" + (user.name == "root" ? "Administrator" : "None") + "\n";
    }
    return {out, {}, 0};
}

} // namespace mc::cmd::scontrol
