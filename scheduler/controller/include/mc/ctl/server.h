#pragma once
// The controller's socket side: accepts connections on run/ctld.sock, routes requests to the
// Controller, keeps node daemons' and subscribers' connections open, and runs the scheduler
// when something changed. Owns the event loop of minicluster-ctld.

#include "mc/ctl/controller.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mc::ctl {

class Server : public NodeGateway {
public:
    Server(proto::EventLoop &loop, Controller &controller);
    ~Server() override;

    bool listen(const std::string &socketPath, std::string &error);
    bool send(const std::string &node, const proto::Json &order) override;
    // The cluster clock: wall clock * speed + offset (the `clock` request changes it).
    sched::Seconds now() const { return m_clock.now(); }

private:
    void accept();
    void onMessage(int fd, const proto::Json &message);
    void onClosed(int fd);
    void publish(const proto::Json &event);
    void scheduleSoon();

    proto::EventLoop &m_loop;
    Controller &m_controller;
    int m_listenFd = -1;
    std::string m_socketPath;
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
