#pragma once
// One emulated node (minicluster-noded): registers with the controller, runs the batch jobs it
// is sent inside the node sandbox, signals them on request, and reports how they ended. An end
// report is kept until the controller acknowledges it and is sent again after a reconnect.

#include "mc/emu/cluster_layout.h"
#include "mc/emu/sandbox.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"

#include <map>
#include <memory>
#include <string>
#include <sys/types.h>

namespace mc::emu {

struct NodeSettings {
    std::string name;
    ClusterLayout layout;
    std::string binDir; // host directory of minicluster's commands
    SandboxMode mode = SandboxMode::Plain;
    int killWait = 30; // seconds between SIGTERM and SIGKILL (slurm.conf KillWait)
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
    };

    void connect();
    void retryLater();
    void onMessage(const proto::Json &message);
    void launch(const proto::Json &job);
    void signalJob(std::uint32_t jobId, int signal, bool cancel);
    void reapChildren();
    void stopAllJobs();
    void sendReport(const proto::Json &report);

    proto::EventLoop &m_loop;
    NodeSettings m_settings;
    std::unique_ptr<proto::Connection> m_conn;
    bool m_registered = false;
    std::map<std::uint32_t, RunningJob> m_running;
    std::map<std::uint32_t, proto::Json> m_unacked;
};

} // namespace mc::emu
