#pragma once
// A batch job as the controller keeps it: what the user asked for (JobSpec) and what became of
// it (Job). Plain data; the scheduler reads it, the controller changes it.

#include "mc/sched/job_state.h"
#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <algorithm>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mc::sched {

struct JobId {
    std::uint32_t value = 0;
    auto operator<=>(const JobId &) const = default;
};

// What sbatch sends: every field has Slurm's meaning; unset optionals take partition or
// cluster defaults when the job is accepted.
struct JobSpec {
    std::string name; // --job-name; default: script file name, "wrap", "sbatch"
    std::string user;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    std::string account;
    std::string partition; // empty: the default partition
    std::string qos = "normal";
    std::string workDir; // absolute, as the job sees it
    std::string script; // full text of the batch script
    std::string command; // script path as given ("(null)" for --wrap/stdin)
    std::vector<std::string> argv; // arguments after the script
    std::vector<std::string> env; // "NAME=value" exported into the job
    std::string stdOut; // -o pattern; empty: slurm-%j.out
    std::string stdErr; // -e pattern; empty: same as stdout
    std::string stdIn = "/dev/null";
    std::optional<Seconds> timeLimit; // --time
    int nodes = 1; // --nodes (minimum)
    int ntasks = 1; // --ntasks
    bool ntasksGiven = false; // -n was given (SLURM_NTASKS is set only then)
    int cpusPerTask = 1; // --cpus-per-task
    bool cpusPerTaskGiven = false; // -c was given (SLURM_CPUS_PER_TASK likewise)
    std::optional<MiB> memPerNode; // --mem
    std::optional<MiB> memPerCpu; // --mem-per-cpu
    std::string submitHost;
    // Issue #4 (nodes): output files, warning signal, requeue on node failure.
    bool openAppend = false; // --open-mode=append (default truncate)
    std::string signal; // --signal, normalized "[B:]<number>@<seconds>"; empty: none
    std::optional<bool> requeue; // --requeue / --no-requeue; unset: the cluster's JobRequeue
    bool hold = false; // --hold
    int nice = 0;
    // Scheduler requests (issue #3); defaults mean "not given".
    int ntasksPerNode = 0; // --ntasks-per-node; 0: not given
    int gpusPerNode = 0; // --gres=gpu:N or --gpus-per-node=N (per node)
    // GPUs (issue #15). Each request keeps the form it was given in: Slurm sets the SLURM_GPUS*
    // variable and shows the TresPer* field of the options used.
    std::string gpuType; // the type of any GPU request ("a100"); empty: any type
    bool gpusPerNodeGiven = false; // --gpus-per-node (rather than --gres): SLURM_GPUS_PER_NODE
    int gpusPerJob = 0; // --gpus=N over the whole job (SLURM_GPUS, TresPerJob)
    int gpusPerTask = 0; // --gpus-per-task (SLURM_GPUS_PER_TASK, TresPerTask)
    int cpusPerGpu = 0; // --cpus-per-gpu: CPUs per allocated GPU (SLURM_CPUS_PER_GPU)
    std::optional<MiB> memPerGpu; // --mem-per-gpu (SLURM_MEM_PER_GPU)
    bool exclusive = false; // --exclusive: whole nodes
    std::vector<std::string> nodeList; // --nodelist, expanded: every one must be allocated
    std::vector<std::string> excludeNodes; // --exclude, expanded
    std::string constraint; // --constraint: features joined by & (all) or | (any)
    std::optional<Seconds> timeMin; // --time-min: backfill may shorten the limit down to this
    std::optional<Seconds> begin; // --begin, as an epoch
    std::string dependency; // --dependency text, e.g. "afterok:12:13,singleton"
    std::string array; // --array text, e.g. "1-100%5"; empty: not an array
    bool interactive = false; // salloc/srun allocation: no batch script, no batch step
    // --comment, `scontrol update comment=`, or a site's note (the Inserm memory overrun);
    // unset: none (Slurm's "(null)"), set and empty: "".
    std::optional<std::string> comment;
    // --mail-type in Slurm's words and order ("BEGIN,END"); empty: none. minicluster sends no
    // mail (as a cluster without a mailer): the request is kept and shown, as Slurm shows it.
    std::string mailType;
    std::string mailUser; // --mail-user; empty: the submitting user
    // --test-only: the controller answers when and where the job would start, and keeps
    // nothing (never true in a stored job).
    bool testOnly = false;

