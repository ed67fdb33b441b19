#include "sbatch_foreign.h"

#include "../shared/text.h"
#include "mc/sched/batch_script.h"
#include "sbatch_job_options.h"
#include "sbatch_options.h"

#include <array>
#include <cctype>
#include <charconv>

namespace mc::cmd::sbatch {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;

// The letters real sbatch's getopt accepts after #PBS ("+a:A:c:C:e:hIj:J:k:l:m:M:N:o:p:q:r:S:
// t:u:v:VW:z") and after #BSUB ("+c:e:J:m:M:n:o:q:W:x"); the id is the letter itself.
constexpr std::array kPbsOptions{
    OptionDef{{}, 'a', kReq, 'a'},
    OptionDef{{}, 'A', kReq, 'A'},
    OptionDef{{}, 'c', kReq, 'c'},
    OptionDef{{}, 'C', kReq, 'C'},
    OptionDef{{}, 'e', kReq, 'e'},
    OptionDef{{}, 'h', kNo, 'h'},
    OptionDef{{}, 'I', kNo, 'I'},
    OptionDef{{}, 'j', kReq, 'j'},
    OptionDef{{}, 'J', kReq, 'J'},
    OptionDef{{}, 'k', kReq, 'k'},
    OptionDef{{}, 'l', kReq, 'l'},
    OptionDef{{}, 'm', kReq, 'm'},
    OptionDef{{}, 'M', kReq, 'M'},
    OptionDef{{}, 'N', kReq, 'N'},
    OptionDef{{}, 'o', kReq, 'o'},
    OptionDef{{}, 'p', kReq, 'p'},
    OptionDef{{}, 'q', kReq, 'q'},
    OptionDef{{}, 'r', kReq, 'r'},
    OptionDef{{}, 'S', kReq, 'S'},
    OptionDef{{}, 't', kReq, 't'},
    OptionDef{{}, 'u', kReq, 'u'},
    OptionDef{{}, 'v', kReq, 'v'},
    OptionDef{{}, 'V', kNo, 'V'},
    OptionDef{{}, 'W', kReq, 'W'},
    OptionDef{{}, 'z', kNo, 'z'},
};

constexpr std::array kBsubOptions{
    OptionDef{{}, 'c', kReq, 'c'},
    OptionDef{{}, 'e', kReq, 'e'},
    OptionDef{{}, 'J', kReq, 'J'},
    OptionDef{{}, 'm', kReq, 'm'},
    OptionDef{{}, 'M', kReq, 'M'},
    OptionDef{{}, 'n', kReq, 'n'},
    OptionDef{{}, 'o', kReq, 'o'},
    OptionDef{{}, 'q', kReq, 'q'},
    OptionDef{{}, 'W', kReq, 'W'},
    OptionDef{{}, 'x', kNo, 'x'},
};

std::optional<long long> number(std::string_view text)
{
    long long value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

// PBS's -m letters as Slurm's --mail-type list: a(bort) FAIL, b(egin) BEGIN, e(nd) END,
// n(one) NONE; any other letter is passed on for --mail-type to refuse.
std::string pbsMailType(const std::string &letters)
{
    std::string types;
    for (const char c : letters) {
        const char *type = c == 'a' ? "FAIL"
            : c == 'b'              ? "BEGIN"
            : c == 'e'              ? "END"
            : c == 'n'              ? "NONE"
                                    : nullptr;
        if (!type) {
            return letters;
        }
        types += std::string(types.empty() ? "" : ",") + type;
    }
    // Slurm lists them in its own order.
    std::string ordered;
    for (const char *type : {"NONE", "BEGIN", "END", "FAIL"}) {
        if (types.find(type) != std::string::npos) {
            ordered += std::string(ordered.empty() ? "" : ",") + type;
        }
    }
    return ordered;
}

// One chunk of a -l list: "walltime=1:00:00", "mem=2gb", "ncpus=4", "nodes=2:ppn=4",
// "select=2:ncpus=4:mem=2gb". Resources sbatch does not map (procs, pmem, software...) add
// nothing.
void mapResource(std::string_view chunk, std::vector<MappedOption> &out)
{
    const auto eq = chunk.find('=');
    const std::string key(chunk.substr(0, eq));
    const std::string value(eq == std::string_view::npos ? "" : chunk.substr(eq + 1));
    if (key == "walltime") {
        out.push_back({kTime, value});
    } else if (key == "mem") {
        if (auto mib = pbsMemoryMiB(value)) {
            out.push_back({kMem, std::to_string(*mib)});
        }
    } else if (key == "ncpus") {
        out.push_back({kCpusPerTask, value});
    } else if (key == "nodes" || key == "select") {
        const auto pairs = splitList(value, ':');
        out.push_back({kNodes, pairs.front()});
        for (std::size_t i = 1; i < pairs.size(); ++i) {
            const auto sub = pairs[i].find('=');
            const std::string name = pairs[i].substr(0, sub);
            const std::string amount = sub == std::string::npos ? "" : pairs[i].substr(sub + 1);
            if (name == "ppn") {
                out.push_back({kNtasksPerNode, amount});
            } else if (name == "ncpus") {
                out.push_back({kCpusPerTask, amount});
            } else if (name == "mem") {
                if (auto mib = pbsMemoryMiB(amount)) {
                    out.push_back({kMem, std::to_string(*mib)});
                }
            }
        }
    }
}

void mapPbs(const ParsedOption &option, std::vector<MappedOption> &out)
{
    const std::string value = option.value.value_or("");
    switch (option.def->id) {
    case 'a':
        out.push_back({kBegin, value});
        break;
    case 'e':
        out.push_back({kError, value});
        break;
    case 'h':
        out.push_back({kHold, std::nullopt});
        break;
    case 'J':
    case 't':
        out.push_back({kArray, value});
        break;
    case 'l':
        for (const std::string &chunk : splitList(value, ',')) {
            mapResource(chunk, out);
        }
        break;
    case 'm':
        out.push_back({kMailType, pbsMailType(value)});
        break;
    case 'M':
        out.push_back({kMailUser, value});
        break;
    case 'N':
        out.push_back({kJobName, value});
        break;
    case 'o':
        out.push_back({kOutput, value});
        break;
    case 'p':
        out.push_back({kNice, value});
        break;
    case 'q':
        out.push_back({kPartition, value});
        break;
    case 'W':
        if (value.rfind("depend=", 0) == 0) {
            out.push_back({kDependency, value.substr(7)});
        }
        break;
    default: // -A -c -C -I -j -k -r -S -u -v -V -z: accepted and dropped, as real sbatch does
        break;
    }
}

void mapBsub(const ParsedOption &option, std::vector<MappedOption> &out)
{
    const std::string value = option.value.value_or("");
    switch (option.def->id) {
    case 'c': // real sbatch takes it as the working directory
        out.push_back({kChdir, value});
        break;
    case 'e':
        out.push_back({kError, value});
        break;
    case 'J':
        out.push_back({kJobName, value});
        break;
    case 'm':
        out.push_back({kNodelist, value});
        break;
    case 'M': // KB per CPU, rounded up to MiB
        if (auto kb = number(value)) {
            out.push_back({kMemPerCpu, std::to_string((*kb + 1023) / 1024)});
        }
        break;
    case 'n':
        out.push_back({kNtasks, value});
        break;
    case 'o':
        out.push_back({kOutput, value});
        break;
    case 'q':
        out.push_back({kPartition, value});
        break;
    case 'W':
        out.push_back({kTime, value});
        break;
    case 'x':
        out.push_back({kExclusive, std::nullopt});
        break;
    default:
        break;
    }
}

// The lines of `script` that start with `prefix`, each as its words.
std::vector<std::vector<std::string>> linesWith(std::string_view script, std::string_view prefix)
{
    std::vector<std::vector<std::string>> lines;
    while (!script.empty()) {
        const auto newline = script.find('\n');
        const auto line = script.substr(0, newline);
        script.remove_prefix(newline == std::string_view::npos ? script.size() : newline + 1);
        if (line.starts_with(prefix)) {
            lines.push_back(sched::parseDirectives(line, prefix));
        }
    }
    return lines;
}

template <class Map>
bool readLines(std::string_view script, std::string_view prefix, std::span<const OptionDef> table,
    Map map, ForeignDirectives &result)
{
    for (const auto &words : linesWith(script, prefix)) {
        const ParseResult parsed = parseOptions(table, words, kProgram, Ordering::StopAtOperand);
        for (const auto &option : parsed.options) {
            map(option, result.options);
        }
        if (!parsed.ok()) {
            result.error = Outcome{{},
                parsed.error + errorLine(kProgram, "Unrecognized command line parameter ?"),
                kExitError};
            return false;
        }
        if (!parsed.operands.empty()) {
            result.error = failure("Invalid argument: " + parsed.operands.front(), kExitError);
            return false;
        }
    }
    return true;
}

} // namespace

std::optional<long long> pbsMemoryMiB(std::string_view text)
{
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) {
        ++digits;
    }
    auto amount = number(text.substr(0, digits));
    if (!amount) {
        return std::nullopt;
    }
    std::string unit;
    for (const char c : text.substr(digits)) {
        unit += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    long long bytesPerUnit = 0;
    if (unit.empty() || unit == "mb" || unit == "m") {
        return *amount;
    }
    if (unit == "b") {
        bytesPerUnit = 1;
    } else if (unit == "kb" || unit == "k") {
        bytesPerUnit = 1024;
    } else if (unit == "gb" || unit == "g") {
        return *amount * 1024;
    } else if (unit == "tb" || unit == "t") {
        return *amount * 1024 * 1024;
    } else {
        return std::nullopt;
    }
    const long long bytes = *amount * bytesPerUnit;
    return (bytes + 1024 * 1024 - 1) / (1024 * 1024);
}

ForeignDirectives foreignDirectives(std::string_view script)
{
    ForeignDirectives result;
    if (readLines(script, "#PBS", kPbsOptions, mapPbs, result)) {
        readLines(script, "#BSUB", kBsubOptions, mapBsub, result);
    }
    return result;
}

} // namespace mc::cmd::sbatch
