#pragma once
// A job step's end at each hop (docs/protocol.md): each node's step server tells srun how each
// task ended (TaskExit) and what the step used there (StepDone); srun tells the controller how
// the whole step ended (StepEnd, the `step_end` request), on its own or inside the release of
// the allocation it made for itself (AllocRelease, the `alloc_release` request, which salloc
// sends too).

#include "mc/proto/json.h"
#include "mc/record/usage.h"
#include "mc/sched/job.h"

#include <cstdint>
#include <optional>

namespace mc::record {

// `{"event": "task_exit", task, exit_code, exit_signal[, oom]}`, one per task.
struct TaskExit {
    int task = 0; // the task's global rank
    sched::ExitStatus exit = {};
    bool oom = false; // killed by the OOM killer (srun: "task 0: Out Of Memory")

    bool operator==(const TaskExit &) const = default;
};

proto::Json taskExitToJson(const TaskExit &exit);
TaskExit taskExitFromJson(const proto::Json &event);

// `{"event": "step_done", usage[, oom]}`: every task of the step on that node has ended.
struct StepDone {
    Usage usage = {}; // the step's on that node
    bool oom = false; // its memory went over the limit there (the step ends OUT_OF_MEMORY)

    bool operator==(const StepDone &) const = default;
};

proto::Json stepDoneToJson(const StepDone &done);
StepDone stepDoneFromJson(const proto::Json &event);

// `{"op": "step_end", job_id, step_id, exit_code, exit_signal, usage[, oom][, timeout]
// [, cancelled]}`: how the step ended, over all its nodes.
struct StepEnd {
    sched::JobId job = {};
    std::int64_t stepId = -1; // kInteractiveStep (as a uint32) for salloc's shell
    sched::ExitStatus exit = {}; // srun's worst task's; 0:125 out of memory
    Usage usage = {}; // summed over the nodes (MaxRSS: the largest)
    bool oom = false;
    bool timeout = false; // ended by its time limit: TIMEOUT
    bool cancelled = false; // ended by scancel: CANCELLED

    bool operator==(const StepEnd &) const = default;
};

proto::Json stepEndToJson(const StepEnd &end);
StepEnd stepEndFromJson(const proto::Json &request);

// `{"op": "alloc_release", job_id, exit_code, exit_signal[, lost][, step_end]}`: salloc or srun
// gives back the allocation it made.
struct AllocRelease {
    sched::JobId job = {};
    sched::ExitStatus exit = {}; // the command's: the job's ExitCode
    bool lost = false; // the command is gone (its connection closed): the job ends CANCELLED
    // srun's own allocation: its step's end, in the same round trip (its job_id is the
    // release's).
    std::optional<StepEnd> stepEnd = {};

    bool operator==(const AllocRelease &) const = default;
};

proto::Json allocReleaseToJson(const AllocRelease &release);
AllocRelease allocReleaseFromJson(const proto::Json &request);

} // namespace mc::record
