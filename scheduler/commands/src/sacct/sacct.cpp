#include "mc/cmd/sacct.h"

#include "../shared/help_texts.h"
#include "../shared/json_commands.h"
#include "../shared/json_out.h"
#include "../shared/text.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_state.h"
#include "mc/sched/time_format.h"
#include "sacct_fields.h"
#include "sacct_options.h"
#include "sacct_select.h"
#include "sacct_settings.h"

#include <algorithm>
#include <array>
#include <ctime>
#include <ostream>

namespace mc::cmd {
namespace {

using namespace sacct;
using proto::Json;
using sched::JobState;

constexpr std::string_view kProgram = "sacct";
constexpr std::string_view kDefaultFields
    = "jobid,jobname,partition,account,alloccpus,state,exitcode";
constexpr std::string_view kBriefFields = "jobid,state,exitcode";
// sacct -l, as Slurm 22.05's sacct.h LONG_FIELDS.
constexpr std::string_view kLongFields
    = "jobid,jobidraw,jobname,partition,maxvmsize,maxvmsizenode,maxvmsizetask,avevmsize,maxrss,"
      "maxrssnode,maxrsstask,averss,maxpages,maxpagesnode,maxpagestask,avepages,mincpu,"
      "mincpunode,mincputask,avecpu,ntasks,alloccpus,elapsed,state,exitcode,avecpufreq,"
      "reqcpufreqmin,reqcpufreqmax,reqcpufreqgov,reqmem,consumedenergy,maxdiskread,"
      "maxdiskreadnode,maxdiskreadtask,avediskread,maxdiskwrite,maxdiskwritenode,"
      "maxdiskwritetask,avediskwrite,reqtres,alloctres,tresusageinave,tresusageinmax,"
      "tresusageinmaxn,tresusageinmaxt,tresusageinmin,tresusageinminn,tresusageinmint,"
      "tresusageintot,tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt,tresusageoutave,"
      "tresusageouttot";

std::int64_t midnight(std::int64_t now)
{
    const auto t = static_cast<std::time_t>(now);
    std::tm local{};
    localtime_r(&t, &local);
    local.tm_hour = 0;
    local.tm_min = 0;
    local.tm_sec = 0;
    local.tm_isdst = -1;
    return static_cast<std::int64_t>(std::mktime(&local));
}

std::string ctimeText(std::int64_t epoch)
{
    const auto t = static_cast<std::time_t>(epoch);
    std::tm local{};
    localtime_r(&t, &local);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, "%a %b %d %H:%M:%S %Y", &local);
    return buffer;
}

// The job members the fields of the usual formats read (sacct_fields.cpp), so that an `acct`
// request can name them (`fields`) and 5,000 queued jobs travel as a few members each. A field
// not listed here reads an unknown set: the request then names none and gets whole objects.
using M = record::JobMember;
struct FieldMembers {
    std::string_view field;
    std::vector<M> members;
};
const std::array kFieldMembers{
    FieldMembers{"JobID", {M::JobId, M::ArrayJobId, M::ArrayTaskId, M::ArrayTaskStr}},
    FieldMembers{"JobIDRaw", {M::JobId}},
    FieldMembers{"JobName", {M::Name}},
    FieldMembers{"Partition", {M::Partition}},
    FieldMembers{"Account", {M::Account}},
    FieldMembers{"AllocCPUS", {M::NumCpus}},
    FieldMembers{"State", {M::State, M::CancelledBy}},
    FieldMembers{"ExitCode", {M::ExitCode, M::ExitSignal}},
    FieldMembers{"DerivedExitCode", {}},
    FieldMembers{"Elapsed", {M::StartTime, M::EndTime, M::Suspended, M::SuspendTime}},
    FieldMembers{"Suspended", {M::Suspended, M::SuspendTime}},
    FieldMembers{"Start", {M::StartTime}},
    FieldMembers{"End", {M::EndTime}},
    FieldMembers{"Submit", {M::SubmitTime, M::StartTime}},
    FieldMembers{"User", {M::User}},
    FieldMembers{"NodeList", {M::Nodes}},
    FieldMembers{"TotalCPU", {}},
    FieldMembers{"MaxRSS", {}},
    FieldMembers{"AveRSS", {}},
    FieldMembers{"Comment", {M::Comment}},
    FieldMembers{"Cluster", {}},
    FieldMembers{"Group", {M::Group, M::Gid, M::User}},
    FieldMembers{"Reason", {M::Reason}},
};

// What selected(), inWindow() and the step rows read.
constexpr std::array kSelectionMembers{M::JobId, M::ArrayJobId, M::ArrayTaskId, M::User, M::Account,
    M::Name, M::Partition, M::Nodes, M::EligibleTime, M::SubmitTime, M::StartTime, M::EndTime,
    M::State, M::Steps};

// Every member the columns and the selection read (the nodes only for -N, `byNodes`); nullopt
// when a column is not in kFieldMembers. `steps` only when step rows are printed (not -X) or a
// job row's column sums them.
std::optional<std::vector<M>> membersRead(
    const std::vector<Column> &columns, bool allocations, bool byNodes)
{
    std::vector<M> members(kSelectionMembers.begin(), kSelectionMembers.end());
    const bool stepsRead
        = !allocations || std::any_of(columns.begin(), columns.end(), [](const Column &c) {
              return c.field->name == "TotalCPU" || c.field->name == "DerivedExitCode";
          });
    if (!stepsRead) {
        std::erase(members, M::Steps);
    }
    if (!byNodes) {
        std::erase(members, M::Nodes);
    }
    for (const auto &column : columns) {
        auto entry = std::find_if(kFieldMembers.begin(), kFieldMembers.end(),
            [&column](const FieldMembers &e) { return e.field == column.field->name; });
        if (entry == kFieldMembers.end()) {
            return std::nullopt;
        }
        for (auto member : entry->members) {
            if (std::find(members.begin(), members.end(), member) == members.end()) {
                members.push_back(member);
            }
        }
    }
    return members;
}

// The keys of membersRead() with the nodes, which the request names either way; empty when a
// column is not in kFieldMembers.
std::vector<std::string> requestedKeys(const std::vector<Column> &columns, bool allocations)
{
    std::vector<std::string> keys;
    if (const auto members = membersRead(columns, allocations, true)) {
        for (const auto member : *members) {
            keys.emplace_back(record::jobMemberKey(member));
        }
    }
    return keys;
}

// sacct -B / --env-vars (Slurm 22.05's _print_script, _print_env): per job, a title, 80
// dashes, the kept script or environment (AccountingStoreFlags=job_script / job_env) or
// NONE, and an empty line.
Outcome keptScripts(const Settings &s, const Context &ctx)
{
    if (s.batchScript && s.envVars) {
        return fatal("Options --batch-script and --env-vars are mutually exclusive");
    }
    if (s.jobs.empty()) {
        return fatal(s.batchScript
                ? "When requesting job scripts you must also request specific jobs with the "
                  "'-j' option."
                : "When requesting job environment you must also request specific jobs with "
                  "the '-j' option.");
    }
    Json request = Json::object();
    request.set("op", "job_scripts");
    request.set("user", ctx.user.name);
    Json ids = Json::array();
    for (const auto &job : s.jobs) {
        ids.push(job.id);
    }
    request.set("job_ids", std::move(ids));
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    if (!reply || !(*reply)["ok"].toBool()) {
        return Outcome{{},
            errorLine(kProgram,
                "Problem talking to the database: "
                    + (reply ? (*reply)["error"].toString()
                             : "Unable to contact slurm controller (connect failure)")),
            1};
    }
    std::string out;
    for (const auto &entry : (*reply)["scripts"].items()) {
        const record::JobObject job = record::jobObjectFromJson(entry); // its ids
        std::string id = std::to_string(job.jobId);
        if (job.arrayTaskId) {
            id = std::to_string(job.arrayJobId) + "_" + std::to_string(*job.arrayTaskId);
        }
        std::string text;
        if (s.batchScript && entry["script"].isString()) {
            text = entry["script"].toString();
        } else if (s.envVars && entry["env"].isArray()) {
            for (const auto &var : entry["env"].toStringList()) {
                text += var + "\n";
            }
        } else {
            text = "NONE\n";
        }
        out += (s.batchScript ? "Batch Script for " + id
                              : "Environment used for " + id + " (must be batch to display)")
            + "\n" + std::string(80, '-') + "\n" + text + "\n";
    }
    return Outcome{std::move(out), {}, 0};
}

} // namespace

