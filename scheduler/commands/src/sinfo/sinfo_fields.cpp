#include "sinfo_fields.h"

#include "../shared/format_spec.h"
#include "../shared/text.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/memory.h"
#include "mc/sched/slurm_version.h"
#include "mc/sched/time_format.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>

namespace mc::cmd::sinfo {
namespace {

constexpr int kMinFieldSize = 9; // Slurm's MIN_PART_FIELD_SIZE / MIN_NODE_FIELD_SIZE

struct StateName {
    std::string_view longName;
    std::string_view compact;
    int rank; // Slurm's node_state value: base state | flags
};

// Slurm's base states (UNKNOWN 0, DOWN 1, IDLE 2, ALLOCATED 3, MIXED 5, FUTURE 6) with its
// DRAIN 0x200, COMPLETING 0x400, RES 0x20, MAINT 0x8000 and FAIL 0x2000 flags.
constexpr std::array kStates{
    StateName{"unknown", "unk", 0},
    StateName{"down", "down", 1},
    StateName{"idle", "idle", 2},
    StateName{"allocated", "alloc", 3},
    StateName{"mixed", "mix", 5},
    StateName{"future", "futr", 6},
    StateName{"reserved", "resv", 0x22},
    StateName{"drained", "drain", 0x202},
    StateName{"draining", "drng", 0x203},
    StateName{"completing", "comp", 0x403},
    StateName{"maint", "maint", 0x8002},
    StateName{"fail", "fail", 0x2001},
    StateName{"failing", "failg", 0x2003},
    StateName{"planned", "plnd", 0x12},
};

const StateName *stateOf(std::string_view longName)
{
    for (const auto &s : kStates) {
        if (s.longName == longName) {
            return &s;
        }
    }
    return nullptr;
}

bool available(const NodeView &n)
{
    return n.responding
        && (n.state == "idle" || n.state == "mixed" || n.state == "allocated"
            || n.state == "completing" || n.state == "reserved" || n.state == "planned");
}

// Slurm's _build_min_max_32_string(range=false): "4", or "4+" when the nodes differ.
Cell minMax(const Row &r, const std::function<std::int64_t(const NodeView &)> &get)
{
    if (r.nodes.empty()) {
        return {"0"};
    }
    std::int64_t lo = get(*r.nodes.front());
    std::int64_t hi = lo;
    for (const NodeView *n : r.nodes) {
        lo = std::min(lo, get(*n));
        hi = std::max(hi, get(*n));
    }
    return {std::to_string(lo) + (hi != lo ? "+" : "")};
}

Cell nodeNames(const Row &r)
{
    std::vector<std::string> names;
    for (const NodeView *n : r.nodes) {
        names.push_back(n->name);
    }
    std::sort(names.begin(), names.end());
    return {sched::compressHostlist(names), false};
}

Cell first(const Row &r, const std::function<std::string(const NodeView &)> &get,
    std::string_view none = "n/a")
{
    return {r.nodes.empty() ? std::string(none) : get(*r.nodes.front())};
}

Cell partText(const Row &r, const std::function<std::string(const PartitionView &)> &get)
{
    return {r.part ? get(*r.part) : std::string("n/a")};
}

std::string joinOrNull(const std::vector<std::string> &items)
{
    std::string text;
    for (const auto &item : items) {
        text += (text.empty() ? "" : ",") + item;
    }
    return text.empty() ? std::string("(null)") : text;
}

std::string limitText(std::int64_t seconds)
{
    if (seconds < 0) {
        return "infinite";
    }
    return sched::formatElapsed(seconds);
}

Cell stateCell(const Row &r, bool compact)
{
    if (r.nodes.empty()) {
        return {"n/a"};
    }
    const NodeView &n = *r.nodes.front();
    std::string text = compact ? compactState(n.state) : n.state;
    return {text + (n.responding ? "" : "*")};
}

Cell cpusAiot(const Row &r)
{
    int alloc = 0, idle = 0, other = 0, total = 0;
    for (const NodeView *n : r.nodes) {
        alloc += n->allocCpus;
        total += n->cpus;
        (available(*n) ? idle : other) += n->cpus - n->allocCpus;
    }
    return {std::to_string(alloc) + "/" + std::to_string(idle) + "/" + std::to_string(other) + "/"
        + std::to_string(total)};
}

// Node counts: allocated (or mixed), idle, other (down, drained, failed), total.
std::array<int, 4> nodeAiot(const Row &r)
{
    std::array<int, 4> c{0, 0, 0, static_cast<int>(r.nodes.size())};
    for (const NodeView *n : r.nodes) {
        if (!available(*n) && !(n->responding && n->state == "draining")) {
            ++c[2];
        } else if (n->allocCpus > 0) {
            ++c[0];
        } else {
            ++c[1];
        }
    }
    return c;
}

Cell nodesAiot(const Row &r)
{
    auto c = nodeAiot(r);
    return {std::to_string(c[0]) + "/" + std::to_string(c[1]) + "/" + std::to_string(c[2]) + "/"
        + std::to_string(c[3])};
}

Cell nodesAi(const Row &r)
{
    auto c = nodeAiot(r);
    return {std::to_string(c[0]) + "/" + std::to_string(c[1])};
}

Cell gres(const NodeView &n)
{
    const std::string text = nodeGres(n);
    return {text.empty() ? std::string("(null)") : text};
}

Cell reasonUserLong(const Row &r)
{
    return first(
        r,
        [&r](const NodeView &n) {
            if (n.reasonUser.empty()) {
                return std::string("Unknown");
            }
            auto user
                = (r.lookupUser && *r.lookupUser) ? (*r.lookupUser)(n.reasonUser) : std::nullopt;
            return n.reasonUser + "(" + (user ? std::to_string(user->uid) : std::string("0")) + ")";
        },
        "Unknown");
}

// The table, in Slurm's letter order, then the -O-only fields.
const std::array kFields{
    Field{'a', "available", "AVAIL", false,
        [](const Row &r) {
            return partText(r, [](const PartitionView &p) { return p.state; });
        }},
    Field{'A', "nodeai", "NODES(A/I)", true, nodesAi},
    Field{'b', "features_act", "ACTIVE_FEATURES", false,
        [](const Row &r) {
            return first(r, [](const NodeView &n) { return joinOrNull(n.features); });
        }},
    Field{'B', "maxcpuspernode", "MAX_CPUS_PER_NODE", false,
        [](const Row &) {
            return Cell{"UNLIMITED"};
        }},
    Field{'c', "cpus", "CPUS", false,
        [](const Row &r) {
            return minMax(r, [](const NodeView &n) { return n.cpus; });
        }},
    Field{'C', "cpusstate", "CPUS(A/I/O/T)", true, cpusAiot},
    Field{'d', "disk", "TMP_DISK", false,
        [](const Row &) {
            return Cell{"0"};
        }},
    Field{'D', "nodes", "NODES", true,
        [](const Row &r) {
            return Cell{std::to_string(r.nodes.size())};
        }},
    Field{'e', "freemem", "FREE_MEM", false,
        [](const Row &r) {
            return minMax(r, [](const NodeView &n) { return n.memory - n.allocMemory; });
        }},
    Field{'E', "reason", "REASON", false,
        [](const Row &r) {
            return first(r, [](const NodeView &n) { return n.reason.empty() ? "none" : n.reason; });
        }},
    Field{'f', "features", "AVAIL_FEATURES", false,
        [](const Row &r) {
            return first(r, [](const NodeView &n) { return joinOrNull(n.features); });
        }},
    Field{'F', "nodeaiot", "NODES(A/I/O/T)", true, nodesAiot},
    Field{'g', "groups", "GROUPS", false,
        [](const Row &r) {
            return Cell{r.part ? "all" : "n/a"};
        }},
    Field{'G', "gres", "GRES", false,
        [](const Row &r) {
            return r.nodes.empty() ? Cell{"(null)"} : gres(*r.nodes.front());
        }},
    Field{'h', "oversubscribe", "OVERSUBSCRIBE", false,
        [](const Row &r) {
            return partText(
                r, [](const PartitionView &p) { return p.exclusive ? "EXCLUSIVE" : "NO"; });
        }},
    Field{'H', "timestamp", "TIMESTAMP", false,
        [](const Row &r) {
            return first(
                r,
                [](const NodeView &n) {
                    return n.reasonTime > 0 ? sched::formatTimestamp(n.reasonTime)
                                            : std::string("Unknown");
                },
                "Unknown");
        }},
    Field{0, "reservation", "RESERVATION", false, // Slurm 22.05 has no %i
        [](const Row &) {
            return Cell{"(null)"};
        }},
    Field{'I', "priorityjobfactor", "PRIO_JOB_FACTOR", false,
        [](const Row &r) {
            return Cell{r.part ? "1" : "n/a"};
        }},
    Field{'l', "time", "TIMELIMIT", false,
        [](const Row &r) {
            Cell c = partText(r, [](const PartitionView &p) { return limitText(p.maxTime); });
            c.cut = false;
            return c;
        }},
    Field{'L', "defaulttime", "DEFAULTTIME", false,
        [](const Row &r) {
            Cell c = partText(r, [](const PartitionView &p) {
                return p.defaultTime ? limitText(*p.defaultTime) : std::string("n/a");
            });
            c.cut = false;
            return c;
        }},
    Field{'m', "memory", "MEMORY", false,
        [](const Row &r) {
            return minMax(r, [](const NodeView &n) { return n.memory; });
        }},
    Field{'M', "preemptmode", "PREEMPT_MODE", false,
        [](const Row &) {
            return Cell{"OFF"};
        }},
    Field{'n', "nodehost", "HOSTNAMES", true, nodeNames},
    Field{'N', "nodelist", "NODELIST", true, nodeNames},
    Field{'o', "nodeaddr", "NODE_ADDR", true, nodeNames},
    Field{'O', "cpusload", "CPU_LOAD", false,
        [](const Row &r) {
            // minicluster's nodes are emulated: a node's load is the CPUs its jobs hold.
            return first(r, [](const NodeView &n) {
                char buffer[32];
                std::snprintf(buffer, sizeof buffer, "%.2f", static_cast<double>(n.allocCpus));
                return std::string(buffer);
            });
        }},
    Field{'p', "prioritytier", "PRIO_TIER", false,
        [](const Row &r) {
            return partText(
                r, [](const PartitionView &p) { return std::to_string(p.priorityTier); });
        }},
    Field{'P', "partition", "PARTITION", false,
        [](const Row &r) {
            return partText(
                r, [](const PartitionView &p) { return p.name + (p.isDefault ? "*" : ""); });
        }},
    Field{'r', "root", "ROOT", false,
        [](const Row &r) {
            return Cell{r.part ? "no" : "n/a"};
        }},
    Field{'R', "partitionname", "PARTITION", false,
        [](const Row &r) {
            return partText(r, [](const PartitionView &p) { return p.name; });
        }},
    Field{'s', "size", "JOB_SIZE", false,
        [](const Row &r) {
            return partText(r, [](const PartitionView &p) {
                return "1-" + (p.maxNodes ? std::to_string(*p.maxNodes) : std::string("infinite"));
            });
        }},
    Field{'S', "allocnodes", "ALLOCNODES", false,
        [](const Row &r) {
            return Cell{r.part ? "all" : "n/a"};
        }},
    Field{'t', "statecompact", "STATE", false,
        [](const Row &r) {
            return stateCell(r, true);
        }},
    Field{'T', "statelong", "STATE", false,
        [](const Row &r) {
            return stateCell(r, false);
        }},
    Field{'u', "user", "USER", false,
        [](const Row &r) {
            return first(
                r,
                [](const NodeView &n) {
                    return n.reasonUser.empty() ? std::string("Unknown") : n.reasonUser;
                },
                "Unknown");
        }},
    Field{'U', "userlong", "USER", false, reasonUserLong},
    Field{'v', "version", "VERSION", false,
        [](const Row &) {
            return Cell{std::string(sched::kSlurmRelease)};
        }},
    Field{'V', "cluster", "CLUSTER", false,
        [](const Row &) {
            return Cell{"N/A"}; // Slurm names the cluster only with -M (not supported)
        }},
    Field{'w', "weight", "WEIGHT", false,
        [](const Row &r) {
            return minMax(r, [](const NodeView &n) { return n.weight; });
        }},
    Field{'X', "sockets", "SOCKETS", false,
        [](const Row &) {
            return Cell{"1"};
        }},
    Field{'Y', "cores", "CORES", false,
        [](const Row &r) {
            return minMax(r, [](const NodeView &n) { return n.cpus; });
        }},
    Field{'z', "socketcorethread", "S:C:T", false,
        [](const Row &r) {
            return Cell{"1:" + minMax(r, [](const NodeView &n) { return n.cpus; }).text + ":1"};
        }},
    Field{'Z', "threads", "THREADS", false,
        [](const Row &) {
            return Cell{"1"};
        }},
    Field{0, "allocmem", "ALLOCMEM", true,
        [](const Row &r) {
            std::int64_t sum = 0;
            for (const NodeView *n : r.nodes) {
                sum += n->allocMemory;
            }
            return Cell{std::to_string(sum)};
        }},
    Field{0, "comment", "COMMENT", false,
        [](const Row &) {
            return Cell{"(null)"};
        }},
    Field{0, "extra", "EXTRA", false,
        [](const Row &) {
            return Cell{"(null)"};
        }},
    Field{0, "gresused", "GRES_USED", false,
        [](const Row &r) {
            return first(r, [](const NodeView &n) {
                const std::string used = nodeGresUsed(n);
                return used.empty() ? std::string("(null)") : used;
            });
        }},
    Field{0, "port", "PORT", false,
        [](const Row &) {
            return Cell{"0"};
        }},
    Field{0, "statecomplete", "STATECOMPLETE", false,
        [](const Row &r) {
            return first(r, [](const NodeView &n) {
                std::string s = toLower(scontrolNodeState(n));
                s.erase(std::remove(s.begin(), s.end(), '*'), s.end());
                return s + (n.responding ? "" : "+not_responding");
            });
        }},
};

const Field *byLetter(char letter)
{
    for (const auto &field : kFields) {
        if (field.letter == letter) {
            return &field;
        }
    }
    return nullptr;
}

const Field *byName(std::string_view name)
{
    const std::string lower = toLower(name);
    for (const auto &field : kFields) {
        if (field.name == lower) {
            return &field;
        }
    }
    return nullptr;
}

} // namespace

std::span<const Field> fieldTable()
{
    return kFields;
}

std::string compactState(std::string_view longState)
{
    const StateName *s = stateOf(longState);
    return s ? std::string(s->compact) : std::string(longState);
}

int stateRank(const NodeView &node)
{
    const StateName *s = stateOf(node.state);
    return (s ? s->rank : 0) | (node.responding ? 0 : 0x800);
}

std::vector<Column> parseFormat(std::string_view format, std::string &errors)
{
    std::string expanded(format);
    if (const auto at = expanded.find("%all"); at != std::string::npos) {
        std::string all;
        for (const auto &field : kFields) {
            if (field.letter) {
                all += std::string("%") + field.letter + "|";
            }
        }
        expanded.replace(at, 4, all);
    }
    std::vector<Column> columns;
    ShortFormat spec = tokenizeShortFormat(expanded, true);
    if (!spec.prefix.empty()) {
        columns.push_back(Column{nullptr, 0, false, false, spec.prefix});
    }
    for (auto &token : spec.tokens) {
        Column column{byLetter(token.letter), token.width, token.right, token.fitToData,
            std::move(token.suffix)};
        if (!column.field) {
            // Slurm's words here have no "sinfo: error: " and the letter prints as typed
            errors += std::string("Invalid node format specification: ") + token.letter + "\n";
            column.suffix = "%" + token.raw;
        }
        columns.push_back(std::move(column));
    }
    return columns;
}

std::vector<Column> parseLongFormat(std::string_view format, std::string &errors)
{
    std::vector<Column> columns;
    for (auto &token : tokenizeLongFormat(format)) {
        if (equalsIgnoreCase(token.name, "all")) {
            for (const auto &field : kFields) {
                columns.push_back(Column{&field, token.width, token.right, false, "|"});
            }
            continue;
        }
        Column column{byName(token.name), token.width, token.right, false, std::move(token.suffix)};
        if (!column.field) {
            errors += errorLine("sinfo", "Invalid job format specification: " + token.name); // sic
            continue;
        }
        columns.push_back(std::move(column));
    }
    return columns;
}

void fitColumns(std::vector<Column> &columns, const std::vector<Row> &rows)
{
    for (auto &column : columns) {
        if (!column.fitToData || !column.field) {
            continue;
        }
        std::size_t widest = kMinFieldSize;
        for (const auto &row : rows) {
            widest = std::max(widest, column.field->value(row).text.size());
        }
        column.width = static_cast<int>(widest);
    }
}

std::string renderLine(const std::vector<Column> &columns, const Row *row)
{
    std::string line;
    for (const auto &column : columns) {
        if (column.field) {
            if (row) {
                const Cell cell = column.field->value(*row);
                line += fitToWidth(cell.text, column.width, column.right, cell.cut);
            } else {
                line += fitToWidth(
                    std::string(column.field->header), column.width, column.right, true);
            }
        }
        line += column.suffix;
    }
    line += '\n';
    return line;
}

std::string groupKey(const std::vector<Column> &columns, const Row &singleNode)
{
    std::string key;
    for (const auto &column : columns) {
        if (column.field && !column.field->aggregate) {
            key += column.field->value(singleNode).text;
            key += '\x1f';
        }
    }
    return key;
}

} // namespace mc::cmd::sinfo
