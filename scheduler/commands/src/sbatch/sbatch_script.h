#pragma once
// The batch script side of sbatch: finding and reading the script, Slurm's sanity checks, the
// --wrap script, and the environment --export sends with the job.

#include "mc/base/file.h"
#include "mc/cmd/context.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd::sbatch {

// sbatch's script path resolution (man sbatch, SCRIPT PATH RESOLUTION): "./x" against `base`,
// "/x" as is, "x" in `base`, then in $PATH. nullopt when no readable file is found.
std::optional<std::string> resolveScript(
    const std::string &name, const std::string &base, const Context &ctx);

using base::readFile; // mc/base/file.h: the file at `path`, nullopt if unreadable

// Slurm's complaints about a script body, one "sbatch: error: ..." line each; empty when the
// script is acceptable (non-empty, not only blanks, starts with #!, no NUL, no CRLF).
std::string scriptProblems(std::string_view script);

// The script sbatch --wrap submits for `command`.
std::string wrapScript(std::string_view command);

// The job environment for an --export value (nullopt: the default, ALL). ALL sends every
// variable; NONE only SLURM_*; a list without ALL sends SLURM_* plus the listed NAME (from the
// caller's environment) and NAME=value entries.
std::vector<std::string> exportedEnvironment(
    const std::optional<std::string> &exportSpec, const Context &ctx);

} // namespace mc::cmd::sbatch
