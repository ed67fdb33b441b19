// sstat -j JOBID[.STEP]: usage of running job steps (.batch, .extern and srun's numbered
// steps), as the node daemons sample it every 250 ms and pass it on to the controller about
// once a second (srun for its steps, the batch host for the batch step). As Slurm's, without a
// step it shows the lowest numbered one (-a: every step); a step not running is an error line
// but not a failure.

#include "../shared/text.h"
#include "mc/cmd/option_parser.h"
#include "mc/proto/client.h"
#include "mc/sched/hostlist.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using mc::proto::Json;

enum Opt : int {
    kAllSteps = 1,
    kFormat,
    kHelp,
    kJobs,
    kNoHeader,
    kParsable,
    kParsable2,
    kUsage,
    kVersion,
    kRefused
};

constexpr std::array kOptions{
    mc::cmd::OptionDef{"allsteps", 'a', mc::cmd::ArgKind::None, kAllSteps},
    mc::cmd::OptionDef{"format", 'o', mc::cmd::ArgKind::Required, kFormat},
    mc::cmd::OptionDef{"fields", 0, mc::cmd::ArgKind::Required, kFormat},
    mc::cmd::OptionDef{"help", 'h', mc::cmd::ArgKind::None, kHelp},
    mc::cmd::OptionDef{"helpformat", 'e', mc::cmd::ArgKind::None, kRefused, false},
    mc::cmd::OptionDef{"jobs", 'j', mc::cmd::ArgKind::Required, kJobs},
    mc::cmd::OptionDef{"noconvert", 0, mc::cmd::ArgKind::None, kRefused, false},
    mc::cmd::OptionDef{"noheader", 'n', mc::cmd::ArgKind::None, kNoHeader},
    mc::cmd::OptionDef{"parsable", 'p', mc::cmd::ArgKind::None, kParsable},
    mc::cmd::OptionDef{"parsable2", 'P', mc::cmd::ArgKind::None, kParsable2},
    mc::cmd::OptionDef{"pidformat", 'i', mc::cmd::ArgKind::None, kRefused, false},
    mc::cmd::OptionDef{"usage", 0, mc::cmd::ArgKind::None, kUsage},
    mc::cmd::OptionDef{"verbose", 'v', mc::cmd::ArgKind::None, kRefused, false},
    mc::cmd::OptionDef{"version", 'V', mc::cmd::ArgKind::None, kVersion},
};

// The fields minicluster measures (the others of `man sstat` say so).
struct Field {
    const char *name;
    int width;
};
constexpr std::array kFields{Field{"JobID", 12}, Field{"NTasks", 8}, Field{"Nodelist", 20},
    Field{"MaxRSS", 10}, Field{"MaxRSSNode", 10}, Field{"AveRSS", 10}, Field{"AveCPU", 10},
    Field{"MinCPU", 10}, Field{"TotalCPU", 10}};
constexpr const char *kDefaultFormat = "JobID,NTasks,Nodelist,MaxRSS,AveRSS,AveCPU,TotalCPU";

std::string cpuTime(std::int64_t ms)
{
    // Slurm's TotalCPU/AveCPU: MM:SS.mmm under an hour, else [D-]HH:MM:SS.
    char buffer[48];
    std::int64_t s = ms / 1000;
    if (s < 3600) {
        std::snprintf(buffer, sizeof buffer, "%02lld:%02lld.%03lld", static_cast<long long>(s / 60),
            static_cast<long long>(s % 60), static_cast<long long>(ms % 1000));
    } else if (s < 86400) {
        std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld",
            static_cast<long long>(s / 3600), static_cast<long long>(s % 3600 / 60),
            static_cast<long long>(s % 60));
    } else {
        std::snprintf(buffer, sizeof buffer, "%lld-%02lld:%02lld:%02lld",
            static_cast<long long>(s / 86400), static_cast<long long>(s % 86400 / 3600),
            static_cast<long long>(s % 3600 / 60), static_cast<long long>(s % 60));
    }
    return buffer;
}

std::string value(const std::string &field, const Json &step)
{
    std::string f = mc::cmd::toLower(field);
    std::int64_t ntasks = std::max<std::int64_t>(1, step["ntasks"].toInt(1));
    if (f == "jobid") {
        return std::to_string(step["job_id"].toInt()) + "." + step["step_id"].toString();
    }
    if (f == "ntasks") {
        return std::to_string(ntasks);
    }
    if (f == "nodelist") {
        return mc::sched::compressHostlist(step["nodes"].toStringList()); // node[01-02]
    }
    if (f == "maxrss") {
        return std::to_string(step["max_rss_kb"].toInt()) + "K";
    }
    if (f == "maxrssnode") {
        auto nodes = step["nodes"].toStringList();
        return nodes.empty() ? std::string() : nodes.front();
    }
    if (f == "averss") {
        return std::to_string(step["ave_rss_kb"].toInt()) + "K";
    }
    if (f == "avecpu" || f == "mincpu") {
        return cpuTime(step["total_cpu_ms"].toInt() / ntasks);
    }
    return cpuTime(step["total_cpu_ms"].toInt()); // totalcpu
}

} // namespace

