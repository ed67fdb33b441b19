#include "mc/sched/gres_conf.h"

#include "mc/base/text.h"
#include "mc/sched/conf_text.h"
#include "mc/sched/hostlist.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>

namespace mc::sched {

namespace {

using base::equalsIgnoreCase;

constexpr std::string_view kKnownKeys[] = {"AutoDetect", "Count", "Cores", "CPUs", "File", "Files",
    "Flags", "Links", "Name", "NodeName", "Type", "MultipleFiles"};

// Count=: a number with an optional k/m/g suffix (powers of 1024, as slurmd reads it).
std::optional<std::uint64_t> gresCount(std::string_view text)
{
    std::uint64_t value = 0;
    const char *end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc{} || ptr == text.data()) {
        return std::nullopt;
    }
    const std::string_view suffix(ptr, static_cast<std::size_t>(end - ptr));
    int shift = 0;
    if (suffix.size() == 1) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(suffix[0])));
        shift = c == 'k' ? 10 : c == 'm' ? 20 : c == 'g' ? 30 : -1;
    } else if (!suffix.empty()) {
        shift = -1;
    }
    if (shift < 0 || value > (std::numeric_limits<std::uint64_t>::max() >> shift)) {
        return std::nullopt;
    }
    return value << shift;
}

// The logical lines of the file: comments cut, '\' continuations joined, blank ones dropped;
// each with the number of its first physical line.
std::vector<ConfLine> logicalLines(std::string_view text)
{
    std::vector<ConfLine> lines;
    bool continued = false;
    for (auto &line : confLines(text)) {
        std::string body = line.text;
        const bool continues = !body.empty() && body.back() == '\\';
        if (continues) {
            body.pop_back();
        }
        if (continued && !lines.empty()) {
            lines.back().text += " " + body;
        } else {
            lines.push_back({line.number, body});
        }
        continued = continues;
    }
    lines.erase(std::remove_if(lines.begin(), lines.end(),
                    [](const ConfLine &l) {
                        return l.text.find_first_not_of(" \t\r") == std::string::npos;
                    }),
        lines.end());
    return lines;
}

} // namespace

GresConf parseGresConf(std::string_view text)
{
    GresConf conf;
    auto problem = [&conf](int line, std::string message, bool fatal) {
        conf.problems.push_back({line, std::move(message)});
        conf.fatal = conf.fatal || fatal;
    };
    for (const auto &line : logicalLines(text)) {
        GresRecord record;
        record.line = line.number;
        std::optional<std::uint64_t> count;
        bool hasName = false;
        bool bad = false;
        for (const auto &word : splitConfWords(line.text)) {
            const std::size_t eq = word.find('=');
            const std::string key = word.substr(0, eq);
            const std::string value = eq == std::string::npos ? "" : word.substr(eq + 1);
            const bool known = std::any_of(std::begin(kKnownKeys), std::end(kKnownKeys),
                [&](std::string_view k) { return equalsIgnoreCase(k, key); });
            if (eq == std::string::npos || !known) {
                // slurmd's parser, then "fatal: error opening/reading .../gres.conf".
                problem(line.number, "Parsing error at unrecognized key: " + key, true);
                bad = true;
                continue;
            }
            if (equalsIgnoreCase(key, "Name")) {
                record.name = base::toLower(value);
                hasName = true;
            } else if (equalsIgnoreCase(key, "NodeName")) {
                const auto nodes = expandHostlist(value);
                if (!nodes || nodes->empty()) {
                    problem(line.number, "Invalid hostlist: " + value, true);
                    bad = true;
                } else {
                    record.nodes = *nodes;
                }
            } else if (equalsIgnoreCase(key, "Type")) {
                record.type = value;
            } else if (equalsIgnoreCase(key, "File") || equalsIgnoreCase(key, "Files")) {
                const auto files = expandHostlist(value);
                if (!files || files->empty()) {
                    problem(line.number,
                        "Invalid GRES record for " + record.name
                            + ", invalid File specification: " + value,
                        true);
                    bad = true;
                } else {
                    record.files = *files;
                }
            } else if (equalsIgnoreCase(key, "Count")) {
                count = gresCount(value);
                if (!count) {
                    problem(line.number,
                        "Invalid GRES record for " + record.name + ", invalid count " + value,
                        true);
                    bad = true;
                }
            } else if (equalsIgnoreCase(key, "AutoDetect") && !equalsIgnoreCase(value, "off")) {
                problem(line.number,
                    "AutoDetect=" + value
                        + " is not supported by minicluster: its GPUs are emulated, there is "
                          "no device to detect; the record is used as written",
                    false);
            }
            // Cores, CPUs, Links, Flags, MultipleFiles: accepted; no topology is modelled.
        }
        if (bad) {
            continue;
        }
        if (!hasName) {
            // A NodeName= line that names no GRES (AutoDetect= alone, say) describes nothing.
            continue;
        }
        if (record.name != "gpu") {
            problem(line.number, "Ignoring gres.conf record, invalid name: " + record.name, false);
            continue;
        }
        if (!record.files.empty()) {
            record.count = static_cast<int>(record.files.size());
            if (count && *count != record.files.size()) {
                problem(line.number, "Invalid GRES record for gpu, count does not match File value",
                    true);
                continue;
            }
        } else if (count) {
            record.count = static_cast<int>(
                std::min<std::uint64_t>(*count, std::numeric_limits<int>::max()));
        }
        conf.records.push_back(std::move(record));
    }
    return conf;
}

NodeGpus gresConfGpus(const GresConf &conf, const std::string &name)
{
    NodeGpus gpus;
    for (const auto &record : conf.records) {
        if (!record.nodes.empty()
            && std::find(record.nodes.begin(), record.nodes.end(), name) == record.nodes.end()) {
            continue;
        }
        gpus.count += record.count;
        if (gpus.type.empty()) {
            gpus.type = record.type;
        }
    }
    return gpus;
}

void applyGresConf(ClusterConfig &config, const GresConf &conf)
{
    if (conf.fatal) {
        return;
    }
    for (auto &node : config.nodes) {
        const bool named
            = std::any_of(conf.records.begin(), conf.records.end(), [&](const GresRecord &r) {
                  return r.nodes.empty()
                      || std::find(r.nodes.begin(), r.nodes.end(), node.name) != r.nodes.end();
              });
        if (!named || node.gpus == 0) {
            continue; // slurmd registers slurm.conf's Gres= for a node gres.conf leaves out
        }
        const NodeGpus found = gresConfGpus(conf, node.name);
        if (found.count < node.gpus) {
            node.gresInvalid = "gres/gpu count reported lower than configured ("
                + std::to_string(found.count) + " < " + std::to_string(node.gpus) + ")";
            continue;
        }
        if (node.gpuType.empty()) {
            node.gpuType = found.type;
            continue;
        }
        // Typed in slurm.conf: the records of that type must hold the count (untyped records
        // give no type to compare, as in slurmctld).
        int ofType = 0;
        bool typed = false;
        for (const auto &record : conf.records) {
            const bool here = record.nodes.empty()
                || std::find(record.nodes.begin(), record.nodes.end(), node.name)
                    != record.nodes.end();
            if (here && !record.type.empty()) {
                typed = true;
                ofType += equalsIgnoreCase(record.type, node.gpuType) ? record.count : 0;
            }
        }
        if (typed && ofType < node.gpus) {
            node.gresInvalid = "gpu:" + node.gpuType + " count too low (" + std::to_string(ofType)
                + " < " + std::to_string(node.gpus) + ")";
        }
    }
}

} // namespace mc::sched
