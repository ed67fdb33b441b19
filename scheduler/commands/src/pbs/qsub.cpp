#include "../foreign/foreign_submit.h"
#include "../sbatch/sbatch_foreign.h"
#include "../shared/text.h"
#include "mc/cmd/option_parser.h"
#include "mc/cmd/pbs.h"
#include "mc/sched/batch_script.h"

#include <array>
#include <fstream>
#include <ostream>
#include <sstream>

namespace mc::cmd {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;

// qsub's letters (OpenPBS); the id is the letter. Those marked false are refused.
constexpr std::array kOptions{
    OptionDef{{}, 'a', kReq, 'a', false},
    OptionDef{{}, 'A', kReq, 'A', true},
    OptionDef{{}, 'c', kReq, 'c', false},
    OptionDef{{}, 'C', kReq, 'C', false},
    OptionDef{{}, 'e', kReq, 'e', true},
    OptionDef{{}, 'f', kNo, 'f', false},
    OptionDef{{}, 'h', kNo, 'h', true},
    OptionDef{{}, 'I', kNo, 'I', false},
    OptionDef{{}, 'j', kReq, 'j', true},
    OptionDef{{}, 'J', kReq, 'J', true},
    OptionDef{{}, 'k', kReq, 'k', false},
    OptionDef{{}, 'l', kReq, 'l', true},
    OptionDef{{}, 'm', kReq, 'm', true},
    OptionDef{{}, 'M', kReq, 'M', true},
    OptionDef{{}, 'N', kReq, 'N', true},
    OptionDef{{}, 'o', kReq, 'o', true},
    OptionDef{{}, 'p', kReq, 'p', false},
    OptionDef{{}, 'P', kReq, 'P', false},
    OptionDef{{}, 'q', kReq, 'q', true},
    OptionDef{{}, 'r', kReq, 'r', true},
    OptionDef{{}, 'R', kReq, 'R', false},
    OptionDef{{}, 'S', kReq, 'S', false},
    OptionDef{{}, 'u', kReq, 'u', false},
    OptionDef{{}, 'v', kReq, 'v', true},
    OptionDef{{}, 'V', kNo, 'V', true},
    OptionDef{{}, 'W', kReq, 'W', true},
    OptionDef{{}, 'X', kNo, 'X', false},
    OptionDef{{}, 'z', kNo, 'z', true},
};

struct Request {
    std::optional<std::string> name, queue, out, err, account, array, join, exportList;
    std::optional<std::string> dependency, requeue;
    std::optional<long long> seconds, memMiB;
    std::optional<int> nodes, tasksPerNode, cpusPerTask;
    bool hold = false, quiet = false;
};

// A PBS size: bytes without a unit ("mem=100" is 100 bytes), else kb, mb, gb, tb.
std::optional<long long> pbsSizeMiB(const std::string &text)
{
    if (text.find_first_not_of("0123456789") == std::string::npos && !text.empty()) {
        return (parseLeadingInteger(text) + 1024 * 1024 - 1) / (1024 * 1024);
    }
    return sbatch::pbsMemoryMiB(text);
}

// [[hours:]minutes:]seconds, or seconds alone.
std::optional<long long> walltimeSeconds(const std::string &text)
{
    long long total = 0;
    const auto parts = splitList(text, ':');
    if (parts.empty() || parts.size() > 3) {
        return std::nullopt;
    }
    for (const std::string &part : parts) {
        auto value = parseInteger(part);
        if (!value || *value < 0) {
            return std::nullopt;
        }
        total = total * 60 + *value;
    }
    return total;
}

std::optional<std::string> readResource(const std::string &item, Request &r)
{
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (key == "walltime") {
        r.seconds = walltimeSeconds(value);
        if (!r.seconds) {
            return "qsub: Illegal attribute or resource value Resource_List.walltime";
        }
    } else if (key == "mem") {
        r.memMiB = pbsSizeMiB(value);
    } else if (key == "ncpus") {
        r.cpusPerTask = static_cast<int>(parseLeadingInteger(value));
    } else if (key == "select" || key == "nodes") {
        if (value.find('+') != std::string::npos) {
            return "qsub: -l select with several kinds of chunks is not supported by minicluster";
        }
        const auto parts = splitList(value, ':');
        r.nodes = static_cast<int>(parseLeadingInteger(parts.front()));
        int ncpus = 0;
        int ranks = 0;
        for (std::size_t i = 1; i < parts.size(); ++i) {
            const auto at = parts[i].find('=');
            const std::string name = parts[i].substr(0, at);
            const std::string amount = at == std::string::npos ? "" : parts[i].substr(at + 1);
            if (name == "ncpus") {
                ncpus = static_cast<int>(parseLeadingInteger(amount));
            } else if (name == "mpiprocs" || name == "ppn") {
                ranks = static_cast<int>(parseLeadingInteger(amount));
            } else if (name == "mem") {
                r.memMiB = pbsSizeMiB(amount);
            } else {
                return "qsub: -l select's " + name + " is not supported by minicluster";
            }
        }
        if (key == "nodes") { // Torque's nodes=N:ppn=P: P tasks per node
            r.tasksPerNode = std::max(1, ranks);
        } else {
            r.tasksPerNode = std::max(1, ranks);
            r.cpusPerTask = std::max(1, (ncpus > 0 ? ncpus : 1) / r.tasksPerNode.value());
        }
    } else if (key == "place") {
        if (value != "free" && value != "pack" && value != "scatter") {
            return "qsub: -l place=" + value + " is not supported by minicluster";
        }
    } else {
        return "qsub: -l " + key + " is not supported by minicluster";
    }
    return std::nullopt;
}

// 12.server:13 -> 12:13
std::string slurmDependency(const std::string &text)
{
    std::string out;
    for (const std::string &part : splitList(text, ':')) {
        out += (out.empty() ? "" : ":") + part.substr(0, part.find('.'));
    }
    return out;
}

std::optional<std::string> apply(const ParsedOption &option, Request &r)
{
    const std::string value = option.value.value_or("");
    switch (option.def->id) {
    case 'A':
        r.account = value;
        break;
    case 'e':
        r.err = value;
        break;
    case 'h':
        r.hold = true;
        break;
    case 'j':
        if (value != "oe" && value != "eo" && value != "n") {
            return "qsub: illegal -j value";
        }
        r.join = value;
        break;
    case 'J':
        r.array = value;
        break;
    case 'l':
        for (const std::string &item : splitList(value, ',')) {
            if (auto problem = readResource(item, r)) {
                return problem;
            }
        }
        break;
    case 'N':
        r.name = value;
        break;
    case 'o':
        r.out = value;
        break;
    case 'q':
        r.queue = value;
        break;
    case 'r':
        r.requeue = value;
        break;
    case 'v':
        r.exportList = value;
        break;
    case 'W':
        if (value.rfind("depend=", 0) != 0) {
            return "qsub: -W " + value.substr(0, value.find('='))
                + " is not supported by minicluster";
        }
        r.dependency = value.substr(7);
        break;
    case 'z':
        r.quiet = true;
        break;
    default: // -m, -M: accepted, minicluster sends no mail; -V: the environment goes anyway
        break;
    }
    return std::nullopt;
}

std::optional<std::string> readOptions(
    const std::vector<std::string> &words, Request &r, std::vector<std::string> *operands)
{
    const ParseResult parsed = parseOptions(kOptions, words, "qsub", Ordering::StopAtOperand);
    for (const auto &option : parsed.options) {
        if (!option.def->supported) {
            return "qsub: " + optionName(*option.def) + " is not supported by minicluster";
        }
        if (auto problem = apply(option, r)) {
            return problem;
        }
    }
    if (!parsed.ok()) {
        return parsed.error.substr(0, parsed.error.size() - 1)
            + "\nusage: qsub [-a date_time] [-A account_string] [-c interval] ... [script | -- "
              "command [arg1 ...]]";
    }
    if (operands) {
        *operands = parsed.operands;
    }
    return std::nullopt;
}

std::vector<std::string> sbatchArgs(const Request &r, const std::string &name)
{
    std::vector<std::string> args{"--ignore-pbs", "--job-name=" + name};
    auto add = [&args](const std::string &option, const std::optional<std::string> &value) {
        if (value) {
            args.push_back(option + "=" + *value);
        }
    };
    add("--partition", r.queue);
    add("--account", r.account);
    add("--array", r.array);
    add("--dependency",
        r.dependency ? std::optional(slurmDependency(*r.dependency)) : std::nullopt);
    // PBS's default files: <name>.o<seq> and <name>.e<seq> in the submission directory.
    const std::string seq = r.array ? "%A.%a" : "%j";
    const std::string out = r.out.value_or(name + ".o" + seq);
    const std::string err = r.err.value_or(name + ".e" + seq);
    const std::string join = r.join.value_or("n");
    args.push_back("--output=" + (join == "eo" ? err : out));
    if (join == "n") {
        args.push_back("--error=" + err);
    }
    if (r.seconds) {
        const long long s = *r.seconds;
        args.push_back("--time=" + std::to_string(s / 3600) + ":" + std::to_string(s / 60 % 60)
            + ":" + std::to_string(s % 60));
    }
    if (r.memMiB) {
        args.push_back("--mem=" + std::to_string(*r.memMiB));
    }
    if (r.nodes) {
        args.push_back("--nodes=" + std::to_string(*r.nodes));
    }
    if (r.tasksPerNode) {
        args.push_back("--ntasks-per-node=" + std::to_string(*r.tasksPerNode));
    }
    if (r.cpusPerTask) {
        args.push_back("--cpus-per-task=" + std::to_string(*r.cpusPerTask));
    }
    if (r.hold) {
        args.push_back("--hold");
    }
    if (r.requeue) {
        args.push_back(*r.requeue == "n" ? "--no-requeue" : "--requeue");
    }
    if (r.exportList) {
        args.push_back("--export=ALL," + *r.exportList);
    }
    return args;
}

} // namespace

