#pragma once
// Small text helpers shared by the commands: Slurm's message shapes, list splitting, padding.

#include "mc/base/text.h"
#include "mc/sched/slurm_version.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd {

// What every Slurm command prints for --version (Debian's package name, as in the reference).
inline const std::string kSlurmVersion = "slurm-wlm " + std::string(sched::kSlurmRelease) + "\n";

// "<program>: error: <message>\n", Slurm's error() line.
std::string errorLine(std::string_view program, std::string_view message);
// Slurm's parse_time() complaint, printed with no program prefix before the option's own error:
// "Invalid time specification (pos=0): <text>\n".
std::string invalidTimeLine(std::string_view text);

// The shared helpers (mc/base/text.h): list splitting as strtok() does, ASCII case.
using base::equalsIgnoreCase;
using base::splitList;
using base::toLower;

// A list of job ids as scancel, scontrol, squeue -j and sacct -j take it: split at commas and
// blanks, except inside an array task list ("12_[1,3],14" is "12_[1,3]" and "14").
std::vector<std::string> splitJobIdList(std::string_view text);

// Whole-string decimal integer; nullopt for anything else (sign allowed).
std::optional<std::int64_t> parseInteger(std::string_view text);
// strtol() semantics: leading blanks and sign, then digits; returns the value and the unparsed
// rest. No digits: value 0 and the whole text as rest.
std::int64_t parseLeadingInteger(std::string_view text, std::string_view *rest = nullptr);

// Text padded on the left (right-justified) or right (left-justified) to `width`.
std::string padLeft(std::string_view text, std::size_t width);
std::string padRight(std::string_view text, std::size_t width);

// One column of a fixed-width report: its width, the side it is padded on, and how a longer
// value is cut: to the width, or (`markCut`, as sacct and sacctmgr do) one short with a '+'.
struct TableColumn {
    std::size_t width = 0;
    bool right = false;
    bool markCut = false;
};

// A report as sshare and sacctmgr print it: unless `noHeader`, the headers and (when not
// parsable) a rule of '-' as wide as each column; then one line per row (values in column
// order). `parsable` 0: padded cells joined by ' '; 1: raw values each followed by '|'
// (--parsable); 2: joined by '|' with none at the end (--parsable2).
std::string tableText(const std::vector<TableColumn> &columns,
    const std::vector<std::string> &headers, const std::vector<std::vector<std::string>> &rows,
    bool noHeader, int parsable);

// Absolute form of `path` against `base` (no normalisation beyond joining).
std::string absolutePath(std::string_view path, std::string_view base);
std::string baseName(std::string_view path);

} // namespace mc::cmd
