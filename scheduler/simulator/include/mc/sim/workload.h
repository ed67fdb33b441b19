#pragma once
// Turns an SWF trace into submissions: submit time, run time, requested processors (tasks of
// one CPU), requested time (the --time limit; none: the partition default), user ("user<N>"),
// queue (the Nth partition of slurm.conf, 1-based; otherwise the default partition) and
// preceding job (afterany dependency). Jobs keep their SWF numbers as job ids.

#include "mc/sim/simulation.h"
#include "mc/sim/swf.h"

namespace mc::sim {

// Submits every job of `trace` to `simulation`; returns how many were skipped (no processors
// or no run time).
std::size_t submitTrace(Simulation &simulation, const SwfTrace &trace);

} // namespace mc::sim
