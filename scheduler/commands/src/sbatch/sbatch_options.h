#pragma once
// sbatch's options: its rows of the shared job-option table (every option of `man sbatch`,
// Slurm 22.05), and the SBATCH_* variables that stand for them.

#include "mc/cmd/job_option_table.h"

#include <span>
#include <string_view>

namespace mc::cmd::sbatch {

// The shared job-option ids (kAccount, kTime, ...), named here as sbatch's own.
using enum JobOptionId;

// The command-line (and #SBATCH) option table: jobOptionTable(kSbatchCommand).
std::span<const OptionDef> optionTable();

// Options sbatch reads only from its own command line, in its first pass (Slurm ignores them in
// #SBATCH lines): --help, --usage, --version, --verbose, --quiet, --wrap.
bool isEarlyPassOption(int id);

// SBATCH_* input environment variables and the option each stands for, in the order sbatch
// applies them.
struct EnvOption {
    std::string_view variable;
    int id;
};
std::span<const EnvOption> envTable();

// The option definition with `id`; never null for an id of the table.
const OptionDef *findOption(int id);

} // namespace mc::cmd::sbatch
