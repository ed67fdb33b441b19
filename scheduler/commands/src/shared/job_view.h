#pragma once
// What squeue's and sacct's fields read beside a job's decoded members (record::JobObject, from
// record::JobRowReader for a `form: "rows"` reply of thousands of jobs): the site's names, and
// the job's state as the core's vocabulary.

#include "mc/record/job_object.h"
#include "mc/sched/job_state.h"

#include <functional>
#include <optional>
#include <string>

namespace mc::cmd {

// What a few fields of squeue and sacct read beyond the job: the cluster's name and group
// names, which the controller's job records do not carry.
struct JobSite {
    std::string clusterName;
    std::function<std::string(const record::JobObject &)> groupName;
};

// The job's `state` (its long name; the short one or any case as sched::parseJobState()
// reads them); nullopt when absent or unknown.
std::optional<sched::JobState> jobState(const record::JobObject &job);

} // namespace mc::cmd
