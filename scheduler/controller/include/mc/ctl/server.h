#pragma once
// The controller's socket side: accepts connections on run/ctld.sock, routes requests to the
// Controller, keeps node daemons' and subscribers' connections open, and runs the scheduler
// when something changed. Owns the event loop of minicluster-ctld.
// Identity (issue #18, mc/proto/identity.h): a client's user comes from its connection
// (SO_PEERCRED). The cluster's owner may name any user; an isolated emulated user's uid is
// that user, and a request naming anyone else is refused with Slurm's "Access/permission
// denied"; any other uid is refused. Node daemons register only through the node socket
// (state/nodes.sock, the owner's only, outside every sandbox).

#include "mc/ctl/controller.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mc::ctl {

class Server : public NodeGateway {
public:
    Server(proto::EventLoop &loop, Controller &controller);
    ~Server() override;

    // The clients' socket (connectable by every local uid; identity from the kernel) and the
    // node daemons' one (mode 0600).
    bool listen(const std::string &socketPath, std::string &error);
    bool listenNodes(const std::string &socketPath, std::string &error);
    bool send(const std::string &node, const proto::Json &order) override;
    // The cluster clock: wall clock * speed + offset (the `clock` request changes it).
    sched::Seconds now() const { return m_clock.now(); }
    // Whether the salloc/srun that holds allocation `job` answers, for InactiveLimit: false
    // while its process is stopped (SIGSTOP, a backgrounded salloc stopped by SIGTTIN),
    // what makes a real salloc miss slurmctld's pings; nullopt when no connection holds it.
    std::optional<bool> allocationResponds(sched::JobId job) const;

private:
    // Who a connection is: the owner, an emulated user (by name), or nobody we know.
    struct Peer {
        bool owner = false;
        bool node = false; // accepted on the node socket
        std::string user; // an isolated emulated user's name
        int pid = 0; // the connecting process (SO_PEERCRED), in our pid namespace
    };
    void accept(int listenFd, bool nodeSocket);
    Peer identify(int fd, bool nodeSocket) const;
    // The request as this peer may send it ("user" and the job's user/uid/gid its own), or
    // nullopt when it names someone else.
    std::optional<proto::Json> asPeer(const Peer &peer, const proto::Json &message) const;
    void onMessage(int fd, const proto::Json &message);
    void onClosed(int fd);
    void publish(const proto::Json &event);
    void scheduleSoon();

    proto::EventLoop &m_loop;
    Controller &m_controller;
    int m_listenFd = -1;
    int m_nodeListenFd = -1;
    std::string m_socketPath;
    std::string m_nodeSocketPath;
    std::map<int, Peer> m_peers;
    std::map<int, std::unique_ptr<proto::Connection>> m_connections;
    std::map<std::string, int> m_nodeFds; // node name -> connection fd
    std::map<int, std::string> m_nodeOfFd;
    std::set<int> m_subscribers;
    std::map<int, std::vector<std::int64_t>> m_allocations; // salloc/srun jobs by connection
    bool m_schedulePending = false;
    ClusterClock m_clock;
};

// Wall-clock seconds since the epoch: the controller's `now`.
sched::Seconds wallClock();

} // namespace mc::ctl
