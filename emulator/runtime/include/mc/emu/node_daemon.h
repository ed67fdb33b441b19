#pragma once
// One emulated node (minicluster-noded): registers with the controller, runs the batch jobs it
// is sent inside the node sandbox, signals them on request, and reports how they ended. An end
// report is kept until the controller acknowledges it and is sent again after a reconnect.
// Limits are enforced here, where the processes are: each job gets its cgroup (or rlimits and
// polling, see job_limiter.h), its time limit (SIGTERM, SIGKILL after KillWait, TIMEOUT), its
// $SLURM_TMPDIR (created at start, removed at the end), and its usage sampled every 250 ms.

#include "mc/emu/cluster_layout.h"
#include "mc/emu/cpu_slots.h"
#include "mc/emu/job_limiter.h"
#include "mc/emu/sandbox.h"
#include "mc/emu/sandbox_host.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"
#include "mc/record/job_end.h"
#include "mc/record/launch_order.h"

#include <map>
#include <memory>
#include <string>
#include <sys/resource.h>
#include <sys/types.h>
#include <vector>

namespace mc::emu {

class StepServer;

struct NodeSettings {
    std::string name;
    ClusterLayout layout;
    std::string binDir; // host directory of minicluster's commands
    SandboxMode mode = SandboxMode::Plain;
    bool nodePidNamespace = false; // children are in the node's PID namespace (sandbox.h)
    int killWait = 30; // seconds between SIGTERM and SIGKILL (slurm.conf KillWait)
    LimitMode limits = LimitMode::Rlimit; // how job limits are enforced (probeLimits)
    std::string limitsDetail; // why (LimitProbe::detail), told to the controller
    int timeScale = 1; // a node restart (rebootSeconds) runs this many times faster
    // minicluster.conf MemoryOverrun=reboot-node (the Inserm platform): a job over its memory
    // restarts the whole node. Every job on it is killed, the controller is told
    // (`node_reboot`, then `node_rebooted` rebootSeconds later) and the culprit's end report
    // says `node_reboot`. Off: the job alone is killed and ends OUT_OF_MEMORY.
    bool rebootOnMemoryOverrun = false;
    int rebootSeconds = 5; // divided by timeScale
};

class NodeDaemon {
public:
    NodeDaemon(proto::EventLoop &loop, NodeSettings settings);
    ~NodeDaemon();

    void start();

private:
    struct RunningJob {
        pid_t pid = 0;
        std::string errPath; // host path of the job's stderr file
        bool cancelled = false;
        bool timedOut = false;
        bool overMemory = false; // killed by the polling path for its memory
        bool overPids = false; // killed by the polling path for its process count
        bool rebootCulprit = false; // its memory overrun restarted the node
        bool lostInReboot = false; // killed because the node restarted for another job
        std::unique_ptr<JobLimiter> limiter;
        UsageTracker usage;
        std::string tmpDir; // host path of $SLURM_TMPDIR
        std::string spoolDir; // host path of <spool>/jobNNNNN (script, pid)
        bool warningSent = false; // sbatch --signal went (its time, or a preemption)
        SandboxHost *sandbox = nullptr; // the node's sandbox that forked it (bubblewrap)
        bool viaBwrap = false; // a bwrap of its own is its first process (fallback)
    };

    void reapLeftovers();
    void connect();
    void retryLater();
    void onMessage(const proto::Json &message);
    void launch(const record::LaunchOrder &order);
    // The times of a controller's order: when it was given on the cluster clock (notices say
    // it) and how long SIGKILL follows SIGTERM, in wall milliseconds (KillWait at the
    // cluster clock's speed). The node has no clock of its own for jobs.
    struct OrderTimes {
        std::int64_t at = 0;
        std::int64_t killWaitMs = 0;
    };
    void signalJob(std::uint32_t jobId, int signal, bool cancel, const std::string &scope,
        const OrderTimes &times);
    void signalBatchShell(const RunningJob &job, int signal); // not its children
    void reapChildren();
    // A job's first process ended (reaped here or by its sandbox); false if not a job's.
    bool jobExited(pid_t pid, int status, const rusage &usage);
    // The node's long-lived sandbox for a user (sandbox_host.h), started on first use; null
    // when it cannot start (jobs then get a bwrap each).
    SandboxHost *sandboxFor(const SandboxSpec &spec);
    void stopWhenIdle(SandboxHost *sandbox);
    void stopAllJobs();
    // Sends an end report and keeps it (in memory and in <node>/ended/) until acknowledged.
    void sendReport(const record::JobEnd &report);
    std::string endedDir() const;
    void appendNotice(const RunningJob &job, const std::string &line);
    void terminate(std::uint32_t jobId, pid_t pid, std::int64_t killWaitMs); // then SIGKILL
    // scontrol suspend/resume: the job's processes here (its batch script and srun steps)
    // frozen in their cgroup, else stopped with SIGSTOP; thawed or SIGCONT to resume.
    void suspendJob(std::uint32_t jobId, bool resume);
    void timeLimitReached(std::uint32_t jobId, const OrderTimes &times);
    void sampleUsage();
    void startSampling();
    void failLaunch(std::uint32_t jobId, const std::string &error);
    // MemoryOverrun=reboot-node: job `culprit` went over its memory; the node "restarts".
    void rebootForMemoryOverrun(std::uint32_t culprit, std::int64_t rssKb);
    std::string nodeGroup() const;

    proto::EventLoop &m_loop;
    NodeSettings m_settings;
    std::unique_ptr<proto::Connection> m_conn;
    bool m_registered = false;
    std::map<std::uint32_t, RunningJob> m_running;
    std::map<std::uint32_t, record::JobEnd> m_unacked;
    bool m_sampling = false;
    bool m_rebooting = false; // down after a memory overrun (rebootForMemoryOverrun)
    std::vector<std::unique_ptr<JobLimiter>> m_retired; // cgroups still to remove
    // One sandbox per emulated user (uid, gid), stopped after a minute without jobs.
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::unique_ptr<SandboxHost>> m_sandboxes;
    std::vector<std::unique_ptr<SandboxHost>> m_deadSandboxes; // died with jobs still running
    std::unique_ptr<StepServer> m_steps; // srun's tasks on this node (step_server.h)
    CpuSlots m_cpus; // which of the node's CPUs each job runs on (batch jobs and allocations)
};

} // namespace mc::emu
