#include "mc/cmd/scancel.h"

#include "../shared/help_texts.h"
#include "../shared/outcome.h"
#include "../shared/text.h"
#include "mc/record/job_object.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "mc/sched/job_state.h"
#include "scancel_options.h"

#include <algorithm>
#include <csignal>
#include <ostream>

namespace mc::cmd {
namespace {

using namespace scancel;
using proto::Json;
using record::JobObject;
using sched::JobState;

constexpr std::string_view kProgram = "scancel";

// Slurm's error numbers that scancel tells apart; the exit status is the number modulo 256.
constexpr std::int64_t kConnectionError = 1001; // SLURM_COMMUNICATIONS_CONNECTION_ERROR
constexpr std::int64_t kAccessDenied = 2002; // ESLURM_ACCESS_DENIED
constexpr std::int64_t kInvalidJobId = 2017; // ESLURM_INVALID_JOB_ID
constexpr std::int64_t kAlreadyDone = 2021; // ESLURM_ALREADY_DONE
constexpr std::int64_t kNoUpdate = 2020; // ESLURM_TRANSITION_STATE_NO_UPDATE

// A job step as scancel names it: "36.0", "36_2.1" (its job as given, the step's number).
struct StepName {
    std::string job;
    std::int64_t step = 0;
};

struct Settings {
    std::optional<std::string> account, name, partition, qos, userName, nodelist;
    std::optional<JobState> state;
    std::optional<int> signal;
    bool batch = false; // -b: the batch shell alone
    bool full = false; // -f: the batch shell, its children and the steps
    int verbose = 0;
    std::vector<std::string> jobIds; // as given: "36", "36_2", "36_[1-3]"
    std::vector<StepName> steps; // JOB.STEP

