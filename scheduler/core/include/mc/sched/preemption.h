#pragma once
// Preemption by partition priority (PreemptType=preempt/partition_prio): a job that cannot
// start may end running jobs of partitions with a lower PriorityTier whose PreemptMode is
// CANCEL or REQUEUE. Victims are chosen lowest tier, then lowest priority, then most recently
// started first, until the job fits; each gets its partition's GraceTime. Pure.

#include "mc/sched/schedule_pass.h"

#include <vector>

namespace mc::sched {

// The preemptions that let `entry` start by now + the victims' grace time, or none when
// preemption is off or cannot make room. The pass planner is not changed.
std::vector<PreemptDecision> choosePreemptions(const SchedulePass &pass, const QueueEntry &entry);

// The PreemptMode that applies to jobs of `partition`.
PreemptMode preemptModeOf(const ClusterConfig &config, const PartitionConfig &partition);

} // namespace mc::sched
