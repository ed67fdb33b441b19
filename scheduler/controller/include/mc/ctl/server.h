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

namespace mc::ctl {

class Server : public NodeGateway {
public:
    Server(proto::EventLoop &loop, Controller &controller);
    ~Server() override;

    bool listen(const std::string &socketPath, std::string &error);
    bool send(const std::string &node, const proto::Json &order) override;

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
    bool m_schedulePending = false;
};

// Wall-clock seconds since the epoch: the controller's `now`.
sched::Seconds wallClock();

} // namespace mc::ctl