    bool hasFilter() const
    {
        return account || name || partition || qos || userName || nodelist || state;
    }
};

std::int64_t errnoOf(const Json &result)
{
    if (result["errno"].isInt()) {
        return result["errno"].toInt();
    }
    const std::string message = result["error"].toString();
    if (message == "Invalid job id specified") {
        return kInvalidJobId;
    }
    if (message == "Access/permission denied") {
        return kAccessDenied;
    }
    if (message == "Job/step already completing or completed") {
        return kAlreadyDone;
    }
    return 1;
}

std::optional<Outcome> apply(Settings &s, const ParsedOption &option, const Context &ctx)
{
    const OptionDef &def = *option.def;
    const std::string value = option.value.value_or("");
    switch (def.id) {
    case kHelp:
        return Outcome{std::string(scancelHelp()), {}, 0};
    case kUsage:
        return Outcome{std::string(scancelUsage()), {}, 0};
    case kVersion:
        return Outcome{std::string(kSlurmVersion), {}, 0};
    case kAccount:
        s.account = toLower(value);
        break;
    case kName:
        s.name = value;
        break;
    case kMe:
        s.userName = std::to_string(ctx.user.uid);
        break;
    case kNodelist:
        s.nodelist = value;
        break;
    case kPartition:
        s.partition = value;
        break;
    case kQos:
        s.qos = toLower(value);
        break;
    case kQuiet:
        s.verbose = -1;
        break;
    case kBatch:
        s.batch = true;
        break;
    case kFull:
        s.full = true;
        break;
    case kSignal:
        s.signal = signalNumber(value);
        if (!s.signal) {
            return Outcome{{}, "Unknown job signal: " + value + "\n", 1};
        }
        break;
    case kState:
        s.state = sched::parseJobState(value);
        if (!s.state) {
            return Outcome{{},
                "Invalid job state specified: " + value
                    + "\nValid job states are PENDING, RUNNING, and SUSPENDED\n",
                1};
        }
        break;
    case kUser:
        s.userName = value;
        break;
    case kVerbose:
        ++s.verbose;
        break;
    default:
        break; // --ctld, --hurry: nothing to do here
    }
    return std::nullopt;
}

// "36.0" or "36_2.0": a job (or one array task) and a step number. Slurm's scancel takes
// only a number after the dot ("36.batch" is an invalid job id).
std::optional<StepName> parseStepName(const std::string &word)
{
    const auto dot = word.find('.');
    if (dot == std::string::npos) {
        return std::nullopt;
    }
    const std::string job = word.substr(0, dot);
    const std::string step = word.substr(dot + 1);
    const auto spec = sched::parseJobIdSpec(job);
    if (!spec || spec->tasks.size() > 1 || job.find('[') != std::string::npos || step.empty()
        || step.size() > 9
        || !std::all_of(step.begin(), step.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    return StepName{job, parseLeadingInteger(step)};
}

// Job ids as scancel reads them: "36", "36,37", array tasks "36_2" and "36_[1-3,5]" (a
// comma inside brackets belongs to the task list), and job steps "36.0", "36_2.0".
std::optional<Outcome> readJobIds(Settings &s, const std::vector<std::string> &operands)
{
    for (const auto &operand : operands) {
        for (const std::string &word : splitJobIdList(operand)) {
            if (word.find('.') != std::string::npos) {
                auto step = parseStepName(word);
                if (!step) {
                    return Outcome{{}, errorLine(kProgram, "Invalid job id " + operand), 1};
                }
                s.steps.push_back(std::move(*step));
                continue;
            }
            if (!sched::parseJobIdSpec(word)) {
                return Outcome{{}, errorLine(kProgram, "Invalid job id " + operand), 1};
            }
            s.jobIds.push_back(word);
        }
    }
    return std::nullopt;
}

// Whether `job` (a record of the jobs reply) is one that `word` names: its id, its array's id,
// or one of the tasks named.
bool names(const std::string &word, const JobObject &job)
{
    const auto spec = sched::parseJobIdSpec(word);
    if (!spec) {
        return false;
    }
    const auto id = static_cast<std::uint32_t>(job.jobId);
    const auto array = static_cast<std::uint32_t>(job.arrayJobId);
    if (spec->tasks.empty()) {
        return id == spec->job || array == spec->job;
    }
    if (array != spec->job) {
        return false;
    }
    // A started task has its id; the array's pending record lists the rest ("3-10%2").
    const auto held = sched::parseArraySpec(job.arrayTaskStr);
    std::vector<std::uint32_t> tasks = held ? held->taskIds : std::vector<std::uint32_t>{};
    if (job.arrayTaskId && !held) {
        tasks = {static_cast<std::uint32_t>(*job.arrayTaskId)};
    }
    return std::any_of(tasks.begin(), tasks.end(), [&](std::uint32_t t) {
        return std::binary_search(spec->tasks.begin(), spec->tasks.end(), t);
    });
}

bool isActive(JobState state)
{
    return state == JobState::Pending || state == JobState::Running || state == JobState::Suspended;
}

bool matches(const Settings &s, const JobObject &job, std::uint32_t uid)
{
    auto state = sched::parseJobState(job.state);
    if (!state || !isActive(*state)) {
        return false;
    }
    if ((s.account && job.account != *s.account) || (s.name && job.name != *s.name)
        || (s.partition && job.partition != *s.partition)
        || (s.qos && job.qos.value_or("") != *s.qos) || (s.state && *state != *s.state)
        || (s.userName && job.uid != uid)) {
        return false;
    }
    if (s.nodelist) {
        const auto wanted = sched::expandHostlist(*s.nodelist).value_or(std::vector<std::string>{});
        const auto &nodes = job.nodes;
        return std::any_of(nodes.begin(), nodes.end(), [&](const std::string &n) {
            return std::find(wanted.begin(), wanted.end(), n) != wanted.end();
        });
    }
    return true;
}

std::string filterSummary(const Settings &s)
{
    std::string summary;
    auto add = [&summary](std::string_view key, const std::optional<std::string> &value) {
        if (value) {
            summary += std::string(key) + "=" + *value + " ";
        }
    };
    add("account", s.account);
    add("job_name", s.name);
    add("nodelist", s.nodelist);
    add("partition", s.partition);
    add("qos", s.qos);
    if (s.state) {
        summary += "state=" + std::string(sched::longName(*s.state)) + " ";
    }
    add("user_name", s.userName);
    return summary;
}

// scancel JOB.STEP: one step_signal request. Slurm's answers, as real scancel 22.05 prints
// them: a job that is not there (unknown, or ended) is an error even without -v, naming the
// step (-Q hides it), and exits 1; an error about a job that is there (no such step, another
// user's job: the reply names the job) names the job alone, -Q or not, and exits with its
// error number; a pending job's step is a silent success.
void cancelStep(
    const Context &ctx, const Settings &s, const StepName &step, std::string &err, std::int64_t &rc)
{
    const std::string name = step.job + "." + std::to_string(step.step);
    const int signal = s.signal.value_or(SIGKILL);
    if (s.verbose > 0) {
        err += "scancel: "
            + (signal == SIGKILL ? "Terminating step " + name
                                 : "Signal " + std::to_string(signal) + " to step " + name)
            + "\n";
    }
    Json request = Json::object();
    request.set("op", "step_signal");
    request.set("job", step.job);
    request.set("step_id", step.step);
    request.set("signal", signal);
    request.set("user", ctx.user.name);
    const auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    std::int64_t code = kConnectionError;
    std::string message = "Unable to contact slurm controller (connect failure)";
    if (reply && (*reply)["ok"].toBool()) {
        return;
    }
    if (reply) {
        code = errnoOf(*reply);
        message = (*reply)["error"].toString();
    }
    if (reply && (*reply)["job_id"].isNumber()) {
        err += errorLine(kProgram,
            "Kill job error on job step id " + std::to_string((*reply)["job_id"].toInt()) + ": "
                + message);
        rc = std::max(rc, code);
        return;
    }
    if (s.verbose >= 0) {
        err += errorLine(kProgram, "Kill job error on job step id " + name + ": " + message);
    }
    rc = std::max<std::int64_t>(rc, reply ? 1 : code);
}

} // namespace

int Scancel::run()
{
    Settings s;
    auto fromEnv = [this](std::string_view name) {
        return m_ctx.getenv(name);
    };
    if (auto v = fromEnv("SCANCEL_ACCOUNT")) {
        s.account = toLower(*v);
    }
    s.name = fromEnv("SCANCEL_NAME");
    s.partition = fromEnv("SCANCEL_PARTITION");
    if (auto v = fromEnv("SCANCEL_QOS")) {
        s.qos = toLower(*v);
    }
    if (auto v = fromEnv("SCANCEL_STATE")) {
        s.state = sched::parseJobState(*v);
        if (!s.state) {
            return deliver(m_ctx,
                Outcome{{},
                    "Unrecognized SCANCEL_STATE value: " + *v
                        + "\nValid job states are PENDING, RUNNING, and SUSPENDED\n",
                    1});
        }
    }
    s.userName = fromEnv("SCANCEL_USER");
    if (auto v = fromEnv("SCANCEL_VERBOSE")) {
        s.verbose = (equalsIgnoreCase(*v, "true") || equalsIgnoreCase(*v, "T")) ? 1 : 0;
    }

    const ParseResult cli = parseOptions(optionTable(), m_ctx.args, kProgram);
    if (auto end = applyOptions(
            cli, kProgram, [&](const ParsedOption &option) { return apply(s, option, m_ctx); })) {
        return deliver(m_ctx, *end);
    }
    if (auto end = readJobIds(s, cli.operands)) {
        return deliver(m_ctx, *end);
    }
    std::uint32_t uid = 0;
    if (s.userName) {
        auto user = m_ctx.lookupUser ? m_ctx.lookupUser(*s.userName) : std::nullopt;
        if (!user) {
            return deliver(
                m_ctx, Outcome{{}, errorLine(kProgram, "Invalid user name: " + *s.userName), 1});
        }
        uid = user->uid;
    }
    if (!s.hasFilter() && s.jobIds.empty() && s.steps.empty()) {
        return deliver(
            m_ctx, Outcome{{}, errorLine(kProgram, "No job identification provided"), 1});
    }

    std::string err;
    std::int64_t rc = 0;
    auto say = [&](std::string_view line) {
        if (s.verbose >= 0) {
            err += line;
        }
    };
    std::vector<std::string> targets = s.jobIds;
    // Steps first, each a request of its own, as Slurm's scancel asks for each.
    for (const StepName &step : s.steps) {
        cancelStep(m_ctx, s, step, err, rc);
    }
    if (s.jobIds.empty() && !s.hasFilter()) {
        return deliver(m_ctx, Outcome{{}, err, static_cast<int>(rc % 256)});
    }
    // Pending jobs have no process to signal: Slurm refuses any signal but SIGKILL to them.
    std::vector<std::string> unsignallable;
    if (s.hasFilter() || s.signal) {
        // Slurm loads the jobs first, drops ids it does not know, then filters.
        Json query = Json::object();
        query.set("op", "jobs");
        auto jobs = m_ctx.controller ? m_ctx.controller(query) : std::nullopt;
        if (!jobs || !(*jobs)["ok"].toBool()) {
            return deliver(m_ctx,
                Outcome{{},
                    "slurm_load_jobs error: "
                        + (jobs ? (*jobs)["error"].toString()
                                : "Unable to contact slurm controller (connect failure)")
                        + "\n",
                    1});
        }
        // Each job to signal, as it is named: its id, or the tasks asked for ("12_3").
        std::vector<std::string> pending, others;
        std::vector<std::string> known;
        for (const auto &item : (*jobs)["jobs"].items()) {
            const JobObject job = record::jobObjectFromJson(item);
            const auto word = std::find_if(s.jobIds.begin(), s.jobIds.end(),
                [&job](const std::string &w) { return names(w, job); });
            auto state = sched::parseJobState(job.state);
            if ((!s.jobIds.empty() && word == s.jobIds.end()) || !state
                || sched::isFinished(*state)) {
                continue;
            }
            const bool tasks = word != s.jobIds.end() && word->find('_') != std::string::npos;
            if (word != s.jobIds.end()) {
                known.push_back(*word);
            }
            if (!s.hasFilter() || matches(s, job, uid)) {
                auto &list = *state == JobState::Pending ? pending : others;
                const std::string target = tasks ? *word : std::to_string(job.jobId);
                if (std::find(list.begin(), list.end(), target) == list.end()) {
                    list.push_back(target);
                }
            }
        }
        for (const auto &word : s.jobIds) {
            if (std::find(known.begin(), known.end(), word) == known.end()) {
                say(errorLine(
                    kProgram, "Kill job error on job id " + word + ": Invalid job id specified"));
                rc = std::max<std::int64_t>(rc, 1);
            }
        }
        targets.clear();
        if (s.signal && *s.signal != SIGKILL) {
            unsignallable = std::move(pending);
            pending.clear();
        }
        for (const auto *list : {&pending, &others}) {
            for (const std::string &target : *list) {
                if (std::find(targets.begin(), targets.end(), target) == targets.end()) {
                    targets.push_back(target);
                }
            }
        }
        if (targets.empty() && s.hasFilter() && s.verbose > 0) {
            err += errorLine(
                kProgram, "No active jobs match ALL job filters, including: " + filterSummary(s));
        }
    }

    std::optional<Json> reply;
    if (!targets.empty()) {
        Json request = Json::object();
        request.set("op", "cancel");
        Json ids = Json::array();
        for (const auto &target : targets) { // a job id as a number, array tasks as named
            if (target.find('_') == std::string::npos) {
                ids.push(parseLeadingInteger(target));
            } else {
                ids.push(target);
            }
        }
        request.set("job_ids", std::move(ids));
        request.set("user", m_ctx.user.name);
        if (s.signal) {
            request.set("signal", *s.signal);
        }
        // Who gets a signal other than SIGKILL (man scancel): the steps only by default (the
        // controller's default too), the batch shell alone with --batch, the batch shell, its
        // children and the steps with --full (which wins over --batch).
        if (s.full || s.batch) {
            request.set("scope", s.full ? "full" : "batch");
        }
        reply = m_ctx.controller ? m_ctx.controller(request) : std::nullopt;
    }
    const int signal = s.signal.value_or(SIGKILL);
    for (const auto &idText : unsignallable) {
        err += errorLine(kProgram,
            "Kill job error on job id " + idText + ": Job can not be altered now, try again later");
        rc = std::max(rc, kNoUpdate);
    }
    for (const auto &idText : targets) {
        if (s.verbose > 0) {
            err += "scancel: "
                + (s.signal ? "Signal " + std::to_string(signal) + " to job " + idText
                            : "Terminating job " + idText)
                + "\n";
        }
        std::int64_t code = 0;
        std::string message;
        if (!reply) {
            code = kConnectionError;
            message = "Unable to contact slurm controller (connect failure)";
        } else if (!(*reply)["ok"].toBool()) {
            code = errnoOf(*reply);
            message = (*reply)["error"].toString();
        } else {
            for (const auto &result : (*reply)["results"].items()) {
                const std::string named = result["job"].isString()
                    ? result["job"].toString()
                    : std::to_string(result["job_id"].toInt());
                if (named == idText) {
                    code = errnoOf(result);
                    message = result["error"].toString();
                }
            }
        }
        if (code == 0) {
            continue;
        }
        const bool expected = code == kAlreadyDone || code == kInvalidJobId;
        if (s.verbose > 0 || !expected) { // -Q hides only the two expected errors
            err += errorLine(kProgram, "Kill job error on job id " + idText + ": " + message);
        }
        rc = std::max(rc, (expected && signal == SIGKILL) ? 0 : code);
    }
    return deliver(m_ctx, Outcome{{}, err, static_cast<int>(rc % 256)});
}

} // namespace mc::cmd
