#pragma once
// Which jobs sacct lists: the selection options (-j, -u, -A, --name, -r, -N) and Slurm's time
// window (-S, -E, -s). Shared by the table and the --json output.

#include "../shared/job_view.h"
#include "sacct_settings.h"

#include <cstdint>

namespace mc::cmd::sacct {

// Slurm's job selection window: with states, the job was in one of them during [start, end];
// without, it was eligible before `end` and had not ended before `start`.
bool inWindow(
    const Settings &s, const record::JobObject &job, std::int64_t start, std::int64_t end);

// "-j 12" selects job 12 and, when 12 is an array, its tasks; "-j 12_3" one task.
bool selects(const JobSelector &selector, const record::JobObject &job);

// The job passes -j, -A, --name, -r, -N and, with `byUser`, -u (Slurm 22.05's --json lists
// every user's jobs).
bool selected(const Settings &s, const record::JobObject &job, bool byUser = true);

} // namespace mc::cmd::sacct
