#pragma once
// The node's side of srun (slurmd + slurmstepd in Slurm): a Unix socket at
// <run>/step-<node>.sock where srun asks for the tasks of one job step to run on this node.
// srun sends one JSON line with its stdio descriptors attached (SCM_RIGHTS): three shared by all
// tasks, or stdin plus stdout/stderr per task when it labels output. The tasks run in the node
// sandbox (hostname, binds, emulated uid) inside a cgroup of their own with the job's limits
// (or rlimits and polling), one session each; with `pty` the task makes the descriptor its
// controlling terminal. The server answers with one `task_exit` event per task and a final
// `step_done` with the step's usage on this node. A closed srun connection kills the step.
//
// Request: {"op":"step_launch", job_id, step_id, user, uid, gid, argv, env, cwd, tasks (global
// task ids on this node), node_id, ntasks, pty, fds_per_task, mem_mb, cpus}
// Events:  {"event":"started"} | {"event":"task_exit", task, exit_code, exit_signal}
//          | {"event":"step_done", usage:{total_cpu_ms, max_rss_kb, ave_rss_kb}}
//          | {"event":"error", error}
// srun -> server after start: {"op":"signal", signal}.

#include "mc/emu/cluster_layout.h"
#include "mc/emu/job_limiter.h"
#include "mc/emu/sandbox.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"

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
    LimitMode limits = LimitMode::Rlimit;
    std::string nodeGroup; // the node's cgroup subtree (NodeDaemon::nodeGroup)
};

class StepServer {
public:
    StepServer(proto::EventLoop &loop, StepServerSettings settings);
    ~StepServer();

    bool listen(std::string &error);
    // A child of the daemon ended; true when it was one of the step tasks.
    bool childExited(pid_t pid, int status, const rusage &usage);
    // The job ended or was cancelled on this node: its steps get `signal`; with SIGKILL (the
    // end of the job) the $SLURM_TMPDIR made for an allocation goes too.
    void signalJob(std::uint32_t jobId, int signal);
    void killAll();

private:
    struct Task {
        int globalId = 0;
        pid_t pid = 0;
        bool done = false;
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
    };

    void accept();
    void receiveRequest(int fd);
    void launch(int fd, const proto::Json &request, std::vector<int> &fds);
    void onStepMessage(Step &step, const proto::Json &message);
    void finishStep(Step &step);
    void signalStep(Step &step, int signal);
    void sample();
    void removeLater(std::unique_ptr<JobLimiter> limiter);

    proto::EventLoop &m_loop;
    StepServerSettings m_settings;
    int m_listenFd = -1;
    std::string m_path;
    std::uint64_t m_nextKey = 1;
    std::map<std::uint64_t, std::unique_ptr<Step>> m_steps;
    std::vector<std::unique_ptr<JobLimiter>> m_retired;
    // $SLURM_TMPDIR of salloc/srun allocations, made by their first step on this node.
    std::map<std::uint32_t, std::string> m_allocationTmp;
    bool m_sampling = false;
};

} // namespace mc::emu
