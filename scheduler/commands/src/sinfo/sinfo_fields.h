#pragma once
// sinfo's field table: one row per field with its -o letter, its -O name, its header and how its
// value is computed from a group of nodes of one partition. The default formats, -l, -N, -s, -R,
// -o, -O and SINFO_FORMAT all build their columns from this one table, as Slurm's sinfo does.

#include "../shared/cluster_view.h"
#include "mc/cmd/context.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd::sinfo {

// One output line's data: nodes of one partition (or of the whole cluster for -R) that print
// alike. `part` is null for -R rows; `nodes` is empty for a partition none of whose nodes is
// selected ("n/a" rows).
struct Row {
    const PartitionView *part = nullptr;
    std::vector<const NodeView *> nodes;
    const ClusterView *cluster = nullptr;
    const UserLookup *lookupUser = nullptr;
};

struct Cell {
    std::string text;
    bool cut = true; // whether a right-justified value is cut to the column width
};

struct Field {
    char letter; // -o letter; 0 for -O only
    std::string_view name; // -O name, lower case
    std::string_view header;
    // Aggregate fields (node counts and lists, CPU and node A/I/O/T) sum over a row's nodes;
    // all other fields must print the same for every node of a row (they group the nodes).
    bool aggregate;
    Cell (*value)(const Row &);
};

std::span<const Field> fieldTable();

struct Column {
    const Field *field = nullptr;
    int width = 0; // 0: as wide as the value
    bool right = false;
    bool fitToData = false; // '#': as wide as the widest partition name or node list (min 9)
    std::string suffix;
};

// Parses an -o format ("%#P %.5a %N", "%all"); text before the first '%' prints as is. Unknown
// letters print as typed and append "Invalid node format specification: X\n" to `errors`.
std::vector<Column> parseFormat(std::string_view format, std::string &errors);

// Parses an -O format ("NodeList:20,StateLong:.10,CPUs"); a field without a size is 20 wide.
// Unknown names are left out with Slurm's "sinfo: error: Invalid job format specification: X".
std::vector<Column> parseLongFormat(std::string_view format, std::string &errors);

// Resolves the '#' widths of the columns for the rows to print.
void fitColumns(std::vector<Column> &columns, const std::vector<Row> &rows);

// One output line (the header when `row` is null), newline-terminated.
std::string renderLine(const std::vector<Column> &columns, const Row *row);

// What a node prints for the non-aggregate columns: nodes with equal keys share a row.
std::string groupKey(const std::vector<Column> &columns, const Row &singleNode);

// Slurm's node state ordering value (base state plus flags), for sorting by state.
int stateRank(const NodeView &node);

// The compact state names (-t accepts both these and the long names).
std::string compactState(std::string_view longState);

} // namespace mc::cmd::sinfo
