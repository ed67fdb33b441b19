#pragma once
// The #PBS and #BSUB lines of a batch script, read as Slurm 22.05's sbatch reads them (unless
// --ignore-pbs): every such line of the script, not only the first block, #PBS lines before
// #BSUB lines, after #SBATCH and before SBATCH_* variables and the command line. Each foreign
// option becomes the sbatch option real sbatch maps it to (checked against /usr/bin/sbatch:
// `#PBS -N` is --job-name, `#BSUB -W` is --time in Slurm's own format, `#BSUB -M` is
// --mem-per-cpu in KB...); the options real sbatch accepts and drops (#PBS -A, -j, -k, -r, -S,
// -u, -v...) are dropped here too; any other letter ends the run with getopt's words.

#include "../shared/outcome.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd::sbatch {

// One sbatch option a foreign word stands for: an id of sbatch's option table, and its value.
struct MappedOption {
    int id = 0;
    std::optional<std::string> value;
};

struct ForeignDirectives {
    std::vector<MappedOption> options; // in the order sbatch applies them
    // How the run ends on a bad line ("sbatch: invalid option -- 'R'", "Invalid argument: x"),
    // after `options`; nullopt when every line was understood.
    std::optional<Outcome> error;
};

ForeignDirectives foreignDirectives(std::string_view script);

// A PBS memory size ("2gb", "500mb", "100kb", "100": MB) in MiB, rounded up; nullopt when it
// is not one. qsub reads its -l mem= the same way.
std::optional<long long> pbsMemoryMiB(std::string_view text);

} // namespace mc::cmd::sbatch
