#pragma once
// squeue's field table: one row per field with its -o letter, its -O name, its header and how
// its value is computed from a job object (docs/protocol.md). -o, -O, -l and the default
// format all build their columns from this one table, as Slurm's squeue does.

#include "../shared/job_view.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd::squeue {

// One job as the fields see it (its members as the reply carried them: those squeue asked for).
// `now` is the controller's clock (TIME, TIME_LEFT).
struct JobRow {
    const record::JobObject *job = nullptr;
    std::int64_t now = 0;
    bool noConvert = false; // --noconvert: memory stays in MiB
    const JobSite *site = nullptr;
};

// A printed value; `cut` says whether a right-justified value is truncated to the column width
// (Slurm does not cut times and node lists; left-justified values are always cut).
struct Cell {
    std::string text;
    bool cut = true;
};

struct Field {
    char letter; // -o letter, 0 for -O only
    std::string_view name; // -O name, lower case; empty for -o only
    std::string_view header;
    bool cutHeader;
    Cell (*value)(const JobRow &); // null for a fixed value
    // What Slurm prints for every job of a cluster without the feature (federation, burst
    // buffers, heterogeneous jobs, switches...): minicluster has none of them.
    std::string_view fixed = {};
};

// Every field, in Slurm's letter order.
std::span<const Field> fieldTable();

// A column of the output: a field (null for literal text only), its width (0: as wide as the
// value), its justification, and the text printed after it.
struct Column {
    const Field *field = nullptr;
    int width = 0;
    bool right = false;
    std::string suffix;
};

// Parses an -o format ("%.18i %j"); text before the first '%' is printed as is. Unknown letters
// append "squeue: error: Invalid job format specification: X\n" to `errors` and print their
// text literally, as Slurm does.
std::vector<Column> parseFormat(std::string_view format, std::string &errors);

// Parses an -O format ("JobID,Name:30,State:.10"); fields default to 20 columns, left-justified.
std::vector<Column> parseLongFormat(std::string_view format, std::string &errors);

// One output line (header when `row` is null), newline-terminated.
std::string renderLine(const std::vector<Column> &columns, const JobRow *row);
// The same, appended to `out`.
void appendLine(std::string &out, const std::vector<Column> &columns, const JobRow *row);

// Slurm's _print_secs(): "5:00", "1:02:03", "2-00:00:00"; "INVALID" below 0 or above a year.
std::string formatSeconds(std::int64_t seconds);

// When the job started, or for a pending job when the scheduler plans to start it (squeue
// --start, %S); 0 when unknown.
std::int64_t startTime(const JobRow &row);

// Seconds the job has run by `now` (0 while pending), as Slurm's job_time_used().
std::int64_t timeUsed(const JobRow &row);

} // namespace mc::cmd::squeue
