#pragma once
// seff's report (Slurm's contribs/seff, 22.05), computed from the controller's accounting
// record of a job and its steps: CPU and memory efficiency against what the job was given.

#include "mc/record/job_object.h"

#include <cstdint>
#include <string>

namespace mc::cmd::seff {

// `job` is one entry of an `acct` reply (with its `steps`); `now` the cluster clock, for
// running jobs. Returns the whole stdout text.
std::string report(const record::JobObject &job, const std::string &clusterName,
    const std::string &groupName, std::int64_t now);

// Seconds as seff's time2str: "HH:MM:SS", "D-HH:MM:SS" past a day.
std::string time2str(std::int64_t seconds);
// KiB as seff's kbytes2str: "203.60 MB", "0.00 MB".
std::string kbytes2str(double kbytes);

} // namespace mc::cmd::seff
