#include "../foreign/foreign_submit.h"
#include "../shared/text.h"
#include "mc/cmd/lsf.h"
#include "mc/sched/batch_script.h"

#include <array>
#include <fstream>
#include <ostream>
#include <sstream>

namespace mc::cmd {
namespace {

constexpr int kExitFailed = 255;

struct LsfOption {
    std::string_view name; // as typed, with its dash: "-J", "-oo"
    bool takesValue;
    bool supported;
};

// bsub's options (LSF 10.1 `bsub -h`), those minicluster implements and the common others.
constexpr std::array kOptions{
    LsfOption{"-J", true, true},
    LsfOption{"-q", true, true},
    LsfOption{"-n", true, true},
    LsfOption{"-o", true, true},
    LsfOption{"-oo", true, true},
    LsfOption{"-e", true, true},
    LsfOption{"-eo", true, true},
    LsfOption{"-W", true, true},
    LsfOption{"-M", true, true},
    LsfOption{"-R", true, true},
    LsfOption{"-x", false, true},
    LsfOption{"-w", true, true},
    LsfOption{"-cwd", true, true},
    LsfOption{"-H", false, true},
    LsfOption{"-B", false, true},
    LsfOption{"-N", false, true},
    LsfOption{"-u", true, true},
    LsfOption{"-i", true, true},
    LsfOption{"-b", true, true},
    LsfOption{"-I", false, false},
    LsfOption{"-Ip", false, false},
    LsfOption{"-Is", false, false},
    LsfOption{"-K", false, false},
    LsfOption{"-P", true, false},
    LsfOption{"-G", true, false},
    LsfOption{"-m", true, false},
    LsfOption{"-gpu", true, false},
    LsfOption{"-app", true, false},
    LsfOption{"-sla", true, false},
    LsfOption{"-r", false, false},
    LsfOption{"-rn", false, false},
    LsfOption{"-C", true, false},
    LsfOption{"-c", true, false},
    LsfOption{"-F", true, false},
    LsfOption{"-L", true, false},
    LsfOption{"-E", true, false},
    LsfOption{"-Ep", true, false},
    LsfOption{"-f", true, false},
    LsfOption{"-k", true, false},
    LsfOption{"-S", true, false},
    LsfOption{"-T", true, false},
    LsfOption{"-We", true, false},
    LsfOption{"-Zs", false, false},
    LsfOption{"-env", true, false},
};

const LsfOption *findOption(std::string_view word)
{
    for (const auto &option : kOptions) {
        if (option.name == word) {
            return &option;
        }
    }
    return nullptr;
}

// What the options ask, LSF's meanings.
struct Request {
    std::optional<std::string> name, queue, out, err, input, workDir, begin;
    bool outOverwrite = false, errOverwrite = false, exclusive = false, hold = false;
    std::optional<int> slots;
    std::optional<long long> minutes, memLimit, memReserve; // MB
    std::optional<int> ptile;
    bool oneHost = false;
    std::string dependency; // Slurm's form
};

struct Problem {
    std::string message;
};

// "4GB", "500", "500MB", "2048KB": LSF_UNIT_FOR_LIMITS=MB, minicluster's lsf.conf.
std::optional<long long> megabytes(std::string_view text)
{
    std::string_view rest;
    const std::int64_t amount = parseLeadingInteger(text, &rest);
    const std::string unit = toLower(rest);
    if (rest.size() == text.size() || amount < 0) {
        return std::nullopt;
    }
    if (unit.empty() || unit == "mb" || unit == "m") {
        return amount;
    }
    if (unit == "kb" || unit == "k") {
        return (amount + 1023) / 1024;
    }
    if (unit == "gb" || unit == "g") {
        return amount * 1024;
    }
    if (unit == "tb" || unit == "t") {
        return amount * 1024 * 1024;
    }
    return std::nullopt;
}

// -R "rusage[mem=4GB] span[hosts=1] span[ptile=4] select[...]": the parts minicluster maps.
std::optional<Problem> readResources(const std::string &text, Request &request)
{
    std::size_t at = 0;
    while (at < text.size()) {
        const auto open = text.find('[', at);
        if (open == std::string::npos) {
            break;
        }
        const auto close = text.find(']', open);
        if (close == std::string::npos) {
            return Problem{text + ": Bad resource requirement syntax. Job not submitted."};
        }
        std::string section(text.substr(at, open - at));
        section.erase(0, section.find_first_not_of(" \t"));
        const std::string body = text.substr(open + 1, close - open - 1);
        at = close + 1;
        for (const std::string &item : splitList(body, ':')) {
            const auto eq = item.find('=');
            const std::string key = item.substr(0, eq);
            const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
            if (section == "rusage" && key == "mem") {
                request.memReserve = megabytes(value);
            } else if (section == "span" && key == "hosts" && value == "1") {
                request.oneHost = true;
            } else if (section == "span" && key == "ptile") {
                request.ptile = static_cast<int>(parseLeadingInteger(value));
            } else if (section == "select" || section == "order" || section == "same") {
                continue; // host selection: every host of a queue is alike here
            } else {
                return Problem{
                    "-R \"" + section + "[" + item + "]\" is not supported by minicluster"};
            }
        }
    }
    return std::nullopt;
}

// -w "done(12) && ended(13)" as Slurm's --dependency.
std::string slurmDependency(std::string text)
{
    std::string out;
    std::size_t at = 0;
    while (at < text.size()) {
        const char c = text[at];
        if (c == ' ') {
            ++at;
        } else if (text.compare(at, 2, "&&") == 0) {
            out += ',';
            at += 2;
        } else if (text.compare(at, 2, "||") == 0) {
            out += '?';
            at += 2;
        } else {
            const auto open = text.find('(', at);
            const auto close = text.find(')', at);
            std::string kind = "done";
            std::string id;
            if (open != std::string::npos && close != std::string::npos && open < close) {
                kind = text.substr(at, open - at);
                id = text.substr(open + 1, close - open - 1);
                at = close + 1;
            } else {
                const auto end = text.find_first_of(" &|", at);
                id = text.substr(at, end - at);
                at = end == std::string::npos ? text.size() : end;
            }
            const std::string type = kind == "ended" ? "afterany"
                : kind == "exit"                     ? "afternotok"
                : kind == "started"                  ? "after"
                                                     : "afterok";
            out += type + ":" + id;
        }
    }
    return out;
}

// Applies one option; a Problem ends the run.
std::optional<Problem> apply(const LsfOption &option, const std::string &value, Request &r)
{
    const std::string_view name = option.name;
    if (!option.supported) {
        return Problem{std::string(name) + " is not supported by minicluster"};
    }
    if (name == "-J") {
        r.name = value;
    } else if (name == "-q") {
        r.queue = value;
    } else if (name == "-n") {
        auto n = parseInteger(value);
        if (!n || *n <= 0) {
            return Problem{value + ": Bad argument for option -n. Job not submitted."};
        }
        r.slots = static_cast<int>(*n);
    } else if (name == "-o" || name == "-oo") {
        r.out = value;
        r.outOverwrite = name == "-oo";
    } else if (name == "-e" || name == "-eo") {
        r.err = value;
        r.errOverwrite = name == "-eo";
    } else if (name == "-W") {
        const auto colon = value.find(':');
        auto first = parseInteger(value.substr(0, colon));
        auto second = colon == std::string::npos ? std::optional<std::int64_t>(0)
                                                 : parseInteger(value.substr(colon + 1));
        if (!first || !second || *first < 0 || *second < 0) {
            return Problem{value + ": Bad RUNLIMIT specification. Job not submitted."};
        }
        r.minutes = colon == std::string::npos ? *first : *first * 60 + *second;
    } else if (name == "-M") {
        r.memLimit = megabytes(value);
        if (!r.memLimit) {
            return Problem{value + ": Bad argument for option -M. Job not submitted."};
        }
    } else if (name == "-R") {
        return readResources(value, r);
    } else if (name == "-x") {
        r.exclusive = true;
    } else if (name == "-w") {
        r.dependency = slurmDependency(value);
    } else if (name == "-cwd") {
        r.workDir = value;
    } else if (name == "-H") {
        r.hold = true;
    } else if (name == "-i") {
        r.input = value;
    } else if (name == "-b") {
        r.begin = value;
    }
    // -B, -N, -u: mail, accepted; minicluster sends no mail (as sbatch --mail-type).
    return std::nullopt;
}

// Reads options from `words` until the first word that is not one; returns where the command
// starts.
std::optional<Problem> readOptions(
    const std::vector<std::string> &words, Request &r, std::size_t &commandStart)
{
    std::size_t i = 0;
    for (; i < words.size(); ++i) {
        const std::string &word = words[i];
        if (word.empty() || word[0] != '-') {
            break;
        }
        const LsfOption *option = findOption(word);
        if (!option) {
            return Problem{"bsub: illegal option -- " + word.substr(1)};
        }
        std::string value;
        if (option->takesValue) {
            if (i + 1 >= words.size()) {
                return Problem{"bsub: option requires an argument -- " + word.substr(1)};
            }
            value = words[++i];
        }
        if (auto problem = apply(*option, value, r)) {
            return problem;
        }
    }
    commandStart = i;
    return std::nullopt;
}

// LSF's %J and %I in file names are Slurm's %j and %a.
std::string slurmPattern(std::string name)
{
    for (std::size_t at = 0; (at = name.find('%', at)) != std::string::npos; at += 2) {
        if (at + 1 < name.size() && (name[at + 1] == 'J' || name[at + 1] == 'I')) {
            name[at + 1] = name[at + 1] == 'J' ? 'j' : 'a';
        }
    }
    return name;
}

std::vector<std::string> sbatchArgs(const Request &r)
{
    std::vector<std::string> args{"--ignore-pbs"};
    auto add = [&args](std::string option, const std::optional<std::string> &value) {
        if (value) {
            args.push_back(option + "=" + *value);
        }
    };
    add("--job-name", r.name);
    add("--partition", r.queue);
    add("--output", r.out ? std::optional(slurmPattern(*r.out)) : std::nullopt);
    add("--error", r.err ? std::optional(slurmPattern(*r.err)) : std::nullopt);
    add("--input", r.input);
    add("--chdir", r.workDir);
    add("--begin", r.begin);
    if (r.out && !r.outOverwrite) {
        args.push_back("--open-mode=append"); // LSF's -o appends, -oo overwrites
    }
    if (r.slots) {
        args.push_back("--ntasks=" + std::to_string(*r.slots));
    }
    if (r.oneHost) {
        args.push_back("--nodes=1");
    }
    if (r.ptile) {
        args.push_back("--ntasks-per-node=" + std::to_string(*r.ptile));
    }
    if (r.minutes) {
        args.push_back("--time=" + std::to_string(*r.minutes));
    }
    // A slot's memory: the reservation (rusage) when given, else the limit (-M).
    if (auto mem = r.memReserve ? r.memReserve : r.memLimit) {
        args.push_back("--mem-per-cpu=" + std::to_string(*mem));
    }
    if (r.exclusive) {
        args.push_back("--exclusive");
    }
    if (r.hold) {
        args.push_back("--hold");
    }
    if (!r.dependency.empty()) {
        args.push_back("--dependency=" + r.dependency);
    }
    return args;
}

// LSF passes the command line to the shell as one string: the words joined by blanks.
std::string commandLine(const std::vector<std::string> &words)
{
    std::string line;
    for (const std::string &word : words) {
        line += (line.empty() ? "" : " ") + word;
    }
    return line;
}

} // namespace

int Bsub::run()
{
    Request request;
    std::size_t commandStart = 0;
    auto fail = [this](const std::string &message) {
        *m_ctx.err << message << '\n';
        return kExitFailed;
    };
    if (auto problem = readOptions(m_ctx.args, request, commandStart)) {
        return fail(problem->message);
    }
    const std::vector<std::string> command(
        m_ctx.args.begin() + static_cast<std::ptrdiff_t>(commandStart), m_ctx.args.end());

    // The job's script: the spooled standard input, or the command (a script file is read for
    // its #BSUB lines, as LSB_BSUB_PARSE_SCRIPT=Y sites do).
    std::string script;
    std::vector<std::string> args;
    std::string defaultName;
    if (command.empty()) {
        script = m_ctx.readStdin ? m_ctx.readStdin() : std::string();
        if (script.find_first_not_of(" \t\n") == std::string::npos) {
            return fail("Job not submitted.");
        }
        if (!sched::hasShebang(script)) {
            script = "#!/bin/sh\n" + script; // LSF runs a spooled script with /bin/sh
        }
        defaultName = "bsub"; // LSF names it after its first command line; Slurm's stdin name
    } else {
        const std::string path = absolutePath(command.front(), m_ctx.cwd);
        std::ifstream file(path, std::ios::binary);
        std::ostringstream text;
        text << file.rdbuf();
        if (file && sched::hasShebang(text.str())) {
            script = text.str();
        } else {
            script = "#!/bin/sh\n" + commandLine(command) + "\n";
        }
        defaultName = commandLine(command);
    }
    Request fromScript;
    std::size_t ignored = 0;
    const auto words = foreign::directiveWords(script, "#BSUB");
    if (auto problem = readOptions(words, fromScript, ignored)) {
        return fail(problem->message);
    }
    if (ignored < words.size()) {
        return fail("bsub: illegal #BSUB line: " + words[ignored] + ". Job not submitted.");
    }
    // The command line overrides the script: apply it again over the script's options.
    std::size_t again = 0;
    readOptions(m_ctx.args, fromScript, again);
    request = fromScript;
    if (!request.name) {
        request.name = defaultName;
    }
    args = sbatchArgs(request);
    const foreign::Submission submitted = foreign::submitWithSbatch(m_ctx, args, script, "lsf");
    if (submitted.jobId <= 0) {
        for (const std::string &error : submitted.errors) {
            if (error == "Invalid partition name specified") {
                return fail(request.queue.value_or("") + ": No such queue. Job not submitted.");
            }
        }
        return fail((submitted.errors.empty() ? std::string("Request aborted by esub")
                                              : submitted.errors.back())
            + ". Job not submitted.");
    }
    *m_ctx.out << "Job <" << submitted.jobId << "> is submitted to queue <" << submitted.partition
               << ">.\n";
    return 0;
}

} // namespace mc::cmd
