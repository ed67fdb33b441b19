#pragma once
// Slurm's job states and pending/finish reasons, verbatim: the one table that commands, the GUI
// and tests read (squeue %t/%T, sacct State, scontrol JobState=, Reason=).

#include <optional>
#include <string_view>

namespace mc::sched {

enum class JobState {
    Pending,
    Running,
    Suspended,
    Completing,
    Completed,
    Cancelled,
    Failed,
    Timeout,
    NodeFail,
    Preempted,
    BootFail,
    Deadline,
    OutOfMemory,
};

// "PD", "R", "S", "CG", "CD", "CA", "F", "TO", "NF", "PR", "BF", "DL", "OOM" (squeue %t).
std::string_view shortName(JobState state);
// "PENDING", "RUNNING", ... "OUT_OF_MEMORY" (squeue %T, sacct State, scontrol JobState=).
std::string_view longName(JobState state);
// Accepts the short or long name in any case, as `squeue -t` does; nullopt when unknown.
std::optional<JobState> parseJobState(std::string_view text);
// True once the job can no longer run again without a requeue (CD, CA, F, TO, NF, ...).
// CG is not finished yet: it still holds its nodes.
bool isFinished(JobState state);

// Why a job waits (pending) or how it ended. Names are Slurm's `job_reason` strings.
enum class Reason {
    None,
    Priority,
    Resources,
    Dependency,
    DependencyNeverSatisfied,
    BeginTime,
    JobHeldUser,
    JobHeldAdmin,
    PartitionTimeLimit,
    PartitionNodeLimit,
    PartitionDown,
    PartitionInactive,
    JobArrayTaskLimit,
    ReqNodeNotAvail,
    NodeDown,
    BadConstraints,
    InvalidAccount,
    QOSMaxJobsPerUserLimit,
    TimeLimit,
    NonZeroExitCode,
    OutOfMemory,
    Prolog,
    JobLaunchFailure,
    InactiveLimit, // an allocation whose salloc/srun stopped responding (InactiveLimit=)
};

// "None", "Priority", "Resources", ... exactly as squeue %r prints them.
std::string_view reasonName(Reason reason);
std::optional<Reason> parseReason(std::string_view text);

// A job pending under a hold (user or admin) has never been eligible as far as Slurm shows it:
// scontrol and the app print EligibleTime=Unknown for it. Names as the protocol carries them.
inline bool heldPending(std::string_view state, std::string_view reason)
{
    return state == "PENDING" && (reason == "JobHeldUser" || reason == "JobHeldAdmin");
}

} // namespace mc::sched
