#pragma once
// Figures of a finished replay: makespan, utilisation, mean wait, mean bounded slowdown
// (run times under 10 s count as 10 s), and the per-job timeline as CSV.

#include "mc/sim/simulation.h"

#include <string>

namespace mc::sim {

struct Metrics {
    std::size_t jobs = 0; // jobs that started
    Seconds makespan = 0; // last end - first submit
    double utilisation = 0; // CPU-seconds used / (CPUs x makespan), in [0, 1]
    double meanWait = 0; // seconds
    double meanBoundedSlowdown = 0; // mean of max(1, (wait + run) / max(run, 10))
};

Metrics measure(const Simulation &simulation);

// "job_id,submit,start,end,nodes,state" then one row per job (submit order); nodes as a
// hostlist, quoted when it holds a comma; start/end empty when the job never ran.
std::string timelineCsv(const Simulation &simulation);

// The summary `minicluster simulate` prints.
std::string formatMetrics(const Metrics &metrics);

} // namespace mc::sim
