#include "sbatch_job_options.h"

#include "../scancel/scancel_options.h"
#include "../shared/help_texts.h"
#include "../shared/text.h"
#include "sbatch_options.h"

#include <algorithm>

namespace mc::cmd::sbatch {
namespace {

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
    case kChdir:
        opts.chdir = absolutePath(value, ctx.cwd);
        break;
    case kError:
        opts.stdErr = value;
        break;
    case kInput:
        opts.stdIn = value;
        break;
    case kOutput:
        opts.stdOut = value;
        break;
    case kExport:
        opts.exportSpec = value;
        break;
    case kWrap:
        opts.wrap = value;
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
    case kQuiet:
        opts.quiet = true;
        break;
    case kVerbose:
        opts.verbose = true;
        break;
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
    default:
        // Where each memory option came from decides which of two wins (settleMemory()).
        if (def.id == kMem || def.id == kMemPerCpu || def.id == kMemPerGpu) {
            (def.id == kMem                ? opts.memSource
                    : def.id == kMemPerCpu ? opts.memPerCpuSource
                                           : opts.memPerGpuSource)
                = source;
        }
        if (auto error = applyJobOption(opts, def, arg, ctx.now)) {
            Outcome bad = failure(error->message, error->exitCode);
            bad.err = error->preamble + bad.err;
            return bad;
        }
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
