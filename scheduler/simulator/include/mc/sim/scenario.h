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
    std::vector<std::string> errors; // "jobs.txt:3: sbatch: unrecognized option '--foo'"
};

// Replays `jobsText` on the cluster of `slurmConf`; `policy` overrides SchedulerType.
ScenarioResult runScenario(std::string_view slurmConf, std::string_view jobsText);

// Applies a submit line's words (after "submit") to `spec`: sbatch's options, read through
// sbatch's rows of the one job-option table and applied by the commands' one apply
// (mc/cmd/job_options_apply.h), so a line takes what sbatch takes, with its words for a bad
// value; short options also as "-n=4"; and the scenario's own `--user=NAME`. The other words
// are left in `rest` (run=, exit=). False with `error` set on a bad or unread option.
bool applySubmitOptions(sched::JobSpec &spec, const std::vector<std::string> &words, Seconds now,
    std::vector<std::string> &rest, std::string &error);

} // namespace mc::sim
