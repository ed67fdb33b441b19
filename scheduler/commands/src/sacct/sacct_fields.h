#pragma once
// sacct's field table: every field `sacct --helpformat` lists, with Slurm's default width
// (negative: left-justified) and its value for a job row or a step row. Fields whose data
// minicluster does not record (usage statistics, energy, ...) print blank, as Slurm does for
// missing data.

#include "../shared/job_view.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd::sacct {

// A job (step == nullptr) or one of its steps, as the acct reply carries them.
struct AcctRow {
    JobView job;
    const proto::Json *step = nullptr;
    std::int64_t now = 0;
    bool noConvert = false;
    const JobSite *site = nullptr;
    char unit = 0; // --units
};

enum class Kind {
    Text, // cut with a trailing '+' when too long; missing: blank
    Number, // never cut; missing: blank
    Seconds, // a duration, [D-]HH:MM:SS; missing: blank
    Date, // a timestamp, cut to the width; 0: "Unknown"
};

// A printed value; nullopt is Slurm's NULL/NO_VAL (blank).
using Value = std::optional<std::string>;

struct Field {
    std::string_view name;
    int width;
    Kind kind;
    Value (*value)(const AcctRow &);
};

std::span<const Field> fieldTable();

// A field chosen by -o: "JobName%-20" gives width -20.
struct Column {
    const Field *field;
    int width;
};

// Output layout: columns padded (-1), or -p/-P with the delimiter, ending each field but the
// last (-P) or every field (-p).
struct Layout {
    bool parsable = false;
    bool trailingDelimiter = false;
    std::string delimiter = "|";
};

// Resolves a field list as Slurm does: case-insensitive prefixes in table order, "ALL", and an
// optional "%width". nullopt names the first unknown field.
struct ColumnsOrError {
    std::vector<Column> columns;
    std::optional<std::string> unknown;
};
ColumnsOrError parseFieldList(std::string_view list);

std::string renderHeader(const std::vector<Column> &columns, const Layout &layout);
void appendRow(
    std::string &out, const std::vector<Column> &columns, const Layout &layout, const AcctRow &row);

// sacct --helpformat: every field name, four to a line.
std::string helpFormat();

// A step's id as sacct prints it after the job id: "batch", "extern", "0", ... (the contract's
// `step_id`; older replies call it `step`).
std::string stepName(const proto::Json &step);

} // namespace mc::cmd::sacct
