#pragma once
// The job state machine as pure functions: each takes a job (by value) and an event with its
// time, and returns the job after the event. The controller and the simulator apply them;
// neither changes states by hand. Transitions (Slurm's):
//   PENDING --start--> RUNNING --end--> COMPLETED | FAILED | TIMEOUT | CANCELLED | NODE_FAIL
//   PENDING --cancel--> CANCELLED          RUNNING --preempt(CANCEL)--> PREEMPTED
//   RUNNING --requeue / preempt(REQUEUE) / node failure of a requeueable job--> PENDING

#include "mc/sched/job.h"
#include "mc/sched/scheduler.h"

#include <optional>

namespace mc::sched {

// `job` (PENDING) starts as `start` says at `now`; for an array record pass the task's record
// (see splitArrayTask) instead.
Job startJob(Job job, const StartDecision &start, Seconds now);

// A running job ends in `state` (Completed, Failed, Timeout, Cancelled, NodeFail, Preempted,
// OutOfMemory) at `now` with `exit`; a pending one may only be Cancelled.
Job endJob(Job job, JobState state, ExitStatus exit, Seconds now);

// Back to PENDING (scontrol requeue, preemption with REQUEUE, node failure): nodes are given
// back, Restarts grows, and the job waits with reason BeginTime until `now` + `delay`. Slurm's
// batch_requeue_fini() sets that begin time past the launch credential's lifetime plus one
// second: ClusterConfig::requeueDelay (AuthInfo=cred_expire=, 120 s by default).
Job requeueJob(Job job, Seconds now, Seconds delay);

// scontrol hold (admin = true: JobHeldAdmin) or sbatch --hold / scontrol hold by the owner.
Job holdJob(Job job, bool admin);
// scontrol release. A user may not release an admin hold: nullopt then.
std::optional<Job> releaseJob(Job job, bool admin);

// The record of task `taskId` split from array record `record` under the new id `id`
// (the record keeps the other pending tasks); when `taskId` is the last one, the record itself
// becomes the task and keeps its id.
struct ArraySplit {
    Job record; // what is left of the array record (unchanged id)
    Job task; // the task's own record
    bool lastTask = false; // the record became the task: no separate record remains
};
ArraySplit splitArrayTask(Job record, std::uint32_t taskId, JobId id);

// True when a running job has reached its time limit at `now` (it ends as TIMEOUT).
bool isOverTime(const Job &job, Seconds now);

} // namespace mc::sched