int Qsub::run()
{
    auto fail = [this](const std::string &message) {
        *m_ctx.err << message << '\n';
        return 1;
    };
    Request cli;
    std::vector<std::string> operands;
    if (auto problem = readOptions(m_ctx.args, cli, &operands)) {
        return fail(*problem);
    }
    std::string script;
    std::string name = "STDIN";
    if (operands.empty()) {
        script = m_ctx.readStdin ? m_ctx.readStdin() : std::string();
    } else {
        const std::string path = absolutePath(operands.front(), m_ctx.cwd);
        std::ifstream file(path, std::ios::binary);
        if (!file) {
            return fail("qsub: script file:: No such file or directory");
        }
        std::ostringstream text;
        text << file.rdbuf();
        script = text.str();
        name = operands.front().substr(operands.front().rfind('/') + 1);
    }
    if (!sched::hasShebang(script)) {
        script = "#!/bin/bash\n" + script; // PBS runs the script with the user's login shell
    }
    Request request;
    if (auto problem = readOptions(foreign::directiveWords(script, "#PBS"), request, nullptr)) {
        return fail(*problem);
    }
    readOptions(m_ctx.args, request, nullptr); // the command line wins
    const foreign::Submission submitted = foreign::submitWithSbatch(
        m_ctx, sbatchArgs(request, request.name.value_or(name)), script, "pbs");
    if (submitted.jobId <= 0) {
        for (const std::string &error : submitted.errors) {
            if (error == "Invalid partition name specified") {
                return fail("qsub: Unknown queue");
            }
        }
        return fail("qsub: "
            + (submitted.errors.empty() ? std::string("Job rejected by all possible destinations")
                                        : submitted.errors.back()));
    }
    if (!request.quiet) {
        *m_ctx.out << submitted.jobId << (request.array ? "[]." : ".") << foreign::serverName(m_ctx)
                   << '\n';
    }
    return 0;
}

} // namespace mc::cmd
