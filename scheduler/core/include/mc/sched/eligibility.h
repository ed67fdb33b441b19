#pragma once
// Why a pending job may not be considered for resources at all, checked in Slurm's order:
// hold (JobHeldAdmin, JobHeldUser), dependency (Dependency, DependencyNeverSatisfied),
// --begin (BeginTime), partition state (PartitionDown, PartitionInactive), partition limits
// (PartitionTimeLimit, PartitionNodeLimit, InvalidAccount), requested nodes not available
// (ReqNodeNotAvail), array throttle (JobArrayTaskLimit). Pure.

#include "mc/sched/schedule_pass.h"

#include <optional>

namespace mc::sched {

// nullopt: the job may compete for resources. `runningTasks`: tasks of its array running now.
std::optional<WaitDecision> ineligible(const QueueEntry &entry, const SchedulerInput &input,
    const JobLookup &lookup, int runningTasks);

} // namespace mc::sched
