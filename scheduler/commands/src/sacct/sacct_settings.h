#pragma once
// sacct's settings: what its options, in command-line order, ask it to select and print.

#include "../shared/outcome.h"
#include "mc/cmd/context.h"
#include "mc/cmd/option_parser.h"
#include "mc/sched/job_state.h"
#include "sacct_fields.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mc::cmd::sacct {

// How a run ends early: what to print and the exit code.

// "sacct: fatal: <message>", exit 1.
Outcome fatal(std::string_view message);

// One -j entry: a job, or one of its steps ("106.batch").
struct JobSelector {
    std::int64_t id = 0;
    std::optional<std::string> step;
    std::vector<std::uint32_t> arrayTasks; // "12_3", "12_[1-3]": those tasks of array 12
};

struct Settings {
    enum class Help { None, Help, Fields, Usage };
    Help help = Help::None; // shown after every option is read, as Slurm does
    bool allUsers = false, allocations = false, brief = false, noHeader = false;
    bool longFormat = false; // -l: Slurm's long field list
    bool noConvert = false;
    char unit = 0; // --units: K, M, G, T or P; 0: each value in its own best unit
    bool batchScript = false, envVars = false; // -B, --env-vars: a job's kept script, env
    int verbose = 0;
    Layout layout;
    std::string fieldList; // -o values, each followed by a comma
    std::optional<std::vector<std::string>> users; // names; unset: decided after parsing
    std::vector<JobSelector> jobs;
    std::vector<std::string> accounts, names, partitions, nodes;
    std::vector<sched::JobState> states;
    std::optional<std::int64_t> start, end;
};

// Applies one option; returns how the run ends when the option ends it (--version, an
// unsupported option, a malformed value).
std::optional<Outcome> apply(Settings &s, const ParsedOption &option, const Context &ctx);

} // namespace mc::cmd::sacct