int main(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    auto parsed = mc::cmd::parseOptions(kOptions, args, "sstat");
    std::string jobs, format = kDefaultFormat;
    bool all = false, header = true;
    const char *separator = nullptr;
    bool trailing = false;
    for (const auto &option : parsed.options) {
        const std::string v = option.value.value_or("");
        switch (option.def->id) {
        case kAllSteps:
            all = true;
            break;
        case kFormat:
            format = v;
            break;
        case kHelp:
        case kUsage:
            std::puts("Usage: sstat [options] -j <job(.stepid)>\n"
                      "See `man sstat` for the options and fields minicluster implements.");
            return 0;
        case kJobs:
            jobs = v;
            break;
        case kNoHeader:
            header = false;
            break;
        case kParsable:
            separator = "|";
            trailing = true;
            break;
        case kParsable2:
            separator = "|";
            trailing = false;
            break;
        case kVersion:
            std::fputs(std::string(mc::cmd::kSlurmVersion).c_str(), stdout);
            return 0;
        default:
            std::fprintf(stderr, "sstat: error: %s is not supported by minicluster\n",
                mc::cmd::optionName(*option.def).c_str());
            return 1;
        }
    }
    if (!parsed.ok()) {
        std::fputs(parsed.error.c_str(), stderr);
        return 1;
    }
    if (jobs.empty() && !parsed.operands.empty()) {
        jobs = parsed.operands.front();
    }
    if (jobs.empty()) {
        std::fputs("sstat: error: You didn't give me any jobs to stat.\n", stderr);
        return 1;
    }
    std::vector<std::string> fields = mc::cmd::splitList(format);
    for (auto &f : fields) {
        f = f.substr(0, f.find('%'));
        bool known = false;
        for (const auto &k : kFields) {
            if (mc::cmd::equalsIgnoreCase(f, k.name)) {
                f = k.name;
                known = true;
            }
        }
        if (!known) {
            std::fprintf(
                stderr, "sstat: error: the field %s is not supported by minicluster\n", f.c_str());
            return 1;
        }
    }

    mc::proto::Client client;
    std::string error;
    if (!client.connect(mc::proto::controllerSocketPath(), error)) {
        std::fputs("sstat: error: Unable to contact slurm controller (connect failure)\n", stderr);
        return 1;
    }
    std::vector<Json> rows;
    for (const auto &spec : mc::cmd::splitList(jobs)) {
        auto dot = spec.find('.');
        auto id = mc::cmd::parseInteger(spec.substr(0, dot));
        std::string wantedStep = dot == std::string::npos ? std::string() : spec.substr(dot + 1);
        if (!id) {
            std::fprintf(stderr, "sstat: error: Invalid job id: %s\n", spec.c_str());
            return 1;
        }
        Json request = Json::object();
        request.set("op", "steps");
        Json ids = Json::array();
        ids.push(*id);
        request.set("job_ids", std::move(ids));
        auto reply = client.call(request, error);
        std::vector<Json> found;
        bool running = false;
        if (reply) {
            for (const auto &s : (*reply)["steps"].items()) {
                running = true;
                const std::string step = s["step_id"].toString();
                const bool numbered
                    = !step.empty() && std::isdigit(static_cast<unsigned char>(step[0]));
                if (wantedStep.empty() ? all || (numbered && found.empty()) : step == wantedStep) {
                    found.push_back(s); // without -a: the lowest numbered step running
                }
            }
        }
        if (!running) {
            std::fprintf(stderr, "sstat: error: couldn't get steps for job %s\n",
                spec.substr(0, dot).c_str());
        } else if (found.empty() && !wantedStep.empty()) {
            std::fprintf(stderr, "sstat: error: StepId=%s not found running.\n", spec.c_str());
        }
        rows.insert(rows.end(), found.begin(), found.end());
    }
    auto widthOf = [](const std::string &name) {
        for (const auto &k : kFields) {
            if (name == k.name) {
                return k.width;
            }
        }
        return 10;
    };
    auto emit = [&](const std::vector<std::string> &cells) {
        std::string line;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (separator) {
                line += cells[i];
                if (trailing || i + 1 < cells.size()) {
                    line += separator;
                }
            } else {
                auto width = static_cast<std::size_t>(widthOf(fields[i]));
                std::string cell
                    = cells[i].size() > width ? cells[i].substr(0, width - 1) + "+" : cells[i];
                // JobID reads from the left, as in Slurm's sstat and sacct.
                line += (fields[i] == "JobID" ? mc::cmd::padRight(cell, width)
                                              : mc::cmd::padLeft(cell, width))
                    + " ";
            }
        }
        std::puts(line.c_str());
    };
    if (header) {
        emit(fields);
        if (!separator) {
            std::vector<std::string> dashes;
            for (const auto &f : fields) {
                dashes.push_back(std::string(static_cast<std::size_t>(widthOf(f)), '-'));
            }
            emit(dashes);
        }
    }
    for (const auto &row : rows) {
        std::vector<std::string> cells;
        for (const auto &f : fields) {
            cells.push_back(value(f, row));
        }
        emit(cells);
    }
    return 0;
}
