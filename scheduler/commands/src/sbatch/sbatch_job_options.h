#pragma once
// sbatch's options as one submission sees them, and how each option word, SBATCH_* variable and
// #SBATCH directive changes them, with Slurm's checks and messages.

#include "../shared/outcome.h"
#include "mc/cmd/context.h"
#include "mc/cmd/job_options_apply.h"
#include "mc/cmd/option_parser.h"
#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <optional>
#include <string>
#include <vector>

namespace mc::cmd::sbatch {

inline constexpr std::string_view kProgram = "sbatch";
inline constexpr int kExitError = 1; // Slurm's error_exit
inline constexpr int kExitBadOption = 255; // Slurm's exit(-1) after an option error

// Where an option came from; --mem and --mem-per-cpu conflict unless one is from the
// environment (Slurm's _validate_memory_options()).
enum class Source { CommandLine, Directive, Environment };

// "sbatch: error: <message>" with `exitCode`.
Outcome failure(std::string_view message, int exitCode);

// sbatch's own options beside the common ones (JobOptionValues, applied by applyJobOption()).
struct JobOptions : JobOptionValues {
    std::optional<std::string> chdir, stdErr, stdIn, stdOut;
    std::optional<std::string> exportSpec, wrap;
    Source memSource = Source::CommandLine, memPerCpuSource = Source::CommandLine;
    Source memPerGpuSource = Source::CommandLine;
    bool parsable = false, quiet = false, verbose = false;
    bool wait = false; // -W: sbatch returns when the job ends, with its exit code
    bool openAppend = false; // --open-mode=append
    std::string signal; // --signal, normalized "[B:]<number>@<seconds>"
    std::optional<bool> requeue; // --requeue / --no-requeue
    bool testOnly = false;
    bool ignorePbs = false; // --ignore-pbs: #PBS and #BSUB lines are not read
    // Checked as Slurm checks them, then settled at submission (sbatch.cpp): --deadline as
    // given, -L, --reservation, -M (empty: not given).
    std::string deadlineText, licenses, reservation, clusters;
};

// Applies one option (`arg` as given, nullopt when none); returns how the run ends when the
// option ends it: --help/--usage/--version, an unsupported option, a malformed value.
std::optional<Outcome> apply(JobOptions &opts, const OptionDef &def,
    const std::optional<std::string> &arg, Source source, const Context &ctx);

// Applies the SBATCH_* variables of the caller's environment. A flag variable sets its option
// when empty, "yes" or a non-zero number, as Slurm's slurm_process_option() reads it.
std::optional<Outcome> applyEnvironment(JobOptions &opts, const Context &ctx);

// Slurm's _validate_memory_options(): --mem and --mem-per-cpu both set outside the environment
// are fatal; one set there wins over the environment's other one.
std::optional<Outcome> settleMemory(JobOptions &opts);

} // namespace mc::cmd::sbatch
