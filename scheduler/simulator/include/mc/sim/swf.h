#pragma once
// The Standard Workload Format (Feitelson's Parallel Workloads Archive): one job per line, 18
// whitespace-separated (blanks or tabs) integer fields, ';' comment lines. minicluster reads the
// fields a replay needs. The one SWF reader: the simulator and the app's background load
// (gui/models) both read traces with it.

#include "mc/sched/time_format.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::sim {

struct SwfJob {
    std::uint32_t id = 0; // field 1
    sched::Seconds submit = 0; // field 2, seconds from the start of the log
    sched::Seconds runTime = 0; // field 4; -1 when unknown
    int allocatedProcs = 0; // field 5
    int requestedProcs = 0; // field 8; -1: use field 5
    sched::Seconds requestedTime = -1; // field 9; -1: none
    std::int64_t requestedMemoryKb = -1; // field 10, KB per processor; -1: none
    int status = 1; // field 11: 1 completed, 0 failed, 5 cancelled
    int user = -1; // field 12
    int queue = -1; // field 15
    int partition = -1; // field 16
    std::int64_t precedingJob = -1; // field 17
    sched::Seconds thinkTime = -1; // field 18

    int procs() const { return requestedProcs > 0 ? requestedProcs : allocatedProcs; }
};

struct SwfTrace {
    std::vector<SwfJob> jobs;
    std::vector<std::string> problems; // "line 12: expected 18 integer fields"
};

SwfTrace parseSwf(std::string_view text);

} // namespace mc::sim
