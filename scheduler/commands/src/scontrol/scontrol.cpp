#include "mc/cmd/scontrol.h"

#include "../shared/cluster_view.h"
#include "../shared/help_texts.h"
#include "../shared/outcome.h"
#include "../shared/text.h"
#include "mc/cmd/option_parser.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "scontrol_actions.h"
#include "scontrol_config.h"
#include "scontrol_options.h"
#include "scontrol_records.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <ostream>
#include <sstream>

namespace mc::cmd {
namespace {

using proto::Json;
using namespace scontrol;

constexpr std::string_view kProgram = "scontrol";

enum Opt : int {
    kAll = 1,
    kDetails,
    kFederation,
    kFuture,
    kHelp,
    kHide,
    kJson,
    kLocal,
    kClusters,
    kOneLiner,
    kQuiet,
    kSibling,
    kUid,
    kUsage,
    kVerbose,
    kVersion,
    kYaml,
};

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr bool kRefused = false;

// Slurm 22.05's scontrol table.
constexpr std::array kOptions{
    OptionDef{"all", 'a', kNo, kAll},
    OptionDef{"details", 'd', kNo, kDetails},
    OptionDef{"federation", 0, kNo, kFederation, kRefused},
    OptionDef{"future", 'F', kNo, kFuture},
    OptionDef{"help", 'h', kNo, kHelp},
    OptionDef{"hide", 0, kNo, kHide},
    OptionDef{"local", 0, kNo, kLocal},
    OptionDef{"cluster", 'M', kReq, kClusters, kRefused},
    OptionDef{"clusters", 0, kReq, kClusters, kRefused},
    OptionDef{"oneliner", 'o', kNo, kOneLiner},
    OptionDef{"quiet", 'Q', kNo, kQuiet},
    OptionDef{"sibling", 0, kNo, kSibling, kRefused},
    OptionDef{"uid", 'u', kReq, kUid, kRefused},
    OptionDef{"usage", 0, kNo, kUsage},
    OptionDef{"verbose", 'v', kNo, kVerbose, kRefused},
    OptionDef{"version", 'V', kNo, kVersion},
};

struct Settings {
    bool oneLiner = false;
    bool quiet = false;
    int details = 0;
};

// Slurm matches keywords case-insensitively, abbreviated to at least `minimum` letters.
bool keyword(std::string_view word, std::string_view full, std::size_t minimum = 3)
{
    return word.size() >= std::min(minimum, full.size()) && word.size() <= full.size()
        && equalsIgnoreCase(word, full.substr(0, word.size()));
}

Outcome showJobs(Context &ctx, const Settings &s, const std::vector<std::string> &ids)
{
    Json request = Json::object();
    request.set("op", "jobs");
    std::optional<std::int64_t> task; // "12_3": that task of array 12
    std::int64_t asked = 0;
    if (!ids.empty()) {
        Json list = Json::array();
        for (const auto &id : ids) {
            // slurm_xlate_job_id(): digits, then "_<task>" or "+<component>"; anything else
            // ("abc", "12abc", "1,2") is refused before asking. Job 0 is every job.
            std::string_view rest;
            const std::int64_t value = parseLeadingInteger(id, &rest);
            const bool suffix = rest.size() > 1 && (rest[0] == '_' || rest[0] == '+')
                && rest.find_first_not_of("0123456789", 1) == std::string_view::npos;
            if (id.empty() || id.find_first_not_of("0123456789") == 0 || value < 0
                || (!rest.empty() && !suffix)) {
                return {{}, "scontrol_print_job error: Invalid job id specified\n", 1};
            }
            if (value > 0) {
                list.push(value);
            }
            asked = value;
            if (suffix && rest[0] == '_') {
                task = parseLeadingInteger(rest.substr(1));
            }
        }
        if (list.size() > 0) {
            request.set("job_ids", std::move(list));
        }
    }
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    if (!reply) {
        return {
            {}, "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n", 1};
    }
    if (!(*reply)["ok"].toBool()) {
        return {{}, "slurm_load_jobs error: " + (*reply)["error"].toString() + "\n", 1};
    }
    std::vector<record::JobObject> jobs;
    for (const auto &job : (*reply)["jobs"].items()) {
        jobs.push_back(record::jobObjectFromJson(job));
    }
    if (jobs.empty()) {
        if (!ids.empty()) {
            return {{}, "slurm_load_jobs error: Invalid job id specified\n", 1};
        }
        return {"No jobs in the system\n", {}, 0};
    }
    if (task) {
        // One task: its own record, or the array's pending record shown as that task (Slurm
        // names it so with its own ArrayTaskId and output paths).
        std::optional<record::JobObject> found;
        for (const record::JobObject &job : jobs) {
            if (job.arrayJobId != asked) {
                continue;
            }
            if (job.arrayTaskId == *task) {
                found = job;
                break;
            }
            const std::string pending = job.arrayTaskStr.substr(0, job.arrayTaskStr.find('%'));
            const auto spec = job.arrayTaskId ? std::nullopt : sched::parseArraySpec(pending);
            if (spec && std::binary_search(spec->taskIds.begin(), spec->taskIds.end(), *task)) {
                found = job;
                found->arrayTaskId = *task;
                const std::size_t percent = job.arrayTaskStr.find('%');
                if (percent != std::string::npos) {
                    found->arrayMaxTasks
                        = parseLeadingInteger(job.arrayTaskStr.substr(percent + 1));
                }
            }
        }
        if (!found) {
            const std::string name = std::to_string(asked) + "_" + std::to_string(*task);
            return {s.quiet ? "" : "Job " + name + " not found\n", {}, 1};
        }
        jobs = {*found};
    }
    std::sort(jobs.begin(), jobs.end(),
        [](const record::JobObject &a, const record::JobObject &b) { return a.jobId < b.jobId; });
    const std::int64_t now = (*reply)["now"].toInt(ctx.now);
    std::string out;
    for (const record::JobObject &job : jobs) {
        out += render(jobRecord(job, now, s.details), s.oneLiner);
    }
    return {out, {}, 0};
}

Outcome showNodes(Context &ctx, const Settings &s, const std::vector<std::string> &args)
{
    std::string error;
    auto view = loadClusterView(ctx, error);
    if (!view) {
        return {{}, "slurm_load_node error: " + error + "\n", 1};
    }
    std::vector<std::string> names;
    for (const auto &arg : args) {
        auto expanded = sched::expandHostlist(arg);
        if (!expanded) {
            return {"Node " + arg + " not found\n", {}, 1}; // stdout, as Slurm
        }
        names.insert(names.end(), expanded->begin(), expanded->end());
    }
    std::string out;
    if (names.empty()) {
        for (const auto &n : view->nodes) {
            out += render(nodeRecord(n, *view), s.oneLiner);
        }
        return {out, {}, 0};
    }
    bool missing = false;
    for (const auto &name : names) {
        if (const NodeView *n = view->node(name)) {
            out += render(nodeRecord(*n, *view), s.oneLiner);
        } else {
            out += "Node " + name + " not found\n"; // stdout, as Slurm
            missing = true;
        }
    }
    return {out, {}, missing ? 1 : 0};
}

Outcome showPartitions(Context &ctx, const Settings &s, const std::vector<std::string> &args)
{
    std::string error;
    auto view = loadClusterView(ctx, error);
    if (!view) {
        return {{}, "slurm_load_partitions error: " + error + "\n", 1};
    }
    std::string out;
    for (const auto &p : view->partitions) {
        if (args.empty() || std::find(args.begin(), args.end(), p.name) != args.end()) {
            out += render(partitionRecord(p, *view), s.oneLiner);
        }
    }
    if (out.empty() && !args.empty()) {
        return {"Partition " + args.front() + " not found\n", {}, 1}; // stdout, as Slurm
    }
    if (out.empty()) {
        return {"No partitions in the system\n", {}, 0};
    }
    return {out, {}, 0};
}

Outcome showConfig(Context &ctx, const std::vector<std::string> &args)
{
    Json request = Json::object();
    request.set("op", "ping");
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    if (!reply) {
        return {{},
            "slurm_load_ctl_conf error: Unable to contact slurm controller (connect failure)\n", 1};
    }
    ConfigFacts facts;
    facts.slurmConf = ctx.readSlurmConf ? ctx.readSlurmConf().value_or("") : "";
    facts.confPath = ctx.getenv("SLURM_CONF").value_or("");
    facts.clusterName = (*reply)["cluster_name"].toString();
    facts.hostname = sched::parseSlurmConf(facts.slurmConf).config.controlMachine;
    facts.now = (*reply)["now"].toInt(ctx.now);
    facts.bootTime = (*reply)["boot_time"].toInt(0);
    facts.nextJobId = (*reply)["next_job_id"].toInt(0);
    facts.lookupUser = ctx.lookupUser;
    const std::string text = configText(facts);
    if (args.empty()) {
        return {text, {}, 0};
    }
    std::string out;
    std::size_t start = text.find('\n') + 1;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        const std::string line = text.substr(start, end - start);
        const std::string key = line.substr(0, line.find(' '));
        for (const auto &arg : args) {
            if (equalsIgnoreCase(key, arg)) {
                out += line + "\n";
            }
        }
        start = end + 1;
    }
    return {out, {}, 0};
}

// "scontrol: error: _parse_single_range: Invalid range: `03-01'" for the first range inside
// brackets that is not two numbers in order; "" when every range is.
std::string badRange(std::string_view list)
{
    std::size_t open = list.find('[');
    while (open != std::string_view::npos) {
        const std::size_t close = list.find(']', open);
        const std::string_view inside
            = list.substr(open + 1, close == std::string_view::npos ? close : close - open - 1);
        for (const auto &range : splitList(std::string(inside))) {
            const std::size_t dash = range.find('-');
            if (dash == std::string::npos) {
                continue;
            }
            const auto number = [](std::string_view text) -> std::optional<unsigned long long> {
                unsigned long long value = 0;
                const auto [end, ec]
                    = std::from_chars(text.data(), text.data() + text.size(), value);
                return ec == std::errc() && end == text.data() + text.size() && !text.empty()
                    ? std::optional(value)
                    : std::nullopt;
            };
            const auto low = number(std::string_view(range).substr(0, dash));
            const auto high = number(std::string_view(range).substr(dash + 1));
            if (!low || !high || *low > *high) {
                return errorLine(kProgram, "_parse_single_range: Invalid range: `" + range + "'");
            }
        }
        open = close == std::string_view::npos ? close : list.find('[', close);
    }
    return {};
}

Outcome showHostnames(Context &ctx, const std::vector<std::string> &args, bool expand, bool sorted)
{
    std::string list;
    if (args.empty()) {
        auto env = ctx.getenv("SLURM_JOB_NODELIST");
        if (!env) {
            return {{}, errorLine(kProgram, "Must specify hostlist or set SLURM_JOB_NODELIST"), 1};
        }
        list = *env;
    } else {
        for (const auto &arg : args) {
            list += (list.empty() ? "" : ",") + arg;
        }
    }
    auto names = sched::expandHostlist(list);
    if (!names) {
        // Slurm's hostlist parser names the first bad range of a bracket; scontrol then still
        // exits 0.
        return {{}, badRange(list) + "Invalid hostlist: " + list + "\n", 0};
    }
    if (expand) {
        std::string out;
        for (const auto &name : *names) {
            out += name + "\n";
        }
        return {out, {}, 0};
    }
    if (sorted) {
        std::sort(names->begin(), names->end());
    }
    return {sched::compressHostlist(*names) + "\n", {}, 0};
}

Outcome ping(Context &ctx)
{
    std::string host = "localhost";
    if (auto conf = ctx.readSlurmConf ? ctx.readSlurmConf() : std::nullopt) {
        host = sched::parseSlurmConf(*conf).config.controlMachine;
    }
    if (host == "localhost" && !ctx.hostname.empty()) {
        host = ctx.hostname; // slurmctld names its own host for localhost (the login node's)
    }
    Json request = Json::object();
    request.set("op", "ping");
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    const bool up = reply && (*reply)["ok"].toBool();
    return {"Slurmctld(primary) at " + host + " is " + (up ? "UP" : "DOWN") + "\n", {}, up ? 0 : 1};
}

Outcome show(Context &ctx, const Settings &s, const std::vector<std::string> &words)
{
    if (words.size() < 2) {
        return {{}, "too few arguments for keyword:show\n", 1};
    }
    const std::string &entity = words[1];
    // One entity name at most, as scontrol's _show_it(), except for the entities that take
    // their own words (assoc_mgr users=... flags=..., bbstat and dwstat).
    if (words.size() > 3 && !keyword(entity, "assoc_mgr") && !keyword(entity, "bbstat")
        && !keyword(entity, "dwstat")) {
        return {{}, s.quiet ? "" : "too many arguments for keyword:show\n", 1};
    }
    const std::vector<std::string> args(words.begin() + 2, words.end());
    if (keyword(entity, "jobs", 1) || keyword(entity, "jobid")) {
        return showJobs(ctx, s, args);
    }
    if (keyword(entity, "nodes", 1) || keyword(entity, "nodename")) {
        return showNodes(ctx, s, args);
    }
    if (keyword(entity, "partitions", 1) || keyword(entity, "partitionname")) {
        return showPartitions(ctx, s, args);
    }
    if (keyword(entity, "configuration", 1)) {
        return showConfig(ctx, args);
    }
    if (equalsIgnoreCase(entity, "hostnames")) {
        return showHostnames(ctx, args, true, false);
    }
    if (equalsIgnoreCase(entity, "hostlist")) {
        return showHostnames(ctx, args, false, false);
    }
    if (equalsIgnoreCase(entity, "hostlistsorted")) {
        return showHostnames(ctx, args, false, true);
    }
    if (keyword(entity, "steps")) {
        return showSteps(ctx, s.oneLiner, args);
    }
    // What minicluster's cluster has none of answers as Slurm's does without them (no
    // reservation, license, front end node, burst buffer, federation or topology configured).
    const std::string name = args.empty() ? std::string() : args.front();
    if (keyword(entity, "reservations") || keyword(entity, "reservationname")) {
        if (!name.empty()) {
            return {s.quiet ? "" : "Reservation " + name + " not found\n", {}, 1};
        }
        return {s.quiet ? "" : "No reservations in the system\n", {}, 0};
    }
    if (keyword(entity, "licenses")) {
        return {"No licenses configured in Slurm.\n", {}, 0};
    }
    if (keyword(entity, "frontend")) {
        if (!name.empty()) {
            return {s.quiet ? "" : "Node " + name + " not found\n", {}, 1};
        }
        return {s.quiet ? "" : "No nodes in the system\n", {}, 0};
    }
    if (keyword(entity, "topology")) {
        return {{},
            errorLine(kProgram,
                name.empty() ? std::string("No topology information available")
                             : "Topology information contains no switch or node named " + name),
            0};
    }
    for (const char *empty : {"aliases", "bbstat", "burstbuffer", "dwstat", "federation"}) {
        if (keyword(entity, empty)) {
            return {{}, {}, 0};
        }
    }
    if (keyword(entity, "assoc_mgr")) {
        return showAssocManager(ctx, args);
    }
    static constexpr std::array kKnown{"daemons", "slurmd"};
    for (const char *known : kKnown) {
        if (keyword(entity, known)) {
            return notSupported(kProgram, "show " + std::string(known));
        }
    }
    return {{}, "invalid entity:" + entity + " for keyword:show \n", 1}; // sic: the space
}

// One scontrol command (its words after the options), as on the command line.
Outcome dispatch(Context &ctx, const Settings &s, const std::vector<std::string> &words)
{
    const std::string &command = words.front();
    if (keyword(command, "show")) {
        return show(ctx, s, words);
    }
    if (keyword(command, "ping")) {
        return ping(ctx);
    }
    if (keyword(command, "version")) {
        return Outcome{std::string(kSlurmVersion), {}, 0};
    }
    if (keyword(command, "help")) {
        return Outcome{std::string(scontrolHelp()), {}, 0};
    }
    const std::vector<std::string> rest(words.begin() + 1, words.end());
    if (equalsIgnoreCase(command, "hold")) {
        return holdJobs(ctx, HoldKind::Admin, rest);
    }
    if (equalsIgnoreCase(command, "uhold") || equalsIgnoreCase(command, "holdu")) {
        return holdJobs(ctx, HoldKind::User, rest);
    }
    if (equalsIgnoreCase(command, "release")) {
        return holdJobs(ctx, HoldKind::Release, rest);
    }
    if (equalsIgnoreCase(command, "requeue")) {
        return requeueJobs(ctx, false, rest);
    }
    if (equalsIgnoreCase(command, "requeuehold")) {
        return requeueJobs(ctx, true, rest);
    }
    if (equalsIgnoreCase(command, "listpids")) {
        return listPids(ctx, rest);
    }
    if (equalsIgnoreCase(command, "write") && rest.size() >= 1
        && equalsIgnoreCase(rest.front(), "batch_script")) {
        return writeBatchScript(ctx, std::vector<std::string>(rest.begin() + 1, rest.end()));
    }
    if (equalsIgnoreCase(command, "suspend") || equalsIgnoreCase(command, "resume")) {
        return suspendJobs(ctx, equalsIgnoreCase(command, "resume"), rest);
    }
    if (equalsIgnoreCase(command, "top")) {
        return operatorOnly(ctx, "top", rest);
    }
    if (keyword(command, "update")) {
        return update(ctx, rest);
    }
    if (keyword(command, "exit", 4) || keyword(command, "quit", 4)) {
        return Outcome{};
    }
    static constexpr std::array kChanging{"abort", "cancel_reboot", "create", "delete", "errnumstr",
        "fsdampeningfactor", "listpids", "notify", "pidinfo", "reboot", "reconfigure",
        "schedloglevel", "setdebug", "setdebugflags", "shutdown", "takeover", "token", "wait_job",
        "write", "cluster", "completing"};
    for (const char *known : kChanging) {
        if (equalsIgnoreCase(command, known)) {
            return notSupported(kProgram, known);
        }
    }
    return Outcome{{}, "invalid keyword: " + command + "\n", 1};
}

} // namespace

