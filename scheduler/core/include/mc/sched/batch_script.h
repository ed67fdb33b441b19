#pragma once
// The #SBATCH directives of a batch script, read as sbatch reads them.

#include <string>
#include <string_view>
#include <vector>

namespace mc::sched {

// True when the script's first line starts with "#!" (sbatch refuses scripts without one).
bool hasShebang(std::string_view script);

// The option words of every `#SBATCH` line (or another prefix, e.g. "#SALLOC"), in order.
// The prefix must start the line and is case-sensitive; with "#SBATCH", sbatch's older
// "#SLURM" is read too. Reading stops at the first line that is neither blank nor a comment,
// and at a "#SBATCH hetjob" separator. Words are split on blanks with shell-like quotes ('…'
// and "…") and '\' escapes; an unquoted '#' ends the directive (trailing comment), and so does
// an empty word (""). "#SBATCH --time=5 # five minutes" -> {"--time=5"}. An unmatched quote
// runs to the end of its line (sbatch itself refuses such a script).
std::vector<std::string> parseDirectives(
    std::string_view script, std::string_view prefix = "#SBATCH");

} // namespace mc::sched
