#include "mc/cmd/squeue.h"

#include "../shared/cluster_view.h"
#include "../shared/help_texts.h"
#include "../shared/json_commands.h"
#include "../shared/json_out.h"
#include "../shared/outcome.h"
#include "../shared/text.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "squeue_fields.h"
#include "squeue_filter.h"
#include "squeue_keys.h"
#include "squeue_options.h"
#include "squeue_steps.h"
#include "squeue_verbose.h"

#include <algorithm>
#include <ctime>
#include <ostream>

namespace mc::cmd {
namespace {

using namespace squeue;
using proto::Json;

constexpr std::string_view kProgram = "squeue";
constexpr std::string_view kDefaultFormat = "jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,"
                                            "statecompact:.2 ,timeused:.10 ,numnodes:.6 ,"
                                            "reasonlist:0";
constexpr std::string_view kLongListFormat = "jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,"
                                             "state:.8 ,timeused:.10 ,timelimit:.9 ,numnodes:.6 ,"
                                             "reasonlist:0";
constexpr std::string_view kStartFormat = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";

struct Settings {
    std::optional<std::string> format, longFormat, sort;
    std::optional<std::string> clusters; // -M
    bool longList = false, noHeader = false, start = false, noConvert = false, jobFlag = false;
    bool expandArrays = false; // -r: one line per pending array task
    std::optional<std::vector<std::string>> steps; // -s: the steps (all when empty), not jobs
    VerboseFacts verbose; // -v: what Slurm's dump lists
    std::string userErrors; // "Invalid user" lines; squeue carries on without those users
    Filter filter;
};

std::string dateLine(std::int64_t now)
{
    const auto t = static_cast<std::time_t>(now);
    std::tm local{};
    localtime_r(&t, &local);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, "%a %b %d %H:%M:%S %Y\n", &local);
    return buffer;
}

std::optional<Outcome> setJobs(Settings &s, const std::string &text)
{
    s.verbose.given[kJobs] = text;
    s.filter.jobIds.clear();
    s.filter.tasks.clear();
    for (const auto &word : splitJobIdList(text)) {
        const auto spec = sched::parseJobIdSpec(word);
        if (!spec) {
            return Outcome{{}, errorLine(kProgram, "Invalid job id: " + word), 1};
        }
        s.filter.jobIds.push_back(spec->job);
        if (!spec->tasks.empty()) {
            s.filter.tasks.emplace_back(spec->job, spec->tasks);
        }
    }
    return std::nullopt;
}

std::optional<Outcome> setStates(Settings &s, const std::string &text)
{
    s.filter.states.clear();
    s.filter.allStates = equalsIgnoreCase(text, "all");
    if (s.filter.allStates) {
        return std::nullopt;
    }
    for (const auto &word : splitList(text)) {
        auto name = stateFilterName(word);
        if (!name) {
            return Outcome{{},
                errorLine(kProgram, "Invalid job state specified: " + word)
                    + errorLine(kProgram,
                        "Valid job states include: " + std::string(validStatesList()) + "\n"),
                1};
        }
        s.filter.states.push_back(*name);
    }
    return std::nullopt;
}

void setUsers(Settings &s, const std::string &text, const Context &ctx)
{
    s.filter.users.emplace();
    for (const auto &word : splitList(text)) {
        auto user = ctx.lookupUser ? ctx.lookupUser(word) : std::nullopt;
        if (user) {
            s.filter.users->push_back(user->name);
        } else {
            s.userErrors += errorLine(kProgram, "Invalid user: " + word + "\n");
        }
    }
}

std::optional<Outcome> apply(Settings &s, const ParsedOption &option, const Context &ctx)
{
    const OptionDef &def = *option.def;
    if (!def.supported) {
        return notSupported(kProgram, optionName(def));
    }
    const std::string value = option.value.value_or("");
    s.verbose.given[def.id] = value;
    switch (def.id) {
    case kHelp:
        return Outcome{std::string(squeueHelp()), {}, 0};
    case kUsage:
        return Outcome{std::string(squeueUsage()), {}, 0};
    case kVersion:
        return Outcome{std::string(kSlurmVersion), {}, 0};
    case kAccounts:
        s.filter.accounts = splitList(value);
        break;
    case kLongFormat:
        if (s.format) {
            return Outcome{
                {}, errorLine(kProgram, "-O (--Format) is incompatible with -o (--format)"), 1};
        }
        s.longFormat = value;
        break;
    case kFormat:
        if (s.longFormat) {
            return Outcome{
                {}, errorLine(kProgram, "-o (--format) is incompatible with -O (--Format)"), 1};
        }
        s.format = value;
        break;
    case kJobs:
        s.jobFlag = true;
        if (option.value) {
            return setJobs(s, value);
        }
        break;
    case kLong:
        s.longList = true;
        break;
    case kMe:
        s.filter.users = std::vector<std::string>{ctx.user.name};
        s.verbose.me = std::to_string(ctx.user.uid);
        break;
    case kVerbose:
        ++s.verbose.verbose;
        break;
    case kName:
        s.filter.names = splitList(value);
        break;
    case kNoConvert:
        s.noConvert = true;
        break;
    case kNodes: {
        auto nodes = sched::expandHostlist(value);
        if (!nodes) {
            return Outcome{
                {}, errorLine(kProgram, "'" + value + "' invalid entry for --nodelist"), 1};
        }
        s.filter.nodes = *nodes;
        break;
    }
    case kNoHeader:
        s.noHeader = true;
        break;
    case kPartitions:
        s.filter.partitions = splitList(value);
        break;
    case kQos:
        s.filter.qos = splitList(value);
        break;
    case kLicenses:
        s.filter.licenses = splitList(value);
        break;
    case kClusters:
        s.clusters = value;
        break;
    case kSort:
        s.sort = value;
        break;
    case kStart:
        s.start = true;
        break;
    case kArray:
        s.expandArrays = true;
        break;
    case kSteps:
        s.steps = splitList(value);
        break;
    case kStates:
        return setStates(s, value);
    case kUsers:
        setUsers(s, value, ctx);
        break;
    default:
        break; // --all, --hide, --array-unique, --local: nothing to do on one cluster
    }
    return std::nullopt;
}

// The SQUEUE_* variables, for what the command line left unset.
std::optional<Outcome> applyEnvironment(Settings &s, const Context &ctx, bool formatGiven)
{
    if (!formatGiven) {
        if (auto format = ctx.getenv("SQUEUE_FORMAT")) {
            s.format = *format;
        } else if (auto longFormat = ctx.getenv("SQUEUE_FORMAT2")) {
            s.longFormat = *longFormat;
        }
    }
    auto list = [&ctx](std::string_view name, std::vector<std::string> &target) {
        if (auto value = ctx.getenv(name); value && target.empty()) {
            target = splitList(*value);
        }
    };
    list("SQUEUE_ACCOUNT", s.filter.accounts);
    list("SQUEUE_NAMES", s.filter.names);
    list("SQUEUE_PARTITION", s.filter.partitions);
    list("SQUEUE_QOS", s.filter.qos);
    if (auto states = ctx.getenv("SQUEUE_STATES");
        states && s.filter.states.empty() && !s.filter.allStates) {
        if (auto end = setStates(s, *states)) {
            return end;
        }
    }
    if (auto users = ctx.getenv("SQUEUE_USERS"); users && !s.filter.users) {
        setUsers(s, *users, ctx);
    }
    return std::nullopt;
}

// The task ids of an array record's "1-10%2", "1,3,5-6", "0-6:3" (the core's --array parser).
std::vector<std::int64_t> arrayTaskIds(std::string_view text)
{
    const auto spec = sched::parseArraySpec(text);
    return spec ? std::vector<std::int64_t>(spec->taskIds.begin(), spec->taskIds.end())
                : std::vector<std::int64_t>{};
}

Json jobsRequest(const Settings &s)
{
    Json request = Json::object();
    request.set("op", "jobs");
    const Filter &f = s.filter;
    if (!f.jobIds.empty()) {
        Json ids = Json::array();
        for (auto id : f.jobIds) {
            ids.push(id);
        }
        request.set("job_ids", std::move(ids));
    }
    if (f.users && !f.users->empty()) {
        request.set("users", proto::stringList(*f.users));
    }
    if (!f.states.empty() && !f.allStates) {
        request.set("states", proto::stringList(f.states));
    }
    if (!f.partitions.empty()) {
        request.set("partitions", proto::stringList(f.partitions));
    }
    return request;
}

// squeue -w: Slurm looks the names up first and stops at the first it does not know.
std::optional<Outcome> unknownNode(const std::vector<std::string> &nodes, Context &ctx)
{
    std::string error;
    const auto view = nodes.empty() ? std::nullopt : loadClusterView(ctx, error);
    for (const std::string &name : nodes) {
        if (view && !view->node(name)) {
            return Outcome{{}, errorLine(kProgram, "Invalid node name " + name), 1};
        }
    }
    return std::nullopt;
}

} // namespace

