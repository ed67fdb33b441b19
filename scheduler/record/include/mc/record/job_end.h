#pragma once
// A batch job's end: the report `{"op": "job_ended", ...}` a node daemon sends when the job's
// script is gone, keeps on disk until the controller acknowledges it, and sends again from a
// restarted daemon (docs/protocol.md, "Node daemons"). The controller decides what the job
// became from it (COMPLETED, FAILED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, requeued ...), and
// ends a job lost with its node through the same struct, without a report.

#include "mc/proto/json.h"
#include "mc/record/usage.h"
#include "mc/sched/job.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mc::record {

struct JobEnd {
    sched::JobId job = {};
    sched::ExitStatus exit = {}; // of the batch script; 0:53 when its launch failed
    // The node's wall clock at the end, in seconds since the epoch with milliseconds; unset: the
    // controller dates the end itself (now, or the time limit of a job timing out).
    std::optional<double> endTime = {};
    bool timeout = false; // ended after the controller's `timeout` order
    bool oom = false; // the OOM killer fired in its cgroup, or the node killed it over its memory
    bool nodeReboot = false; // with oom: its overrun restarted the node (MemoryOverrun=reboot-node)
    std::optional<std::int64_t> memoryLimitKb = {}; // with nodeReboot: the limit it went over
    bool nodeFail = false; // lost with its node: requeued or NODE_FAIL
    bool launchFailed = false; // never started (output file, cgroup): FAILED, JobLaunchFailure
    std::string error = {}; // with launchFailed: why, for the node's log; "" = not said
    std::optional<Usage> usage = {}; // of the batch step; unset when nothing ran
    std::string limits
        = {}; // the mode that enforced them: cgroup-v2, cgroup-v1, rlimit; "" = unsaid

    bool operator==(const JobEnd &) const = default;
};

// The report, `op` included. Members at their default are not written (exit_code, exit_signal
// and job_id always are), in one order: job_id, exit_code, exit_signal, end_time, timeout, oom,
// node_reboot, memory_limit_kb, node_fail, launch_failed, error, usage, limits.
proto::Json jobEndToJson(const JobEnd &end);
// Unset when `json` has no numeric job_id (a report cut short by a crash).
std::optional<JobEnd> jobEndFromJson(const proto::Json &json);

} // namespace mc::record
