#include "mc/cmd/sinfo.h"

#include "../shared/cluster_view.h"
#include "../shared/help_texts.h"
#include "../shared/json_commands.h"
#include "../shared/outcome.h"
#include "../shared/text.h"
#include "mc/sched/hostlist.h"
#include "sinfo_fields.h"
#include "sinfo_options.h"

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <map>
#include <ostream>

namespace mc::cmd {
namespace {

using namespace sinfo;

constexpr std::string_view kProgram = "sinfo";
constexpr std::string_view kDefaultFormat = "%#P %.5a %.10l %.6D %.6t %N";
constexpr std::string_view kLongListFormat = "%#P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %N";
constexpr std::string_view kNodeFormat = "%#N %.6D %.#P %6t";
constexpr std::string_view kNodeLongFormat
    = "%#N %.6D %.#P %.11T %4c %.8z %.6m %.8d %.6w %.8f %20E";
constexpr std::string_view kSummarizeFormat = "%#P %.5a %.10l %.16F %N";
constexpr std::string_view kReasonsFormat = "%20E %9u %19H %N";
constexpr std::string_view kReasonsLongFormat = "%20E %12U %19H %6t %N";

// A -t word: the long states it selects; "no_respond" selects non-responding nodes.
struct StateMatch {
    std::vector<std::string> longNames;
    bool notResponding = false;
};

struct Settings {
    std::optional<std::string> format, longFormat, sort;
    std::optional<std::string> clusters; // -M
    bool longList = false, nodeCentric = false, summarize = false, reasons = false;
    bool noHeader = false, dead = false, responding = false;
    std::vector<std::string> partitions;
    std::optional<std::vector<std::string>> nodes;
    std::vector<StateMatch> states;
};

std::optional<StateMatch> stateMatch(std::string_view word)
{
    const std::string w = toLower(word);
    static const std::map<std::string, std::vector<std::string>> kNames{{"alloc", {"allocated"}},
        {"allocated", {"allocated"}}, {"comp", {"completing"}}, {"completing", {"completing"}},
        {"down", {"down"}}, {"drain", {"drained", "draining"}}, {"drained", {"drained"}},
        {"draining", {"draining"}}, {"drng", {"draining"}}, {"fail", {"fail", "failing"}},
        {"failing", {"failing"}}, {"future", {"future"}}, {"futr", {"future"}}, {"idle", {"idle"}},
        {"maint", {"maint"}}, {"mix", {"mixed"}}, {"mixed", {"mixed"}}, {"planned", {"planned"}},
        {"resv", {"reserved"}}, {"reserved", {"reserved"}}, {"unk", {"unknown"}},
        {"unknown", {"unknown"}}};
    if (w == "no_respond" || w == "not_responding") {
        return StateMatch{{}, true};
    }
    if (w == "all") {
        StateMatch all;
        for (const auto &[name, states] : kNames) {
            all.longNames.insert(all.longNames.end(), states.begin(), states.end());
        }
        return all;
    }
    auto it = kNames.find(w);
    if (it == kNames.end()) {
        return std::nullopt;
    }
    return StateMatch{it->second, false};
}

constexpr std::string_view kValidStates
    = "valid states: unknown,down,idle,allocated,?,mixed,future,drain,drained,draining,"
      "no_respond,reserved,perfctrs,cloud,completing,powering_down,powered_down,power_down,"
      "powering_up,fail,maint,reboot,reboot^,unknown";

std::optional<Outcome> setStates(Settings &s, const std::string &text)
{
    s.states.clear();
    for (const auto &word : splitList(text)) {
        auto match = stateMatch(word);
        if (!match) {
            return Outcome{{},
                errorLine(kProgram, "Bad state string: \"" + word + "\"")
                    + errorLine(kProgram, kValidStates),
                1};
        }
        s.states.push_back(*match);
    }
    return std::nullopt;
}

std::optional<Outcome> apply(Settings &s, const ParsedOption &option)
{
    const OptionDef &def = *option.def;
    const std::string value = option.value.value_or("");
    switch (def.id) {
    case kHelp:
        return Outcome{std::string(sinfoHelp()), {}, 0};
    case kUsage:
        return Outcome{std::string(sinfoUsage()), {}, 0};
    case kVersion:
        return Outcome{std::string(kSlurmVersion), {}, 0};
    case kDead:
        s.dead = true;
        break;
    case kNoHeader:
        s.noHeader = true;
        break;
    case kClusters:
        s.clusters = value;
        break;
    case kIterate:
        // Slurm checks the period (atoi(), above 0) before anything else runs.
        if (std::atoi(value.c_str()) <= 0) {
            return Outcome{
                {}, errorLine(kProgram, "Error: invalid entry for --iterate=" + value), 1};
        }
        return notSupported(kProgram, optionName(def));
    case kLong:
        s.longList = true;
        break;
    case kNodes: {
        auto nodes = sched::expandHostlist(value);
        if (!nodes) {
            return Outcome{{}, errorLine(kProgram, "Invalid node name specified: " + value), 1};
        }
        s.nodes = *nodes;
        break;
    }
    case kNodeCentric:
        s.nodeCentric = true;
        break;
    case kFormat:
        s.format = value;
        s.longFormat.reset();
        break;
    case kLongFormat:
        s.longFormat = value;
        s.format.reset();
        break;
    case kPartition:
        s.partitions = splitList(value);
        break;
    case kResponding:
        s.responding = true;
        break;
    case kListReasons:
        s.reasons = true;
        break;
    case kSummarize:
        s.summarize = true;
        break;
    case kSort:
        s.sort = value;
        break;
    case kStates:
        return setStates(s, value);
    default:
        break; // --all, --exact, --hide, --local, --noconvert: nothing to change here
    }
    return std::nullopt;
}

std::string dateLine(std::int64_t now)
{
    const auto t = static_cast<std::time_t>(now);
    std::tm local{};
    localtime_r(&t, &local);
    char buffer[64];
    std::strftime(buffer, sizeof buffer, "%a %b %d %H:%M:%S %Y\n", &local);
    return buffer;
}

bool selected(const Settings &s, const NodeView &n)
{
    if (s.nodes && std::find(s.nodes->begin(), s.nodes->end(), n.name) == s.nodes->end()) {
        return false;
    }
    if ((s.dead && n.responding) || (s.responding && !n.responding)) {
        return false;
    }
    if (s.reasons && n.reason.empty() && n.state != "down" && n.state != "drained"
        && n.state != "draining" && n.state != "fail" && n.state != "failing" && n.responding) {
        return false;
    }
    if (s.states.empty()) {
        return true;
    }
    for (const auto &match : s.states) {
        if ((match.notResponding && !n.responding)
            || std::find(match.longNames.begin(), match.longNames.end(), n.state)
                != match.longNames.end()) {
            return true;
        }
    }
    return false;
}

std::string_view chooseFormat(const Settings &s)
{
    if (s.reasons) {
        return s.longList ? kReasonsLongFormat : kReasonsFormat;
    }
    if (s.summarize) {
        return kSummarizeFormat;
    }
    if (s.nodeCentric) {
        return s.longList ? kNodeLongFormat : kNodeFormat;
    }
    return s.longList ? kLongListFormat : kDefaultFormat;
}

// Groups the selected nodes into output rows (one per partition and key; -N: one per node and
// partition; -R: one per reason, across partitions).
std::vector<Row> buildRows(const Settings &s, const ClusterView &view,
    const std::vector<Column> &columns, const UserLookup *lookup)
{
    std::vector<Row> rows;
    auto group = [&](const PartitionView *part, const std::vector<const NodeView *> &nodes) {
        std::map<std::string, std::size_t> byKey;
        for (const NodeView *n : nodes) {
            Row single{part, {n}, &view, lookup};
            if (s.nodeCentric) {
                rows.push_back(std::move(single));
                continue;
            }
            const std::string key = groupKey(columns, single);
            auto [it, added] = byKey.emplace(key, rows.size());
            if (added) {
                rows.push_back(std::move(single));
            } else {
                rows[it->second].nodes.push_back(n);
            }
        }
    };
    if (s.reasons) {
        std::vector<const NodeView *> nodes;
        for (const auto &n : view.nodes) {
            if (selected(s, n)) {
                nodes.push_back(&n);
            }
        }
        group(nullptr, nodes);
        return rows;
    }
    // Slurm splits rows by partition only when the partition's name is shown (%P, %R); else
    // the partitions' nodes merge into rows by the fields shown, each node counted once.
    const bool byPartition
        = s.nodeCentric || std::any_of(columns.begin(), columns.end(), [](const Column &c) {
              return c.field && (c.field->letter == 'P' || c.field->letter == 'R');
          });
    std::map<std::string, std::size_t> merged;
    for (const auto &part : view.partitions) {
        if (!s.partitions.empty()
            && std::find(s.partitions.begin(), s.partitions.end(), part.name)
                == s.partitions.end()) {
            continue;
        }
        std::vector<const NodeView *> nodes;
        for (const auto &name : part.nodes) {
            const NodeView *n = view.node(name);
            if (n && selected(s, *n)) {
                nodes.push_back(n);
            }
        }
        const std::size_t before = rows.size();
        if (byPartition) {
            group(&part, nodes);
        } else {
            for (const NodeView *n : nodes) {
                Row single{&part, {n}, &view, lookup};
                auto [it, added] = merged.emplace(groupKey(columns, single), rows.size());
                if (added) {
                    rows.push_back(std::move(single));
                } else if (auto &list = rows[it->second].nodes;
                           std::find(list.begin(), list.end(), n) == list.end()) {
                    list.push_back(n);
                }
            }
        }
        const bool nodeFilter = s.nodes || !s.states.empty() || s.dead || s.responding;
        if (rows.size() == before && byPartition && (nodeFilter || part.nodes.empty())) {
            rows.push_back(Row{&part, {}, &view, lookup}); // Slurm's "n/a" line
        }
    }
    return rows;
}

int partitionIndex(const ClusterView &view, const Row &r)
{
    for (std::size_t i = 0; i < view.partitions.size(); ++i) {
        if (&view.partitions[i] == r.part) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

// -S: comma-separated fields, each "[+|-][#]letter"; '#P' is slurm.conf order, 't'/'T' sort by
// Slurm's state value, numbers compare as numbers, everything else as text.
std::optional<std::string> sortRows(
    std::vector<Row> &rows, const ClusterView &view, std::string_view spec)
{
    using Compare = std::function<int(const Row &, const Row &)>;
    std::vector<Compare> keys;
    for (const auto &token : splitList(spec)) {
        std::size_t i = 0;
        bool descending = false;
        if (token[i] == '-' || token[i] == '+') {
            descending = token[i++] == '-';
        }
        bool configOrder = false;
        if (i < token.size() && token[i] == '#') {
            configOrder = true;
            ++i;
        }
        if (i >= token.size()) {
            return token;
        }
        const char letter = token[i];
        const Field *field = nullptr;
        for (const auto &f : fieldTable()) {
            field = f.letter == letter ? &f : field;
        }
        if (!field) {
            return token;
        }
        const int sign = descending ? -1 : 1;
        keys.push_back([=, &view](const Row &a, const Row &b) {
            if (letter == 'P' && configOrder) {
                return sign * (partitionIndex(view, a) - partitionIndex(view, b));
            }
            if ((letter == 't' || letter == 'T') && !a.nodes.empty() && !b.nodes.empty()) {
                return sign * (stateRank(*a.nodes.front()) - stateRank(*b.nodes.front()));
            }
            const std::string va = field->value(a).text;
            const std::string vb = field->value(b).text;
            auto na = parseInteger(va);
            auto nb = parseInteger(vb);
            if (na && nb) {
                return sign * ((*na > *nb) - (*na < *nb));
            }
            return sign * va.compare(vb);
        });
    }
    std::stable_sort(rows.begin(), rows.end(), [&keys](const Row &a, const Row &b) {
        for (const auto &key : keys) {
            if (int c = key(a, b); c != 0) {
                return c < 0;
            }
        }
        return false;
    });
    return std::nullopt;
}

} // namespace

int Sinfo::run()
{
    Settings s;
    const ParseResult cli = parseOptions(optionTable(), m_ctx.args, kProgram);
    if (auto end = applyOptions(
            cli, kProgram, [&](const ParsedOption &option) { return apply(s, option); })) {
        return deliver(m_ctx, *end);
    }
    if (!cli.operands.empty()) {
        return deliver(m_ctx,
            Outcome{std::string(sinfoUsage()),
                errorLine(kProgram, "Unrecognized option: " + cli.operands.front()), 1});
    }
    if (auto data = dataFormat(cli, kJson, kYaml)) {
        return deliver(m_ctx, sinfoJson(m_ctx, *data)); // 22.05: every node, whatever the filters
    }
    if (!s.format && !s.longFormat) {
        if (auto env = m_ctx.getenv("SINFO_FORMAT")) {
            s.format = *env;
        }
    }
    if (s.partitions.empty()) {
        if (auto env = m_ctx.getenv("SINFO_PARTITION")) {
            s.partitions = splitList(*env);
        }
    }
    if (!s.sort) {
        s.sort = m_ctx.getenv("SINFO_SORT");
    }

    std::string out;
    if (s.clusters) {
        const Outcome cluster = clustersOption(m_ctx, kProgram, *s.clusters);
        if (cluster.exitCode != 0) {
            return deliver(m_ctx, cluster);
        }
        out += cluster.out;
    }
    if (s.longList && !s.noHeader) {
        out += dateLine(m_ctx.now);
    }
    std::string error;
    auto view = loadClusterView(m_ctx, error);
    if (!view) {
        return deliver(m_ctx, Outcome{out, "slurm_load_partitions: " + error + "\n", 1});
    }

    std::string errors;
    std::vector<Column> columns = s.longFormat
        ? parseLongFormat(*s.longFormat, errors)
        : parseFormat(s.format.value_or(std::string(chooseFormat(s))), errors);
    *m_ctx.err << errors; // Slurm goes on after a bad format, with exit 0
    const UserLookup *lookup = &m_ctx.lookupUser;
    std::vector<Row> rows = buildRows(s, *view, columns, lookup);
    const std::string defaultSort = s.nodeCentric ? "N" : (s.reasons ? "" : "#P,-t");
    if (sortRows(rows, *view, s.sort.value_or(defaultSort))) {
        sortRows(rows, *view, defaultSort); // Slurm ignores a sort letter it does not know
    }
    fitColumns(columns, rows);
    if (!s.noHeader) {
        out += renderLine(columns, nullptr);
    }
    for (const auto &row : rows) {
        out += renderLine(columns, &row);
    }
    return deliver(m_ctx, Outcome{out, {}, 0});
}

} // namespace mc::cmd
