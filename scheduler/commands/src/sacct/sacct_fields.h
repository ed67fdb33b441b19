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

// A job (step == nullptr) or one of its steps, as the acct reply carries them (the members sacct
// asked for).
struct AcctRow {
    const record::JobObject *job = nullptr;
    const record::StepObject *step = nullptr;
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

} // namespace mc::cmd::sacct
