#include "sacct_settings.h"

#include "../shared/text.h"
#include "mc/record/step.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "mc/sched/time_format.h"
#include "sacct_options.h"

#include <cctype>

namespace mc::cmd::sacct {
namespace {

using sched::JobState;

constexpr std::string_view kProgram = "sacct";

std::optional<std::int64_t> parseTime(const std::string &text, std::int64_t now, std::string &err)
{
    // sacct reads -S/-E with parse_time(text, 1): looking back, not as sbatch --begin.
    auto when = sched::parseTimeSpec(text, now, sched::TimeSpecFill::Past);
    if (!when) {
        err = invalidTimeLine(text);
    }
    return when;
}

} // namespace

Outcome fatal(std::string_view message)
{
    return Outcome{{}, "sacct: fatal: " + std::string(message) + "\n", 1};
}

std::optional<Outcome> apply(Settings &s, const ParsedOption &option, const Context &ctx)
{
    const OptionDef &def = *option.def;
    if (!def.supported) {
        return notSupported(kProgram, optionName(def));
    }
    const std::string value = option.value.value_or("");
    std::string err;
    switch (def.id) {
    case kHelp:
        s.help = Settings::Help::Help;
        break;
    case kHelpFormat:
        s.help = Settings::Help::Fields;
        break;
    case kUsage:
        s.help = Settings::Help::Usage;
        break;
    case kVersion:
        return Outcome{std::string(kSlurmVersion), {}, 0};
    case kAllUsers:
        s.allUsers = true;
        break;
    case kAccounts:
        for (auto &a : splitList(value)) {
            s.accounts.push_back(a);
        }
        break;
    case kAllocations:
        s.allocations = true;
        break;
    case kBatchScript:
        s.batchScript = true;
        break;
    case kEnvVars:
        s.envVars = true;
        break;
    case kBrief:
        s.brief = true;
        break;
    case kLong:
        s.longFormat = true;
        break;
    case kDelimiter:
        s.layout.delimiter = value;
        break;
    case kEndTime:
        s.end = parseTime(value, ctx.now, err);
        if (!s.end) {
            return Outcome{{}, err, 1};
        }
        break;
    case kStartTime:
        s.start = parseTime(value, ctx.now, err);
        if (!s.start) {
            return Outcome{{}, err, 1};
        }
        break;
    case kName:
        for (auto &n : splitList(value)) {
            s.names.push_back(n);
        }
        break;
    case kJobs:
        for (const auto &word : splitJobIdList(value)) {
            const std::size_t dot = word.find('.');
            const auto spec = sched::parseJobIdSpec(word.substr(0, dot));
            if (!spec) {
                return fatal("Bad job/step specified: " + word);
            }
            JobSelector selector;
            selector.id = spec->job;
            selector.arrayTasks = spec->tasks;
            if (dot != std::string::npos) {
                selector.step = record::stepIdFromText(word.substr(dot + 1)); // 4294967290
            }
            s.jobs.push_back(selector);
        }
        break;
    case kNodelist: {
        auto nodes = sched::expandHostlist(value);
        s.nodes = nodes.value_or(std::vector<std::string>{value});
        break;
    }
    case kUnits: {
        std::string unit = value;
        for (char &c : unit) {
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        if (unit.size() != 1 || std::string_view("KMGTP").find(unit[0]) == std::string_view::npos) {
            return Outcome{{},
                errorLine(
                    kProgram, "Invalid unit type '" + value + "'. Possible options are 'KMGTP'")
                    + "sacct: fatal: Invalid unit type\n",
                1};
        }
        s.unit = unit[0];
        break;
    }
    case kNoConvert:
        s.noConvert = true;
        break;
    case kNoHeader:
        s.noHeader = true;
        break;
    case kFormat:
        s.fieldList += value + ",";
        break;
    case kParsable:
    case kParsable2:
        s.layout.parsable = true;
        s.layout.trailingDelimiter = def.id == kParsable;
        break;
    case kPartition:
        for (auto &p : splitList(value)) {
            s.partitions.push_back(p);
        }
        break;
    case kState:
        for (const auto &word : splitList(value)) {
            auto state = sched::parseJobState(word);
            if (!state) {
                return fatal("unrecognized job state value '" + word + "'");
            }
            if (*state == JobState::Completing) {
                return fatal("job state " + word + " is not supported / accounted");
            }
            s.states.push_back(*state);
        }
        break;
    case kUser:
        if (value == "-1") {
            s.allUsers = true;
            break;
        }
        s.allUsers = false;
        s.users.emplace();
        for (const auto &word : splitList(value)) {
            auto user = ctx.lookupUser ? ctx.lookupUser(word) : std::nullopt;
            if (!user) {
                return Outcome{{}, errorLine(kProgram, "Invalid user id: " + word), 1};
            }
            s.users->push_back(user->name);
        }
        break;
    case kVerbose:
        ++s.verbose;
        break;
    default:
        break; // --duplicates, --allclusters, --local, --use-local-uid: one cluster, no resets
    }
    return std::nullopt;
}

} // namespace mc::cmd::sacct
