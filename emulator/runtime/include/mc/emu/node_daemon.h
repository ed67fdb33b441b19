#pragma once
// One emulated node (minicluster-noded): registers with the controller, runs the batch jobs it
// is sent inside the node sandbox, signals them on request, and reports how they ended. An end
// report is kept until the controller acknowledges it and is sent again after a reconnect.
// Limits are enforced here, where the processes are: each job gets its cgroup (or rlimits and
// polling, see job_limiter.h), its time limit (SIGTERM, SIGKILL after KillWait, TIMEOUT), its
// $SLURM_TMPDIR (created at start, removed at the end), and its usage sampled every 250 ms.

#include "mc/emu/cluster_layout.h"
#include "mc/emu/job_limiter.h"
#include "mc/emu/sandbox.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"

#include <map>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace mc::emu {

struct NodeSettings {
    std::string name;
    ClusterLayout layout;
    std::string binDir; // host directory of minicluster's commands
    SandboxMode mode = SandboxMode::Plain;
    int killWait = 30; // seconds between SIGTERM and SIGKILL (slurm.conf KillWait)
    LimitMode limits = LimitMode::Rlimit; // how job limits are enforced (probeLimits)
    std::string limitsDetail; // why (LimitProbe::detail), told to the controller
    int timeScale = 1; // time limits run this many times faster (demos and tests)
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
        std::unique_ptr<JobLimiter> limiter;
        UsageTracker usage;
        std::string tmpDir; // host path of $SLURM_TMPDIR
        std::string spoolDir; // host path of <spool>/jobNNNNN (script, pid)
        proto::EventLoop::TimerId timeLimitTimer = 0;
    };

    void reapLeftovers();
    void connect();
    void retryLater();
    void onMessage(const proto::Json &message);
    void launch(const proto::Json &job);
    void signalJob(std::uint32_t jobId, int signal, bool cancel);
    void reapChildren();
    void stopAllJobs();
    void sendReport(const proto::Json &report);
    void appendNotice(const RunningJob &job, const std::string &line);
    void terminate(std::uint32_t jobId, pid_t pid); // SIGTERM, SIGKILL after KillWait
    void timeLimitReached(std::uint32_t jobId, pid_t pid);
    void sampleUsage();
    void scheduleWarningSignal(
        std::uint32_t jobId, pid_t pid, const std::string &spec, std::int64_t limit);
    void startSampling();
    void failLaunch(std::uint32_t jobId, const std::string &error);
    std::string nodeGroup() const;

    proto::EventLoop &m_loop;
    NodeSettings m_settings;
    std::unique_ptr<proto::Connection> m_conn;
    bool m_registered = false;
    std::map<std::uint32_t, RunningJob> m_running;
    std::map<std::uint32_t, proto::Json> m_unacked;
    bool m_sampling = false;
    std::vector<std::unique_ptr<JobLimiter>> m_retired; // cgroups still to remove
};

} // namespace mc::emu
