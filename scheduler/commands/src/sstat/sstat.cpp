#include "mc/cmd/sstat.h"

#include "../shared/outcome.h"
#include "../shared/text.h"
#include "mc/cmd/option_parser.h"
#include "mc/record/job_object.h"
#include "mc/record/step.h"
#include "mc/sched/hostlist.h"

#include <array>
#include <cctype>
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

namespace mc::cmd {
namespace {

using proto::Json;

constexpr std::string_view kProgram = "sstat";

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
    OptionDef{"allsteps", 'a', ArgKind::None, kAllSteps},
    OptionDef{"format", 'o', ArgKind::Required, kFormat},
    OptionDef{"fields", 0, ArgKind::Required, kFormat},
    OptionDef{"help", 'h', ArgKind::None, kHelp},
    OptionDef{"helpformat", 'e', ArgKind::None, kRefused, false},
    OptionDef{"jobs", 'j', ArgKind::Required, kJobs},
    OptionDef{"noconvert", 0, ArgKind::None, kRefused, false},
    OptionDef{"noheader", 'n', ArgKind::None, kNoHeader},
    OptionDef{"parsable", 'p', ArgKind::None, kParsable},
    OptionDef{"parsable2", 'P', ArgKind::None, kParsable2},
    OptionDef{"pidformat", 'i', ArgKind::None, kRefused, false},
    OptionDef{"usage", 0, ArgKind::None, kUsage},
    OptionDef{"verbose", 'v', ArgKind::None, kRefused, false},
    OptionDef{"version", 'V', ArgKind::None, kVersion},
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

std::string value(const std::string &field, const record::StepObject &step)
{
    std::string f = toLower(field);
    std::int64_t ntasks = std::max<std::int64_t>(1, step.ntasks.value_or(1));
    if (f == "jobid") {
        return std::to_string(step.jobId) + "." + step.stepId;
    }
    if (f == "ntasks") {
        return std::to_string(ntasks);
    }
    if (f == "nodelist") {
        return sched::compressHostlist(step.nodes); // node[01-02]
    }
    if (f == "maxrss") {
        return std::to_string(step.maxRssKb) + "K";
    }
    if (f == "maxrssnode") {
        return step.nodes.empty() ? std::string() : step.nodes.front();
    }
    if (f == "averss") {
        return std::to_string(step.aveRssKb) + "K";
    }
    if (f == "avecpu" || f == "mincpu") {
        return cpuTime(step.totalCpuMs / ntasks);
    }
    return cpuTime(step.totalCpuMs); // totalcpu
}

} // namespace

int Sstat::run()
{
    auto parsed = parseOptions(kOptions, m_ctx.args, kProgram);
    std::ostream &out = *m_ctx.out;
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
            out << "Usage: sstat [options] -j <job(.stepid)>\n"
                   "See `man sstat` for the options and fields minicluster implements.\n";
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
            out << kSlurmVersion;
            return 0;
        default:
            return deliver(m_ctx, notSupported(kProgram, optionName(*option.def)));
        }
    }
    if (!parsed.ok()) {
        return deliver(m_ctx, Outcome{{}, parsed.error, 1});
    }
    if (jobs.empty() && !parsed.operands.empty()) {
        jobs = parsed.operands.front();
    }
    if (jobs.empty()) {
        return deliver(
            m_ctx, Outcome{{}, errorLine(kProgram, "You didn't give me any jobs to stat."), 1});
    }
    std::vector<std::string> fields = splitList(format);
    for (auto &f : fields) {
        f = f.substr(0, f.find('%'));
        bool known = false;
        for (const auto &k : kFields) {
            if (equalsIgnoreCase(f, k.name)) {
                f = k.name;
                known = true;
            }
        }
        if (!known) {
            return deliver(m_ctx, notSupported(kProgram, "the field " + f));
        }
    }

    std::vector<record::StepObject> rows;
    bool contacted = false; // the first request is where the connection fails
    for (const auto &spec : splitList(jobs)) {
        auto dot = spec.find('.');
        auto id = parseInteger(spec.substr(0, dot));
        std::string wantedStep = dot == std::string::npos
            ? std::string()
            : record::stepIdFromText(spec.substr(dot + 1)); // 12.4294967290: 12.interactive
        if (!id) {
            return deliver(
                m_ctx, Outcome{{}, "sstat: fatal: Bad job/step specified: " + spec + "\n", 1});
        }
        Json request = Json::object();
        request.set("op", "steps");
        Json ids = Json::array();
        ids.push(*id);
        request.set("job_ids", std::move(ids));
        auto reply = m_ctx.controller(request);
        if (!reply && !contacted) {
            return deliver(m_ctx,
                Outcome{{},
                    errorLine(kProgram, "Unable to contact slurm controller (connect failure)"),
                    1});
        }
        contacted = true;
        std::vector<record::StepObject> found;
        bool running = false;
        if (reply) {
            for (const auto &item : (*reply)["steps"].items()) {
                running = true;
                record::StepObject s = record::stepObjectFromJson(item);
                const std::string &step = s.stepId;
                const bool numbered
                    = !step.empty() && std::isdigit(static_cast<unsigned char>(step[0]));
                if (wantedStep.empty() ? all || (numbered && found.empty()) : step == wantedStep) {
                    found.push_back(std::move(s)); // without -a: the lowest numbered step running
                }
            }
        }
        if (!running) {
            *m_ctx.err << errorLine(kProgram, "couldn't get steps for job " + spec.substr(0, dot));
        } else if (found.empty() && !wantedStep.empty()) {
            *m_ctx.err << errorLine(kProgram, "StepId=" + spec + " not found running.");
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
                line += (fields[i] == "JobID" ? padRight(cell, width) : padLeft(cell, width)) + " ";
            }
        }
        out << line << '\n';
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

} // namespace mc::cmd
