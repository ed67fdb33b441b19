#pragma once
// Golden scheduling scenarios (tests/scenarios/<case>/jobs.txt): a timed script of sbatch-like
// submissions and admin commands, replayed by Simulation; the transcript it produces is
// compared with expected.txt. Format (documented in tests/scenarios/README.md):
//   <t> submit [sbatch options] [run=SECONDS] [exit=CODE]   job ids are 1, 2, ... in order
//   <t> cancel ID | hold ID [admin] | release ID [admin] | requeue ID
//   <t> fail NODE | resume NODE | partition NAME UP|DOWN|DRAIN|INACTIVE
//   <t> show ID | explain ID en|fr | priority ID | queue
//   end <t>
// `#` starts a comment. Times are seconds of simulated time from 0.

#include "mc/sim/simulation.h"

#include <string>
#include <string_view>
#include <vector>

namespace mc::sim {

struct ScenarioResult {
    std::string transcript; // one line per event or query, in time order
    std::vector<std::string> errors; // "jobs.txt:3: unknown option --foo"
};

// Replays `jobsText` on the cluster of `slurmConf`; `policy` overrides SchedulerType.
ScenarioResult runScenario(std::string_view slurmConf, std::string_view jobsText);

// Applies one `--option=value` (or `-x value` already joined as "-x=value") to `spec`; false
// with `error` set when the option is unknown or its value bad. `now` serves --begin.
bool applySbatchOption(
    sched::JobSpec &spec, std::string_view option, Seconds now, std::string &error);

} // namespace mc::sim