    bool operator==(const JobSpec &) const = default;
};

struct ExitStatus {
    int code = 0; // exit code of the batch script
    int signal = 0; // signal that ended it, 0 if none

    bool operator==(const ExitStatus &) const = default;
};

struct Job {
    JobId id;
    JobSpec spec;
    JobState state = JobState::Pending;
    Reason reason = Reason::None;
    Seconds submitTime = 0;
    Seconds eligibleTime = 0;
    Seconds startTime = 0;
    Seconds endTime = 0;
    Seconds timeLimit = kInfinite; // resolved at acceptance
    MiB memPerNode = 0; // resolved request per node
    std::vector<std::string> nodeList; // allocated nodes, in order
    int allocCpus = 0; // CPUs allocated in total
    // CPUs on each node of nodeList when they differ (an uneven layout such as 4,2); empty:
    // allocCpus / nodes on each.
    std::vector<int> nodeCpus;
    int gpusPerNode = 0; // GPUs allocated on each node (every GPU of it when exclusive)
    std::vector<std::vector<int>> gpuIds; // the GPU indices held on each node of nodeList
    std::string gpuAllocType; // the Gres type of those GPUs (the first node's), "" untyped
    ExitStatus exit;
    std::string batchHost;
    std::optional<std::uint32_t> cancelledBy; // uid that ran scancel; the end is CANCELLED
    // Scheduler state (issue #3); defaults keep older records valid.
    bool heldByAdmin = false; // scontrol hold: only an operator releases it (JobHeldAdmin)
    std::int64_t priority = 0; // last computed priority (sprio, squeue %Q)
    std::uint32_t arrayJobId = 0; // %A; 0 when not part of an array
    std::optional<std::uint32_t> arrayTaskId; // %a of a started task; unset on the array record
    std::vector<std::uint32_t> arrayPending; // task ids not started yet (on the array record)
    int arrayMaxRunning = 0; // % throttle; 0: none
    int restarts = 0; // requeues so far
    std::optional<Seconds> plannedStart; // squeue --start; unset: N/A
    std::optional<Seconds> preemptEnd; // a preempted job in its GraceTime ends by then
    // scontrol suspend/resume (controller_suspend.cpp): the last suspension or resumption (0:
    // never suspended), and the seconds of the suspensions that are over. The time limit does
    // not run while suspended: a job's run time is what its clock showed less `suspendedSecs`.
    Seconds suspendTime = 0;
    Seconds suspendedSecs = 0;

    // CPUs the job holds on its `k`-th node.
    int cpusOnNode(std::size_t k) const
    {
        if (k < nodeCpus.size()) {
            return nodeCpus[k];
        }
        return allocCpus / std::max<int>(1, static_cast<int>(nodeList.size()));
    }
    bool isPending() const { return state == JobState::Pending; }
    // Holds its allocation on its nodes (a suspended job keeps its CPUs and memory here).
    bool isActive() const
    {
        return state == JobState::Running || state == JobState::Completing
            || state == JobState::Suspended;
    }
    // Seconds it has run by `now` (its end once ended), suspensions left out.
    Seconds runTime(Seconds now) const
    {
        if (startTime <= 0) {
            return 0;
        }
        const Seconds until = state == JobState::Suspended ? suspendTime
            : endTime > 0 && !isActive()                   ? endTime
                                                           : now;
        return std::max<Seconds>(0, until - startTime - suspendedSecs);
    }
    bool operator==(const Job &) const = default;
};

} // namespace mc::sched