int Squeue::run()
{
    auto finish = [this](const Outcome &outcome) {
        *m_ctx.out << outcome.out;
        *m_ctx.err << outcome.err;
        return outcome.exitCode;
    };

    Settings s;
    s.sort = m_ctx.getenv("SQUEUE_SORT");
    const ParseResult cli = parseOptions(optionTable(), m_ctx.args, kProgram);
    for (const auto &option : cli.options) {
        if (auto end = apply(s, option, m_ctx)) {
            *m_ctx.err << s.userErrors;
            return finish(*end);
        }
    }
    *m_ctx.err << s.userErrors;
    s.userErrors.clear();
    if (!cli.ok()) {
        return finish(Outcome{{}, cli.error + "Try \"squeue --help\" for more information\n", 1});
    }
    if (s.longList && s.format) {
        return finish(Outcome{{},
            "squeue: fatal: Options -o(--format) and -l(--long) are "
            "mutually exclusive. Please remove one and retry.\n",
            1});
    }
    std::size_t operand = 0;
    if (s.jobFlag && operand < cli.operands.size()) {
        if (auto end = setJobs(s, cli.operands[operand++])) {
            return finish(*end);
        }
    }
    if (s.steps && s.steps->empty() && operand < cli.operands.size()) {
        s.steps = splitList(cli.operands[operand++]); // squeue -s 12.0: the steps to list
    }
    if (operand < cli.operands.size()) {
        return finish(Outcome{std::string(squeueUsage()),
            errorLine(kProgram, "Unrecognized option: " + cli.operands[operand]), 1});
    }
    const bool formatGiven = s.format || s.longFormat || s.longList || s.start;
    if (auto end = applyEnvironment(s, m_ctx, formatGiven)) {
        return finish(*end);
    }
    *m_ctx.err << s.userErrors;
    std::string out;
    if (s.clusters) {
        const Outcome cluster = clustersOption(m_ctx, kProgram, *s.clusters);
        if (cluster.exitCode != 0) {
            return finish(cluster);
        }
        out = cluster.out;
    }
    if (auto end = unknownNode(s.filter.nodes, m_ctx)) {
        return finish(*end);
    }
    if (s.steps) {
        if (s.format || s.longFormat || s.longList || s.start) {
            return finish(notSupported(kProgram, "-s with a format of its own"));
        }
        return finish(listSteps(m_ctx, s.filter.jobIds, s.filter.users, *s.steps, s.noHeader));
    }
    if (auto data = dataFormat(cli, kJson, kYaml)) {
        return finish(squeueJson(m_ctx, *data)); // Slurm 22.05: every job, whatever the filters
    }
    if (s.start) {
        s.format = s.format.value_or(std::string(kStartFormat));
        s.sort = s.sort.value_or("S");
        if (s.filter.states.empty() && !s.filter.allStates) {
            s.filter.states = {"PENDING"};
        }
    }

    if (s.verbose.verbose > 0) { // Slurm prints it once the options are read
        s.verbose.format = s.format;
        s.verbose.sort = s.sort;
        out = optionDump(s.verbose) + out;
    }
    std::string errors;
    const std::vector<Column> columns = s.format
        ? parseFormat(*s.format, errors)
        : parseLongFormat(
            s.longFormat.value_or(std::string(s.longList ? kLongListFormat : kDefaultFormat)),
            errors);
    const std::string sortSpec = s.sort.value_or("P,t,-p");
    Json request = jobsRequest(s);
    if (auto keys = requestedKeys(columns, sortSpec); !keys.empty()) {
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
    const Json head = table ? table->head() : Json();
    const std::int64_t now = table ? head["now"].toInt(m_ctx.now) : m_ctx.now;
    if (!s.noHeader && s.longList) {
        out += dateLine(now);
    }
    if (!table) {
        return finish(Outcome{out,
            "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n", 1});
    }
    if (!head["ok"].toBool()) {
        return finish(Outcome{out, "slurm_load_jobs error: " + head["error"].toString() + "\n", 1});
    }
    // Each row is decoded into one object as it is needed: the members the filters and the sort
    // keys read, to be selected and sorted, then in order the members the columns print (a
    // JobObject per row of 5,000 would cost more than the second decoding). A field that reads
    // an unknown set makes each pass read every member.
    const record::JobRowReader reader(*table);
    const std::size_t count = table->rowCount();
    auto select = membersRead({}, sortSpec);
    const auto print = membersRead(columns, "");
    if (select) {
        const auto filtered = filterMembers();
        select->insert(select->end(), filtered.begin(), filtered.end());
        select->push_back(record::JobMember::ArrayTaskId); // what tells an array's own record
        select->push_back(record::JobMember::ArrayTaskStr);
    }
    const record::JobRowReader selectReader
        = select && print ? record::JobRowReader(*table, *select) : record::JobRowReader(*table);
    const record::JobRowReader printReader
        = select && print ? record::JobRowReader(*table, *print) : record::JobRowReader(*table);
    record::JobObject job;
    if (s.verbose.verbose > 0) {
        // One job asked for is loaded alone (slurm_load_job: no update time), else them all.
        const bool one = s.filter.jobIds.size() == 1;
        out += dateLine(now) + "last_update_time=" + std::to_string(one ? 0 : now)
            + " records=" + std::to_string(count) + "\n";
    }
    if (s.filter.jobIds.size() == 1) {
        bool known = false;
        for (std::size_t i = 0; i < count && !known; ++i) {
            reader.read(i, job);
            known = job.jobId == s.filter.jobIds.front();
        }
        if (!known) {
            return finish(Outcome{out, "slurm_load_jobs error: Invalid job id specified\n", 1});
        }
    }

    *m_ctx.err << errors;
    if (!s.noHeader) {
        out += renderLine(columns, nullptr);
    }
    // The cluster's name only when a column prints it (one more request).
    const JobSite site = jobSite(m_ctx, std::any_of(columns.begin(), columns.end(), [](auto &c) {
        return c.field && c.field->name == "cluster";
    }));
    RowSorter sorter(sortSpec);
    if (auto bad = sorter.unknownKey()) {
        return finish(Outcome{
            out, errorLine(kProgram, std::string("Invalid sort specification: ") + *bad), 1});
    }
    const JobRow row{&job, now, s.noConvert, &site};
    // The rows printed: the reply's row, and the task of an array record's line (-r, -j 12_3).
    std::vector<std::pair<std::size_t, std::optional<std::int64_t>>> lines;
    lines.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        selectReader.read(i, job);
        if (!s.filter.accepts(job)) {
            continue;
        }
        const bool arrayRecord = job.arrayJobId > 0 && !job.arrayTaskId;
        const auto askedTasks = arrayRecord ? s.filter.tasksOf(job) : std::nullopt;
        if ((!s.expandArrays && !askedTasks) || !arrayRecord) {
            lines.emplace_back(i, std::nullopt);
            sorter.add(row);
            continue;
        }
        // -r, or -j 12_3 of a task still in the record: one line per task (asked for).
        for (const std::int64_t task : arrayTaskIds(job.arrayTaskStr)) {
            if (askedTasks
                && !std::binary_search(
                    askedTasks->begin(), askedTasks->end(), static_cast<std::uint32_t>(task))) {
                continue;
            }
            job.arrayTaskId = task;
            lines.emplace_back(i, task);
            sorter.add(row);
        }
        job.arrayTaskId.reset(); // the record's own (a reply without the member keeps it)
    }
    out.reserve(out.size() + lines.size() * (out.size() + 8)); // lines about as long as the header
    for (const std::uint32_t i : sorter.order()) {
        const auto &[index, task] = lines[i];
        printReader.read(index, job);
        if (task) {
            job.arrayTaskId = task;
        }
        appendLine(out, columns, &row);
        job.arrayTaskId.reset();
    }
    return finish(Outcome{std::move(out), {}, 0});
}

} // namespace mc::cmd