int Sacct::run()
{
    auto finish = [this](const Outcome &outcome) {
        *m_ctx.out << outcome.out;
        *m_ctx.err << outcome.err;
        return outcome.exitCode;
    };
    Settings s;
    const ParseResult cli = parseOptions(optionTable(), m_ctx.args, kProgram);
    for (const auto &option : cli.options) {
        if (auto end = apply(s, option, m_ctx)) {
            return finish(*end); // --help, --version, a bad value: no word with the controller
        }
    }
    if (!cli.ok()) {
        return finish(Outcome{{}, cli.error, 1});
    }
    // Its "now" (the default -S and -E, -S now-1hour, a running job's Elapsed) is the cluster's:
    // the options are read again against it.
    if (const std::int64_t now = s.help == Settings::Help::None ? clusterNow(m_ctx) : m_ctx.now;
        now != m_ctx.now) {
        m_ctx.now = now;
        s = Settings{};
        for (const auto &option : cli.options) {
            if (auto end = apply(s, option, m_ctx)) {
                return finish(*end);
            }
        }
    }

    // Slurm's slurmdb_job_cond_def_start_end().
    const bool byJob = !s.jobs.empty();
    if (!s.states.empty()) {
        if (!s.start && !byJob) {
            s.start = m_ctx.now;
        }
        if (s.start && !s.end) {
            s.end = s.start;
        }
    } else if (!byJob && !s.start) {
        s.start = midnight(m_ctx.now);
    }
    const std::int64_t start = s.start.value_or(0);
    const std::int64_t end = s.end.value_or(m_ctx.now);
    if (s.end && start > end) {
        return finish(Outcome{{},
            errorLine(kProgram,
                "Start time (" + sched::formatTimestamp(start) + ") requested is after end time ("
                    + sched::formatTimestamp(end) + ")."),
            1});
    }
    if ((!s.users || s.users->empty()) && byJob) {
        s.allUsers = true;
    }
    if (!s.users && m_ctx.user.uid == 0) {
        s.allUsers = true;
    }
    if (s.allUsers) {
        s.users.reset();
    } else if (!s.users) {
        s.users = std::vector<std::string>{m_ctx.user.name};
    }

    std::string fields = s.fieldList;
    if (s.brief) {
        fields += std::string(kBriefFields) + ",";
    }
    if (s.longFormat) {
        fields += std::string(kLongFields) + ",";
    }
    if (fields.empty()) {
        fields = m_ctx.getenv("SACCT_FORMAT").value_or(std::string(kDefaultFields));
    }
    const ColumnsOrError columns = parseFieldList(fields);
    if (columns.unknown) {
        return finish(Outcome{
            {}, errorLine(kProgram, "Invalid field requested: \"" + *columns.unknown + "\""), 1});
    }
    if (!cli.operands.empty()) {
        std::string err = errorLine(kProgram, "Unknown arguments:");
        for (const auto &operand : cli.operands) {
            err += errorLine(kProgram, " " + operand);
        }
        return finish(Outcome{{}, err, 1});
    }
    switch (s.help) {
    case Settings::Help::Help:
        return finish(Outcome{std::string(sacctHelp()), {}, 0});
    case Settings::Help::Fields:
        return finish(Outcome{helpFormat(), {}, 0});
    case Settings::Help::Usage:
        return finish(Outcome{std::string(sacctUsage()), {}, 0});
    case Settings::Help::None:
        break;
    }
    if (s.batchScript || s.envVars) {
        return finish(keptScripts(s, m_ctx));
    }
    if (auto data = dataFormat(cli, kJson, kYaml)) {
        return finish(sacctJson(m_ctx, s, start, end, *data));
    }

    std::string err;
    if (s.verbose > 0) {
        std::string states = "Eligible";
        if (!s.states.empty()) {
            states.clear();
            for (auto state : s.states) {
                if (!states.empty()) {
                    states += ',';
                }
                states += sched::longName(state);
            }
        }
        const std::string from = start > 0 ? ctimeText(start) : std::string("Epoch 0");
        err += from == ctimeText(end)
            ? "sacct: Jobs " + states + " at the time instant " + from + "\n"
            : "sacct: Jobs " + states + " in the time window from " + from + " to " + ctimeText(end)
                + "\n";
    }
    std::string out = s.noHeader ? std::string() : renderHeader(columns.columns, s.layout);

    Json request = Json::object();
    request.set("op", "acct");
    request.set("users", proto::stringList(s.users.value_or(std::vector<std::string>{})));
    Json ids = Json::array();
    for (const auto &job : s.jobs) {
        ids.push(job.id);
    }
    request.set("job_ids", std::move(ids));
    request.set("since", start);
    if (auto keys = requestedKeys(columns.columns, s.allocations); !keys.empty()) {
        request.set("fields", proto::stringList(keys));
        request.set("form", "rows"); // a controller that does not know it sends `jobs`
    }
    // The reply is read as a table of cells, without a Json tree (thousands of jobs).
    std::optional<proto::RowTable> table;
    if (m_ctx.controllerText) {
        if (auto text = m_ctx.controllerText(request)) {
            table = proto::RowTable::parse(std::move(*text));
        }
    } else if (auto reply = m_ctx.controller ? m_ctx.controller(request) : std::nullopt) {
        table = proto::RowTable::parse(reply->dump());
    }
    if (!table || !table->head()["ok"].toBool()) {
        err += errorLine(kProgram,
            "Problem talking to the database: "
                + (table ? table->head()["error"].toString()
                         : "Unable to contact slurm controller (connect failure)"));
        return finish(Outcome{out, err, 1});
    }
    // The cluster's name only when a column prints it (one more request).
    const JobSite site = jobSite(m_ctx,
        std::any_of(columns.columns.begin(), columns.columns.end(),
            [](const Column &c) { return c.field->name == "Cluster"; }));
    // A line per job, about as long as a header line (two lines: names, dashes).
    out.reserve(out.size() + table->rowCount() * (out.size() / 2 + 1));
    // Each row decoded in turn into one object (the members the selection and the columns
    // read), its strings' room kept from row to row.
    const auto members = membersRead(columns.columns, s.allocations, !s.nodes.empty());
    const record::JobRowReader reader
        = members ? record::JobRowReader(*table, *members) : record::JobRowReader(*table);
    record::JobObject job;
    for (std::size_t row = 0; row < table->rowCount(); ++row) {
        reader.read(row, job);
        if (!selected(s, job) || !inWindow(s, job, start, end)) {
            continue;
        }
        std::optional<std::string> onlyStep;
        for (const auto &selector : s.jobs) {
            if (selects(selector, job)) {
                onlyStep = selector.step;
            }
        }
        if (!onlyStep) {
            appendRow(out, columns.columns, s.layout,
                AcctRow{&job, nullptr, m_ctx.now, s.noConvert, &site, s.unit});
        }
        if (s.allocations) {
            continue;
        }
        for (const record::StepObject &step : job.steps) {
            if (!onlyStep || *onlyStep == step.stepId) {
                appendRow(out, columns.columns, s.layout,
                    AcctRow{&job, &step, m_ctx.now, s.noConvert, &site, s.unit});
            }
        }
    }
    return finish(Outcome{std::move(out), std::move(err), 0});
}

} // namespace mc::cmd