std::span<const OptionDef> scontrol::optionTable()
{
    return kOptions;
}

int Scontrol::run()
{
    Settings s;
    const ParseResult cli = parseOptions(scontrol::optionTable(), m_ctx.args, kProgram);
    auto apply = [&s](const ParsedOption &option) -> std::optional<Outcome> {
        switch (option.def->id) {
        case kHelp:
        case kUsage:
            return Outcome{std::string(scontrolHelp()), {}, 0};
        case kVersion:
            return Outcome{std::string(kSlurmVersion), {}, 0};
        case kDetails:
            ++s.details;
            break;
        case kOneLiner:
            s.oneLiner = true;
            break;
        case kQuiet:
            s.quiet = true;
            break;
        default: // --all, --future, --hide, --local: no hidden partitions or future nodes here
            break;
        }
        return std::nullopt;
    };
    if (auto end = applyOptions(cli, kProgram, apply)) {
        return deliver(m_ctx, *end);
    }
    const auto &words = cli.operands;
    if (!words.empty()) {
        return deliver(m_ctx, dispatch(m_ctx, s, words));
    }
    if (m_ctx.stdinIsTerminal || !m_ctx.readStdin) {
        return deliver(m_ctx, notSupported(kProgram, "Interactive mode"));
    }
    // Commands piped in, one a line, as scontrol reads them without a terminal: each after
    // its prompt and the line itself (readline's echo), the run's code being the last one's.
    std::istringstream lines(m_ctx.readStdin());
    std::string line;
    int exitCode = 0;
    while (*m_ctx.out << "scontrol: ", std::getline(lines, line)) {
        *m_ctx.out << line << '\n';
        std::istringstream split(line);
        std::vector<std::string> commandWords;
        for (std::string word; split >> word;) {
            commandWords.push_back(word);
        }
        if (commandWords.empty()) {
            continue;
        }
        if (keyword(commandWords.front(), "exit", 4) || keyword(commandWords.front(), "quit", 4)) {
            return exitCode;
        }
        exitCode = deliver(m_ctx, dispatch(m_ctx, s, commandWords));
    }
    *m_ctx.out << '\n';
    return exitCode;
}

} // namespace mc::cmd
