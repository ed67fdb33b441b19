#include "mc/cmd/sprio.h"

#include "../shared/format_spec.h"
#include "../shared/outcome.h"
#include "../shared/text.h"
#include "sprio_options.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ostream>

namespace mc::cmd {
namespace {

using proto::Json;
using namespace sprio;

constexpr std::string_view kProgram = "sprio";

// One printed row: a pending job, or the weights (-w).
struct Row {
    const Json *job = nullptr; // null: the weights row
    const Json *weights = nullptr;
    bool normalized = false;
};

// A factor of the `priorities` reply: its job field and weight name.
struct Factor {
    std::string_view jobField;
    std::string_view weight;
};

std::string fixed(double value, int decimals)
{
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string factorText(const Row &row, const Factor &factor)
{
    const double weight = (*row.weights)[factor.weight].toDouble();
    if (!row.job) {
        return std::to_string(static_cast<std::int64_t>(weight));
    }
    const double value = (*row.job)[factor.jobField].toDouble();
    return row.normalized ? fixed(value, 7) : fixed(value * weight, 0);
}

struct Column {
    char letter;
    std::string_view header;
    std::string (*value)(const Row &);
};

constexpr Factor kAge{"age", "age"};
constexpr Factor kFairshare{"fairshare", "fairshare"};
constexpr Factor kJobSize{"job_size", "job_size"};
constexpr Factor kPartitionFactor{"partition_factor", "partition"};
constexpr Factor kQos{"qos", "qos"};

std::string jobText(const Row &row, std::string_view key)
{
    return row.job ? (*row.job)[key].toString() : std::string();
}

// Slurm 22.05 sprio's format letters; upper case weighted, lower case normalized.
constexpr std::array kColumns{
    Column{'a', "AGE",
        [](const Row &r) {
            return factorText({r.job, r.weights, true}, kAge);
        }},
    Column{'A', "AGE",
        [](const Row &r) {
            return factorText(r, kAge);
        }},
    Column{'c', "CLUSTER",
        [](const Row &r) {
            return jobText(r, "cluster");
        }},
    Column{'f', "FAIRSHARE",
        [](const Row &r) {
            return factorText({r.job, r.weights, true}, kFairshare);
        }},
    Column{'F', "FAIRSHARE",
        [](const Row &r) {
            return factorText(r, kFairshare);
        }},
    Column{'i', "JOBID",
        [](const Row &r) {
            return r.job ? std::to_string((*r.job)["job_id"].toInt()) : std::string("Weights");
        }},
    Column{'j', "JOBSIZE",
        [](const Row &r) {
            return factorText({r.job, r.weights, true}, kJobSize);
        }},
    Column{'J', "JOBSIZE",
        [](const Row &r) {
            return factorText(r, kJobSize);
        }},
    Column{'N', "NICE",
        [](const Row &r) {
            return r.job ? std::to_string((*r.job)["nice"].toInt()) : std::string();
        }},
    Column{'o', "ACCOUNT",
        [](const Row &r) {
            return jobText(r, "account");
        }},
    Column{'p', "PARTITION",
        [](const Row &r) {
            return factorText({r.job, r.weights, true}, kPartitionFactor);
        }},
    Column{'P', "PARTITION",
        [](const Row &r) {
            return factorText(r, kPartitionFactor);
        }},
    Column{'q', "QOS",
        [](const Row &r) {
            return factorText({r.job, r.weights, true}, kQos);
        }},
    Column{'Q', "QOS",
        [](const Row &r) {
            return factorText(r, kQos);
        }},
    Column{'r', "PARTITION",
        [](const Row &r) {
            return jobText(r, "partition");
        }},
    Column{'S', "SITE",
        [](const Row &r) {
            return r.job ? std::string("0") : std::string("1");
        }},
    Column{'t', "TRES",
        [](const Row &) {
            return std::string();
        }},
    Column{'T', "TRES",
        [](const Row &) {
            return std::string();
        }},
    Column{'u', "USER",
        [](const Row &r) {
            return jobText(r, "user");
        }},
    Column{'y', "PRIORITY",
        [](const Row &r) {
            return r.job
                ? fixed(static_cast<double>((*r.job)["priority"].toInt()) / 4294967295.0, 7)
                : std::string();
        }},
    Column{'Y', "PRIORITY",
        [](const Row &r) {
            return r.job ? std::to_string((*r.job)["priority"].toInt()) : std::string();
        }},
};

const Column *columnFor(char letter)
{
    for (const auto &c : kColumns) {
        if (c.letter == letter) {
            return &c;
        }
    }
    return nullptr;
}

// Slurm's default: the id, partition and priority, then one column per factor whose weight is
// not zero (-l adds user, account and nice).
std::string defaultFormat(const Json &weights, bool longList, bool normalized)
{
    std::string format = longList ? "%.15i %9r %.8u %10o " : "%.15i %9r ";
    format += normalized ? "%.10y" : "%.10Y";
    auto add = [&](std::string_view weight, char letter) {
        if (weights[weight].toDouble() != 0) {
            format += " %.10";
            format += normalized ? static_cast<char>(letter + ('a' - 'A')) : letter;
        }
    };
    add("age", 'A');
    add("fairshare", 'F');
    add("job_size", 'J');
    add("partition", 'P');
    add("qos", 'Q');
    if (longList) {
        format += " %.11N";
    }
    return format;
}

struct Settings {
    bool noHeader = false, longList = false, normalized = false, weightsOnly = false;
    std::optional<std::string> format, sort;
    std::vector<std::string> jobs, users, partitions;
};

std::optional<Outcome> apply(Settings &s, const ParsedOption &option)
{
    const OptionDef &def = *option.def;
    const std::string value = option.value.value_or("");
    switch (def.id) {
    case kHelp:
        return Outcome{std::string(sprio::help()), {}, 0};
    case kUsage:
        return Outcome{std::string(sprio::usage()), {}, 0};
    case kVersion:
        return Outcome{std::string(kSlurmVersion), {}, 0};
    case kNoHeader:
        s.noHeader = true;
        break;
    case kJobs:
        s.jobs = splitList(value);
        break;
    case kLong:
        s.longList = true;
        break;
    case kNorm:
        s.normalized = true;
        break;
    case kFormat:
        s.format = value;
        break;
    case kPartition:
        s.partitions = splitList(value);
        break;
    case kSort:
        s.sort = value;
        break;
    case kUser:
        s.users = splitList(value);
        break;
    case kWeights:
        s.weightsOnly = true;
        break;
    default:
        break; // --verbose, --local: nothing to add on one cluster
    }
    return std::nullopt;
}

std::optional<std::string> sortValue(const Json &job, char key)
{
    switch (key) {
    case 'u':
        return job["user"].toString();
    case 'r':
        return job["partition"].toString();
    case 'o':
        return job["account"].toString();
    default:
        return std::nullopt;
    }
}

double sortNumber(const Json &job, char key)
{
    switch (key) {
    case 'i':
        return static_cast<double>(job["job_id"].toInt());
    case 'y':
    case 'Y':
        return static_cast<double>(job["priority"].toInt());
    case 'a':
    case 'A':
        return job["age"].toDouble();
    case 'f':
    case 'F':
        return job["fairshare"].toDouble();
    case 'j':
    case 'J':
        return job["job_size"].toDouble();
    case 'p':
    case 'P':
        return job["partition_factor"].toDouble();
    case 'q':
    case 'Q':
        return job["qos"].toDouble();
    case 'N':
        return static_cast<double>(job["nice"].toInt());
    default:
        return 0;
    }
}

// -S "-y,i": keys applied from the last to the first, each a stable sort.
std::optional<char> sortJobs(std::vector<const Json *> &jobs, std::string_view spec)
{
    for (std::size_t i = spec.size(); i-- > 0;) {
        const char key = spec[i];
        if (key == ',' || key == '-' || key == '+') {
            continue;
        }
        if (!columnFor(key)) {
            return key;
        }
        const bool descending = i > 0 && spec[i - 1] == '-';
        std::stable_sort(jobs.begin(), jobs.end(), [&](const Json *a, const Json *b) {
            if (auto ta = sortValue(*a, key)) {
                const std::string tb = *sortValue(*b, key);
                return descending ? tb < *ta : *ta < tb;
            }
            const double na = sortNumber(*a, key);
            const double nb = sortNumber(*b, key);
            return descending ? nb < na : na < nb;
        });
    }
    return std::nullopt;
}

Outcome render(const Settings &s, const Json &reply)
{
    const Json &weights = reply["weights"];
    const std::string format = s.format.value_or(defaultFormat(weights, s.longList, s.normalized));
    const ShortFormat spec = tokenizeShortFormat(format, false);
    std::string err;
    std::vector<std::pair<const Column *, FormatToken>> columns;
    for (const auto &token : spec.tokens) {
        const Column *column = columnFor(token.letter);
        if (!column) {
            err += errorLine(
                kProgram, std::string("Invalid job format specification: ") + token.letter);
        }
        columns.emplace_back(column, token);
    }
    auto line = [&](const Row *row) {
        std::string text = spec.prefix;
        for (const auto &[column, token] : columns) {
            if (column) {
                text += fitToWidth(row ? column->value(*row) : std::string(column->header),
                    token.width, token.right);
            }
            text += token.suffix;
        }
        return text + "\n";
    };
    std::string out = s.noHeader ? std::string() : line(nullptr);
    if (s.weightsOnly) {
        const Row row{nullptr, &weights, s.normalized};
        return {out + line(&row), err, 0};
    }
    std::vector<const Json *> jobs;
    for (const auto &job : reply["jobs"].items()) {
        jobs.push_back(&job);
    }
    if (jobs.empty() && (!s.jobs.empty() || !s.users.empty())) {
        return {"Unable to find jobs matching user/id(s) specified\n", err, 0};
    }
    if (auto bad = sortJobs(jobs, s.sort.value_or("i"))) {
        return {{}, errorLine(kProgram, std::string("Invalid sort specification: ") + *bad), 1};
    }
    for (const Json *job : jobs) {
        const Row row{job, &weights, s.normalized};
        out += line(&row);
    }
    return {out, err, 0};
}

} // namespace

int Sprio::run()
{
    Settings s;
    const ParseResult cli = parseOptions(optionTable(), m_ctx.args, kProgram);
    if (auto end = applyOptions(
            cli, kProgram, [&](const ParsedOption &option) { return apply(s, option); })) {
        return deliver(m_ctx, *end);
    }
    if (!cli.operands.empty()) {
        return deliver(m_ctx, {std::string(sprio::usage()), {}, 1});
    }
    Json request = Json::object();
    request.set("op", "priorities");
    if (!s.jobs.empty()) {
        Json ids = Json::array();
        for (const auto &id : s.jobs) {
            const std::int64_t value = parseInteger(id).value_or(0);
            if (value <= 0) {
                return deliver(m_ctx, {{}, errorLine(kProgram, "Invalid job id: " + id), 1});
            }
            ids.push(value);
        }
        request.set("job_ids", std::move(ids));
    }
    if (!s.users.empty()) {
        request.set("users", proto::stringList(s.users));
    }
    if (!s.partitions.empty()) {
        request.set("partitions", proto::stringList(s.partitions));
    }
    auto reply = m_ctx.controller ? m_ctx.controller(request) : std::nullopt;
    if (!reply) {
        return deliver(m_ctx,
            {{}, "slurm_load_job error: Unable to contact slurm controller (connect failure)\n",
                1});
    }
    if (!(*reply)["ok"].toBool()) {
        return deliver(
            m_ctx, {{}, "slurm_load_job error: " + (*reply)["error"].toString() + "\n", 1});
    }
    const std::string type = (*reply)["priority_type"].toString("priority/multifactor");
    if (type != "priority/multifactor") {
        return deliver(m_ctx,
            {{},
                "You are not running a supported priority plugin\n(" + type
                    + ").\nOnly 'priority/multifactor' is supported.\n",
                1});
    }
    return deliver(m_ctx, render(s, *reply));
}

namespace sprio {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr bool kRefused = false;

// Slurm 22.05 sprio's long_options[].
constexpr std::array kOptions{
    OptionDef{"noheader", 'h', kNo, kNoHeader},
    OptionDef{"jobs", 'j', kReq, kJobs},
    OptionDef{"long", 'l', kNo, kLong},
    OptionDef{"cluster", 'M', kReq, kClusters, kRefused},
    OptionDef{"clusters", 0, kReq, kClusters, kRefused},
    OptionDef{"norm", 'n', kNo, kNorm},
    OptionDef{"format", 'o', kReq, kFormat},
    OptionDef{"partition", 'p', kReq, kPartition},
    OptionDef{"sort", 'S', kReq, kSort},
    OptionDef{"user", 'u', kReq, kUser},
    OptionDef{"verbose", 'v', kNo, kVerbose},
    OptionDef{"version", 'V', kNo, kVersion},
    OptionDef{"weights", 'w', kNo, kWeights},
    OptionDef{"help", 0, kNo, kHelp},
    OptionDef{"usage", 0, kNo, kUsage},
    OptionDef{"federation", 0, kNo, kFederation, kRefused},
    OptionDef{"local", 0, kNo, kLocal},
    OptionDef{"sibling", 0, kNo, kSibling, kRefused},
};

} // namespace

std::span<const OptionDef> optionTable()
{
    return kOptions;
}

std::string_view help()
{
    return "Usage: sprio [OPTIONS]\n"
           "      --federation                display jobs in federation if a member of one\n"
           "  -h, --noheader                  no headers on output\n"
           "  -j, --jobs                      comma separated list of jobs\n"
           "                                  to view, default is all\n"
           "      --local                     display jobs on local cluster only\n"
           "  -l, --long                      long report\n"
           "  -M, --cluster=cluster_name      cluster to issue commands to.  Default is\n"
           "                                  current cluster.  cluster with no name will\n"
           "                                  reset to default.\n"
           "                                  NOTE: SlurmDBD must be up.\n"
           "  -n, --norm                      display normalized values\n"
           "  -o, --format=format             format specification\n"
           "      --sibling                   display job records separately for each federation "
           "cluster\n"
           "  -p, --partition=partition_name  comma separated list of partitions\n"
           "  -u, --user=user_name            comma separated list of users to view\n"
           "  -v, --verbose                   verbosity level\n"
           "  -V, --version                   output version information and exit\n"
           "  -w, --weights                   show the weights for each priority factor\n"
           "\n"
           "Help options:\n"
           "  --help                          show this help message\n"
           "  --usage                         display a brief summary of sprio options\n";
}

std::string_view usage()
{
    return "Usage: sprio [-j jid[s]] [-u user_name[s]] [-o format] [-p partitions]\n"
           "   [--federation] [--local] [--sibling] [--usage] [-hlnvVw]\n";
}

} // namespace sprio
} // namespace mc::cmd
