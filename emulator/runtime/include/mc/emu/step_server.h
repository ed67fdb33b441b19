#pragma once
// The node's side of srun (slurmd + slurmstepd in Slurm): a Unix socket at
// <run>/step-<node>.sock where srun asks for the tasks of one job step to run on this node.
// srun sends one JSON line with its stdio descriptors attached (SCM_RIGHTS): three shared by all
// tasks, or stdin plus stdout/stderr per task when it labels output. The tasks run in the node
// sandbox (hostname, binds, emulated uid): forked by the node's long-lived sandbox of that user
// (sandbox_host.h) when there is one, else a bwrap each. Each step has its cgroup inside its
// job's, <node>/job_<id>/step_<n>, so the job's memory, CPU and pids limits bound the batch
// script and all its steps together; the job's cgroup is the batch job's, or made here for an
// salloc/srun allocation (removed with its last step). In rlimit mode each step gets the job's
// limits and polling. One session per task; with `pty` the task makes the descriptor its
// controlling terminal. The server answers with one `task_exit` event per task and a final
// `step_done` with the step's usage on this node. A closed srun connection kills the step.
//
// Request: {"op":"step_launch", job_id, step_id, user, uid, gid, argv, env, cwd, tasks (global
// task ids on this node), node_id, ntasks, pty, fds_per_task, mem_mb, cpus, task_env (optional:
// for each of `tasks`, "NAME=value" strings over env, such as its own CUDA_VISIBLE_DEVICES)}
// Events:  {"event":"started"} | {"event":"task_exit", task, exit_code, exit_signal[, oom]}
//          | {"event":"step_done", usage:{total_cpu_ms, max_rss_kb, ave_rss_kb}[, oom]}
//            (record::TaskExit and record::StepDone, mc/record/step_end.h)
//          | {"event":"usage", usage} (record::Usage, about once a second)
//          | {"event":"aborted", text, kill_wait} (scancel of the step: slurmstepd's notice)
//          | {"event":"error", error}
// srun -> server after start: {"op":"signal", signal}.

#include "mc/emu/cluster_layout.h"
#include "mc/emu/job_limiter.h"
#include "mc/emu/sandbox.h"
#include "mc/emu/sandbox_host.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <sys/resource.h>
#include <vector>

namespace mc::emu {

// The step socket of `node` under a run directory (as the caller sees it).
std::string stepSocketPath(const std::string &runDir, const std::string &node);

struct StepServerSettings {
    std::string node;
    ClusterLayout layout;
    std::string binDir;
    SandboxMode mode = SandboxMode::Plain;
    bool nodePidNamespace = false; // sandbox.h
    LimitMode limits = LimitMode::Rlimit;
    std::string nodeGroup; // the node's cgroup subtree (NodeDaemon::nodeGroup)
    // The node's long-lived sandbox of a user (null: a bwrap per task), and the word that a
    // step using it ended (the daemon may then stop an idle sandbox).
    std::function<SandboxHost *(const SandboxSpec &)> sandboxFor;
    std::function<void(SandboxHost *)> sandboxReleased;
    // True while the batch script of the job runs on this node (its job cgroup exists).
    std::function<bool(std::uint32_t jobId)> hasBatchJob;
    // The first of the node's CPU indices of `jobId` (cpu_slots.h), taken for an allocation
    // when it holds none; and the word that its allocation's steps are gone from the node.
    std::function<int(std::uint32_t jobId, int count)> cpusFor;
    std::function<void(std::uint32_t jobId)> cpusReleased;
    // A step of `jobId` went over its memory (`rssKb` when polled, else 0); true when the
    // node's policy takes it from there (MemoryOverrun=reboot-node restarts the node).
    std::function<bool(std::uint32_t jobId, std::int64_t rssKb)> memoryOverrun;
};

class StepServer {
public:
    StepServer(proto::EventLoop &loop, StepServerSettings settings);
    ~StepServer();

    bool listen(std::string &error);
    // A child of the daemon (or of a sandbox) ended; true when it was one of the step tasks.
    bool childExited(pid_t pid, int status, const rusage &usage);
    // Some step still runs tasks forked by `sandbox`.
    bool usesSandbox(const SandboxHost *sandbox) const;
    // The job ended or was cancelled on this node: its steps get `signal`; with SIGKILL (the
    // end of the job) the $SLURM_TMPDIR made for an allocation goes too.
    void signalJob(std::uint32_t jobId, int signal);
    // scancel JOB.STEP: that step's tasks on this node get `signal`. A cancel (SIGKILL) first
    // tells its srun, which prints slurmstepd's notice (`*** STEP J.S ON node CANCELLED AT
    // when ***`) and its "Job step aborted" line with `killWaitS`, as Slurm's srun does.
    void signalOneStep(std::uint32_t jobId, int stepId, int signal, bool cancel, std::int64_t when,
        std::int64_t killWaitS);
    void killAll();

private:
    struct Task {
        int globalId = 0;
        pid_t pid = 0;
        bool done = false;
        bool viaBwrap = false; // a bwrap of its own is the task's first process
    };
    struct Step {
        std::uint32_t jobId = 0;
        int stepId = 0;
        std::unique_ptr<proto::Connection> conn;
        std::unique_ptr<JobLimiter> limiter;
        std::vector<Task> tasks;
        UsageTracker usage;
        std::int64_t finalCpuMs = 0;
        std::int64_t maxRusageKb = 0;
        bool finished = false;
        bool signalled = false; // the step was signalled (srun, scancel, job end)
        bool overMemory = false; // polled over its limit and killed (rlimit mode)
        bool oomSaid = false; // its OOM notice went to srun
        bool nodeTookIt = false; // MemoryOverrun=reboot-node restarts the node instead
        bool inJobGroup = false; // holds a reference on m_jobGroups[jobId]
        SandboxHost *sandbox = nullptr; // the node's sandbox that forked its tasks
    };
    // The job cgroup of an allocation without a batch script on this node.
    struct JobGroup {
        std::unique_ptr<JobLimiter> limiter;
        int steps = 0;
    };

    void accept();
    void receiveRequest(int fd);
    void launch(int fd, const proto::Json &request, std::vector<int> &fds);
    void onStepMessage(Step &step, const proto::Json &message);
    void finishStep(Step &step);
    // After a task's end: the step's OOM kills (cgroup) or polled overrun, told to srun once
    // with slurmstepd's notice. True when the step went over its memory.
    bool noteOutOfMemory(Step &step, std::int64_t rssKb);
    void signalStep(Step &step, int signal);
    void sample();
    void removeLater(std::unique_ptr<JobLimiter> limiter);
    // The step's limiter: rlimit mode, or its cgroup inside the job's (made if needed).
    std::unique_ptr<JobLimiter> stepLimiter(
        Step &step, const proto::Json &request, std::string &error);
    void releaseJobGroup(std::uint32_t jobId);

    proto::EventLoop &m_loop;
    StepServerSettings m_settings;
    int m_listenFd = -1;
    std::string m_path;
    std::uint64_t m_nextKey = 1;
    std::map<std::uint64_t, std::unique_ptr<Step>> m_steps;
    std::vector<std::unique_ptr<JobLimiter>> m_retired;
    // $SLURM_TMPDIR of salloc/srun allocations, made by their first step on this node.
    std::map<std::uint32_t, std::string> m_allocationTmp;
    std::map<std::uint32_t, JobGroup> m_jobGroups;
    bool m_sampling = false;
};

} // namespace mc::emu
