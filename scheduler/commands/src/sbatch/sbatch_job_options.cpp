#include "sbatch_job_options.h"

#include "../scancel/scancel_options.h"
#include "../shared/help_texts.h"
#include "../shared/text.h"
#include "mc/sched/gres.h"
#include "mc/sched/hostlist.h"
#include "sbatch_options.h"

#include <algorithm>

namespace mc::cmd::sbatch {
namespace {

constexpr std::int64_t kMaxNice = 2147483645; // Slurm's NICE_OFFSET - 3

// Slurm's parse_int(): a whole number above zero, else exit 1.
std::optional<Outcome> parsePositive(
    std::optional<int> &target, const std::string &value, std::string_view option)
{
    auto number = parseInteger(value);
    if (!number || *number <= 0 || *number > 2147483647) {
        return failure(
            "Invalid numeric value \"" + value + "\" for " + std::string(option) + ".", kExitError);
    }
    target = static_cast<int>(*number);
    return std::nullopt;
}

// Slurm's verify_node_count(): "N" or "min-max"; the minimum is what the job asks for.
std::optional<Outcome> parseNodes(JobOptions &opts, const std::string &value)
{
    const std::size_t dash = value.find('-');
    const std::string minText = value.substr(0, dash);
    auto minimum = parseInteger(minText);
    if (!minimum || *minimum < 0) {
        return failure("\"" + minText + "\" is not a valid node count", kExitBadOption);
    }
    if (dash != std::string::npos) {
        const std::string maxText = value.substr(dash + 1);
        auto maximum = parseInteger(maxText);
        if (!maximum) {
            return failure("\"" + maxText + "\" is not a valid node count", kExitBadOption);
        }
        if (*maximum != 0 && *maximum < *minimum) {
            return failure("Maximum node count " + std::to_string(*maximum)
                    + " is less than minimum node count " + std::to_string(*minimum),
                kExitBadOption);
        }
    }
    // -N 0 alone goes on to the submission, which Slurm refuses; in a range it means 1.
    opts.nodes = static_cast<int>(
        dash == std::string::npos ? *minimum : std::max<std::int64_t>(*minimum, 1));
    return std::nullopt;
}

// Slurm's get_signal_opts(): [{R|B}:]<signal>[@<seconds>], seconds 0-65535 (default 60).
std::optional<Outcome> parseSignal(JobOptions &opts, const std::string &value)
{
    std::string_view text = value;
    bool batch = false;
    if (text.size() >= 2 && (text[0] == 'R' || text[0] == 'r') && text[1] == ':') {
        return notSupported(kProgram, "--signal=R: (reservations)", kExitError);
    }
    if (text.size() >= 2 && (text[0] == 'B' || text[0] == 'b') && text[1] == ':') {
        batch = true;
        text.remove_prefix(2);
    }
    std::int64_t seconds = 60;
    const std::size_t at = text.find('@');
    if (at != std::string_view::npos) {
        auto parsed = parseInteger(std::string(text.substr(at + 1)));
        if (!parsed || *parsed < 0 || *parsed > 0xffff) {
            return failure("Invalid --signal specification", kExitBadOption);
        }
        seconds = *parsed;
        text = text.substr(0, at);
    }
    auto number = scancel::signalNumber(text);
    if (!number) {
        return failure("Invalid --signal specification", kExitBadOption);
    }
    opts.signal = (batch ? "B:" : "") + std::to_string(*number) + "@" + std::to_string(seconds);
    return std::nullopt;
}

// A GPU option's request: its count into `target`, its type (if any) the job's GPU type. A
// malformed value or a GRES other than gpu is refused before submission, as sbatch does.
void applyGpus(
    JobOptions &opts, std::optional<int> &target, const std::optional<sched::GpuRequest> &request)
{
    if (!request || !request->known) {
        opts.badGres = true;
        return;
    }
    target = request->count;
    if (!request->type.empty()) {
        opts.gpuType = request->type;
    }
}

// --nodelist / --exclude: a hostlist expression; a name with '/' is a file of names in Slurm,
// which minicluster does not read.
std::optional<Outcome> parseHosts(
    std::vector<std::string> &target, const std::string &value, std::string_view option)
{
    if (value.find('/') != std::string::npos) {
        return notSupported(
            kProgram, std::string(option) + " with a file of node names", kExitError);
    }
    auto names = sched::expandHostlist(value);
    if (!names) {
        return failure("Invalid " + std::string(option) + " specification", kExitBadOption);
    }
    target = std::move(*names);
    return std::nullopt;
}

// Slurm's parse_mail_type() and print_mail_type(): the words of --mail-type (any case) as the
// list Slurm shows, in its order; ALL is the six it stands for; NONE anywhere is none (""),
// nullopt: a word Slurm does not know.
std::optional<std::string> mailTypeText(const std::string &value)
{
    // In print_mail_type()'s order.
    static constexpr std::string_view kTypes[]
        = {"ARRAY_TASKS", "INVALID_DEPEND", "BEGIN", "END", "FAIL", "REQUEUE", "STAGE_OUT",
            "TIME_LIMIT_50", "TIME_LIMIT_80", "TIME_LIMIT_90", "TIME_LIMIT"};
    constexpr unsigned kAll = 0b1111110; // INVALID_DEPEND, BEGIN, END, FAIL, REQUEUE, STAGE_OUT
    const auto words = splitList(value);
    unsigned bits = 0;
    bool none = false;
    for (const auto &word : words) {
        bool known = false;
        if (equalsIgnoreCase(word, "NONE")) {
            none = known = true;
        } else if (equalsIgnoreCase(word, "ALL")) {
            bits |= kAll;
            known = true;
        }
        for (std::size_t i = 0; i < std::size(kTypes) && !known; ++i) {
            if (equalsIgnoreCase(word, kTypes[i])) {
                bits |= 1U << i;
                known = true;
            }
        }
        if (!known) {
            return std::nullopt;
        }
    }
    if (words.empty()) {
        return std::nullopt;
    }
    std::string text;
    for (std::size_t i = 0; i < std::size(kTypes) && !none; ++i) {
        if ((bits & (1U << i)) != 0) {
            text += (text.empty() ? "" : ",") + std::string(kTypes[i]);
        }
    }
    return text;
}

// Slurm's verify_dist_type(): {*|block|cyclic|arbitrary|plane=<size>}, then up to two levels
// of {*|block|cyclic|fcyclic}, then ,Pack or ,NoPack; any case. Only checked: sbatch does not
// implement the option (it is srun's task layout).
std::optional<Outcome> checkDistribution(const std::string &value)
{
    const std::string lower = toLower(value);
    const std::size_t comma = lower.find(',');
    const std::string flag = comma == std::string::npos ? "pack" : lower.substr(comma + 1);
    std::vector<std::string> levels;
    for (std::string rest = lower.substr(0, comma);;) {
        const std::size_t colon = rest.find(':');
        levels.push_back(rest.substr(0, colon));
        if (colon == std::string::npos) {
            break;
        }
        rest.erase(0, colon + 1);
    }
    if (levels.front().rfind("plane", 0) == 0) {
        const auto size = levels.front().size() > 6 && levels.front()[5] == '='
            ? parseInteger(levels.front().substr(6))
            : std::nullopt;
        if (!size || *size <= 0 || levels.size() > 1) {
            Outcome bad = failure("Invalid --distribution specification", kExitBadOption);
            bad.err = errorLine(kProgram, "Invalid plane size or size not specified") + bad.err;
            return bad;
        }
        return notSupported(kProgram, "--distribution", kExitError);
    }
    bool valid = levels.size() <= 3 && (flag == "pack" || flag == "nopack");
    for (std::size_t i = 0; i < levels.size() && valid; ++i) {
        const std::string &level = levels[i];
        valid = level == "*" || level == "block" || level == "cyclic"
            || (i == 0 ? level == "arbitrary" : level == "fcyclic");
    }
    if (!valid) {
        return failure("Invalid --distribution specification", kExitBadOption);
    }
    return notSupported(kProgram, "--distribution", kExitError);
}

// Slurm's time_str2mins() on "-<days>" (a valid timespec to it): days below zero, rounded up
// to minutes in C's int and read by slurmctld as unsigned, so -t -5 is a limit of
// 4294960097 minutes, not a refusal. nullopt for any other text.
std::optional<sched::Seconds> negativeDaysLimit(const std::string &value)
{
    const auto days = value.size() > 1 && value[0] == '-' && value != "-1"
            && value.find_first_not_of("0123456789", 1) == std::string::npos
        ? parseInteger(value.substr(1))
        : std::nullopt;
    if (!days || *days <= 0 || *days > 1000000) {
        return std::nullopt;
    }
    const std::int64_t minutes = (-*days * 86400 + 59) / 60; // C division: towards zero
    return (minutes + (std::int64_t{1} << 32)) * 60;
}

} // namespace

Outcome failure(std::string_view message, int exitCode)
{
    return Outcome{{}, errorLine(kProgram, message), exitCode};
}

std::optional<Outcome> apply(JobOptions &opts, const OptionDef &def,
    const std::optional<std::string> &arg, Source source, const Context &ctx)
{
    if (!def.supported) {
        return notSupported(kProgram, optionName(def), kExitError);
    }
    const std::string value = arg.value_or("");
    switch (def.id) {
    case kHelp:
        return Outcome{std::string(sbatchHelp()), {}, 0};
    case kUsage:
        return Outcome{std::string(sbatchUsage()), {}, 0};
    case kVersion:
        return Outcome{std::string(kSlurmVersion), {}, 0};
    case kAccount:
        opts.account = value;
        break;
    case kChdir:
        opts.chdir = absolutePath(value, ctx.cwd);
        break;
    case kCpusPerTask:
        return parsePositive(opts.cpusPerTask, value, "--cpus-per-task");
    case kNtasks:
        return parsePositive(opts.ntasks, value, "--ntasks");
    case kNodes:
        return parseNodes(opts, value);
    case kError:
        opts.stdErr = value;
        break;
    case kInput:
        opts.stdIn = value;
        break;
    case kOutput:
        opts.stdOut = value;
        break;
    case kComment:
        opts.comment = value;
        break;
    case kJobName:
        opts.jobName = value;
        break;
    case kPartition:
        opts.partition = value;
        break;
    case kExport:
        opts.exportSpec = value;
        break;
    case kWrap:
        opts.wrap = value;
        break;
    case kHold:
        opts.hold = true;
        break;
    case kOpenMode: // Slurm reads the first letter: a[ppend] or t[runcate]
        if (!value.empty() && (value[0] == 'a' || value[0] == 'A')) {
            opts.openAppend = true;
        } else if (!value.empty() && (value[0] == 't' || value[0] == 'T')) {
            opts.openAppend = false;
        } else {
            return failure("Invalid --open-mode specification", kExitBadOption);
        }
        break;
    case kSignal:
        return parseSignal(opts, value);
    case kRequeue:
        opts.requeue = true;
        break;
    case kNoRequeue:
        opts.requeue = false;
        break;
    case kParsable:
        opts.parsable = true;
        break;
    case kWait:
        opts.wait = true;
        break;
    case kQos:
        opts.qos = value;
        break;
    case kQuiet:
        opts.quiet = true;
        break;
    case kVerbose:
        opts.verbose = true;
        break;
    case kArray:
        opts.array = value;
        break;
    case kDependency:
        opts.dependency = value;
        break;
    case kConstraint:
        opts.constraint = value;
        break;
    case kBegin:
        if (!sched::parseTimeSpec(value, ctx.now)) {
            Outcome bad = failure("Invalid --begin specification", kExitBadOption);
            bad.err = invalidTimeLine(value) + bad.err;
            return bad;
        }
        opts.beginText = value;
        break;
    case kTimeMin: {
        auto limit = sched::parseTimeLimit(value);
        if (!limit) {
            return failure("Invalid --time-min specification", kExitBadOption);
        }
        opts.timeMin = *limit;
        break;
    }
    case kExclusive:
        if (arg && value == "user") {
            return notSupported(kProgram, "--exclusive=user", kExitError);
        }
        if (arg && value == "mcs") {
            return notSupported(kProgram, "--exclusive=mcs", kExitError);
        }
        if (arg && value != "exclusive" && value != "oversubscribe") {
            return failure("Invalid --exclusive specification", kExitBadOption);
        }
        opts.exclusive = !arg || value == "exclusive";
        break;
    case kNodelist:
        return parseHosts(opts.nodeList, value, "--nodelist");
    case kExclude:
        return parseHosts(opts.excludeNodes, value, "--exclude");
    case kNtasksPerNode:
        return parsePositive(opts.ntasksPerNode, value, "--ntasks-per-node");
    case kGres:
        applyGpus(opts, opts.gpusPerNode, sched::parseGresOption(value));
        opts.gpusPerNodeGiven = false;
        break;
    case kGpus:
        applyGpus(opts, opts.gpus, sched::parseGpuCount(value));
        break;
    case kGpusPerNode:
        applyGpus(opts, opts.gpusPerNode, sched::parseGpuCount(value));
        opts.gpusPerNodeGiven = true;
        break;
    case kGpusPerTask:
        applyGpus(opts, opts.gpusPerTask, sched::parseGpuCount(value));
        break;
    case kCpusPerGpu:
        return parsePositive(opts.cpusPerGpu, value, "--cpus-per-gpu");
    case kTestOnly:
        opts.testOnly = true;
        break;
    case kDistribution:
        return checkDistribution(value);
    case kDeadline:
        if (!sched::parseTimeSpec(value, ctx.now)) {
            Outcome bad = failure("Invalid --deadline specification", kExitBadOption);
            bad.err = invalidTimeLine(value) + bad.err;
            return bad;
        }
        opts.deadlineText = value;
        break;
    case kPriority: // slurmctld ignores a user's --priority; an operator's sets it
        if (ctx.user.uid == 0) {
            return notSupported(kProgram, "--priority", kExitError);
        }
        break;
    case kLicenses:
        opts.licenses = value;
        break;
    case kReservation:
        opts.reservation = value;
        break;
    case kCluster:
    case kClusters:
        opts.clusters = value;
        break;
    case kIgnorePbs:
        opts.ignorePbs = true;
        break;
    case kMailUser: // kept and shown; like Slurm without a mailer, minicluster sends no mail
        opts.mailUser = value;
        break;
    case kMailType: {
        auto text = mailTypeText(value);
        if (!text) {
            return failure("Invalid --mail-type specification", kExitBadOption);
        }
        opts.mailType = *text;
        break;
    }
    case kNice: {
        const std::int64_t nice = arg ? parseLeadingInteger(value) : 100;
        if (nice > kMaxNice || nice < -kMaxNice) {
            return failure("Invalid --nice value, out of range (+/- 2147483645)", kExitBadOption);
        }
        opts.nice = nice;
        break;
    }
    case kTime: {
        if (auto wrapped = negativeDaysLimit(value)) {
            opts.timeLimit = *wrapped;
            break;
        }
        auto limit = sched::parseTimeLimit(value);
        if (!limit) {
            return failure("Invalid --time specification", kExitBadOption);
        }
        opts.timeLimit = *limit == 0 ? sched::kInfinite : *limit;
        break;
    }
    case kMem:
    case kMemPerCpu:
    case kMemPerGpu: {
        auto mib = sched::parseMemory(value);
        if (!mib) {
            return failure(
                "Invalid --" + std::string(def.longName) + " specification", kExitBadOption);
        }
        (def.id == kMem ? opts.mem : def.id == kMemPerCpu ? opts.memPerCpu : opts.memPerGpu) = *mib;
        (def.id == kMem                ? opts.memSource
                : def.id == kMemPerCpu ? opts.memPerCpuSource
                                       : opts.memPerGpuSource)
            = source;
        break;
    }
    default:
        break;
    }
    return std::nullopt;
}

std::optional<Outcome> applyEnvironment(JobOptions &opts, const Context &ctx)
{
    for (const auto &envOption : envTable()) {
        auto value = ctx.getenv(envOption.variable);
        if (!value) {
            continue;
        }
        const OptionDef *def = findOption(envOption.id);
        std::optional<std::string> arg = *value;
        if (def->arg == ArgKind::None) {
            auto number = parseInteger(*value);
            if (!value->empty() && !equalsIgnoreCase(*value, "yes") && (!number || *number == 0)) {
                continue; // Slurm resets the flag, which is already unset here
            }
            arg.reset();
        } else if (def->arg == ArgKind::Optional && value->empty()) {
            arg.reset();
        }
        if (auto end = apply(opts, *def, arg, Source::Environment, ctx)) {
            return end;
        }
    }
    return std::nullopt;
}

std::optional<Outcome> settleMemory(JobOptions &opts)
{
    const bool memCli = opts.mem && opts.memSource != Source::Environment;
    const bool perCpuCli = opts.memPerCpu && opts.memPerCpuSource != Source::Environment;
    const bool perGpuCli = opts.memPerGpu && opts.memPerGpuSource != Source::Environment;
    if ((memCli && perCpuCli) || (perGpuCli && (memCli || perCpuCli))) {
        return Outcome{{},
            "sbatch: fatal: --mem, --mem-per-cpu, and --mem-per-gpu are mutually "
            "exclusive.\n",
            kExitError};
    }
    if (memCli || perCpuCli || perGpuCli) {
        if (!memCli) {
            opts.mem.reset();
        }
        if (!perCpuCli) {
            opts.memPerCpu.reset();
        }
        if (!perGpuCli) {
            opts.memPerGpu.reset();
        }
    } else if ((opts.mem ? 1 : 0) + (opts.memPerCpu ? 1 : 0) + (opts.memPerGpu ? 1 : 0) > 1) {
        return Outcome{{},
            "sbatch: fatal: SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and "
            "SLURM_MEM_PER_NODE are mutually exclusive.\n",
            kExitError};
    }
    return std::nullopt;
}

} // namespace mc::cmd::sbatch
