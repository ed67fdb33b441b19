#include "squeue_verbose.h"

#include "../shared/text.h"
#include "squeue_options.h"

namespace mc::cmd::squeue {

std::string optionDump(const VerboseFacts &facts)
{
    const auto has = [&facts](int id) {
        return facts.given.count(id) > 0;
    };
    const auto value = [&facts](int id, std::string_view none) {
        const auto it = facts.given.find(id);
        return it == facts.given.end() ? std::string(none) : it->second;
    };
    const auto flag = [](bool on) {
        return std::string(on ? "true" : "false");
    };
    std::string users = value(kUsers, "(null)");
    if (!facts.me.empty() && !has(kUsers)) {
        users = facts.me;
    }
    // In _print_options()'s order and spacing (sic: "sibling" has one space more). -p implies
    // --all there, as it does in Slurm's option parsing.
    const std::pair<std::string, std::string> lines[] = {
        {"all", flag(has(kAll) || has(kPartitions))},
        {"array", flag(has(kArray))},
        {"federation", "false"},
        {"format", facts.format.value_or("(null)")},
        {"iterate", "0"},
        {"job_flag", has(kJobs) ? "1" : "0"},
        {"jobs", value(kJobs, "(null)")},
        {"licenses", value(kLicenses, "(null)")},
        {"local", flag(has(kLocal))},
        {"names", value(kName, "(null)")},
        {"nodes", value(kNodes, "")},
        {"partitions", value(kPartitions, "(null)")},
        {"priority", "false"},
        {"reservation", "(null)"},
        {"sibling      ", "false"},
        {"sort", facts.sort.value_or("(null)")},
        {"start_flag", has(kStart) ? "1" : "0"},
        {"states", value(kStates, "(null)")},
        {"step_flag", has(kSteps) ? "1" : "0"},
        {"steps", value(kSteps, "(null)")},
        {"users", users},
        {"verbose", std::to_string(facts.verbose)},
    };
    const std::string rule = "-----------------------------\n";
    std::string out = rule;
    for (const auto &[key, text] : lines) {
        out += padRight(key, 12) + "= " + text + "\n";
    }
    return out + rule + "\n\n";
}

} // namespace mc::cmd::squeue
