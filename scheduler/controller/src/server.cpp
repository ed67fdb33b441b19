#include "mc/ctl/server.h"

#include "mc/base/file.h"
#include "mc/proto/identity.h"
#include "mc/proto/socket.h"
#include "mc/record/step_end.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace mc::ctl {

using proto::Json;

sched::Seconds wallClock()
{
    using namespace std::chrono;
    return duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
}

Server::Server(proto::EventLoop &loop, Controller &controller)
    : m_loop(loop)
    , m_controller(controller)
{
    m_controller.publish = [this](const Json &event) {
        publish(event);
    };
    m_controller.setClock(&m_clock);
}

Server::~Server()
{
    m_controller.publish = nullptr;
    m_controller.setClock(nullptr);
    m_connections.clear();
    if (m_listenFd >= 0) {
        m_loop.unwatch(m_listenFd);
        ::close(m_listenFd);
        ::unlink(m_socketPath.c_str());
    }
    if (m_nodeListenFd >= 0) {
        m_loop.unwatch(m_nodeListenFd);
        ::close(m_nodeListenFd);
        ::unlink(m_nodeSocketPath.c_str());
    }
}

bool Server::listen(const std::string &socketPath, std::string &error)
{
    // Every local uid may connect (a job of an isolated user is a uid of its own); who it is
    // comes from the kernel (identify()).
    m_listenFd = proto::listenUnix(socketPath, error, 0666);
    if (m_listenFd < 0) {
        return false;
    }
    m_socketPath = socketPath;
    m_loop.watch(m_listenFd, POLLIN, [this](short) { accept(m_listenFd, false); });
    return true;
}

bool Server::listenNodes(const std::string &socketPath, std::string &error)
{
    m_nodeListenFd = proto::listenUnix(socketPath, error);
    if (m_nodeListenFd < 0) {
        return false;
    }
    m_nodeSocketPath = socketPath;
    m_loop.watch(m_nodeListenFd, POLLIN, [this](short) { accept(m_nodeListenFd, true); });
    return true;
}

std::optional<bool> Server::allocationResponds(sched::JobId job) const
{
    for (const auto &[fd, jobs] : m_allocations) {
        if (std::find(jobs.begin(), jobs.end(), job.value) == jobs.end()) {
            continue;
        }
        auto peer = m_peers.find(fd);
        if (peer == m_peers.end() || peer->second.pid <= 0) {
            return std::nullopt;
        }
        // /proc/PID/stat: "PID (COMM) S ..."; COMM may hold spaces and parentheses.
        const std::string stat
            = base::fileText("/proc/" + std::to_string(peer->second.pid) + "/stat");
        const auto close = stat.rfind(')');
        if (close == std::string::npos || close + 2 >= stat.size()) {
            return false; // gone: its connection's end releases the allocation
        }
        const char state = stat[close + 2];
        return state != 'T' && state != 't';
    }
    return std::nullopt;
}

Server::Peer Server::identify(int fd, bool nodeSocket) const
{
    Peer peer;
    ucred cred{};
    socklen_t size = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) == 0) {
        peer.pid = cred.pid;
    }
    auto uid = proto::peerUid(fd);
    if (uid && *uid == ::geteuid()) {
        peer.owner = true;
        peer.node = nodeSocket;
        return peer;
    }
    if (auto emulated = uid ? proto::emulatedUid(*uid) : std::nullopt) {
        for (const auto &u : m_controller.users().users) {
            if (u.uid == *emulated) {
                peer.user = u.name;
            }
        }
    }
    return peer;
}

std::optional<Json> Server::asPeer(const Peer &peer, const Json &message) const
{
    if (peer.owner) {
        return message;
    }
    const sched::SiteUser *user = m_controller.users().find(peer.user);
    if (!user) {
        return std::nullopt;
    }
    auto names = [&](const Json &value) {
        return value.isNull() || value.view() == user->name;
    };
    Json own = message;
    if (!names(message["user"])) {
        return std::nullopt;
    }
    own.set("user", user->name);
    if (Json *job = own.mutableMember("job"); job && job->isObject()) {
        const Json &uid = (*job)["uid"];
        const Json &gid = (*job)["gid"];
        if (!names((*job)["user"]) || (!uid.isNull() && uid.toInt(-1) != user->uid)
            || (!gid.isNull() && gid.toInt(-1) != user->gid)) {
            return std::nullopt;
        }
        job->set("user", user->name);
        job->set("uid", static_cast<std::int64_t>(user->uid));
        job->set("gid", static_cast<std::int64_t>(user->gid));
    }
    return own;
}

void Server::accept(int listenFd, bool nodeSocket)
{
    while (true) {
        int fd = ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            return;
        }
        m_peers[fd] = identify(fd, nodeSocket);
        auto conn = std::make_unique<proto::Connection>(m_loop, fd);
        conn->onMessage = [this, fd](const Json &message) {
            onMessage(fd, message);
        };
        conn->onClosed = [this, fd] {
            onClosed(fd);
        };
        conn->onOverlong = [this, fd] {
            // Slurm's answer to a request past its limits (a script over max_script_size).
            std::fprintf(stderr,
                "minicluster-ctld: a request longer than %zu bytes was refused unread\n",
                proto::kMaxMessageBytes);
            if (auto c = m_connections.find(fd); c != m_connections.end()) {
                Json reply = Json::object();
                reply.set("ok", false);
                reply.set("error", "Pathname of a file, directory or other parameter too long");
                reply.set("errno", 2012);
                c->second->send(reply);
            }
        };
        m_connections[fd] = std::move(conn);
    }
}

void Server::onMessage(int fd, const Json &received)
{
    auto it = m_connections.find(fd);
    if (it == m_connections.end()) {
        return;
    }
    proto::Connection &conn = *it->second;
    std::string op = received["op"].toString();
    sched::Seconds now = this->now();

    if (auto node = m_nodeOfFd.find(fd); node != m_nodeOfFd.end()) {
        // Reports that arrive together (jobs ending in the same instant) are scheduled in one
        // pass, as the simulator does: nodes freed by all of them are seen at once.
        m_controller.nodeReport(node->second, received, now, false);
        scheduleSoon();
        return;
    }
    const Peer &peer = m_peers[fd];
    // Only the owner registers nodes (on the node socket) or stops the cluster; a user speaks
    // for itself alone.
    const bool ownersOnly = op == "node_register" || op == "shutdown";
    std::optional<Json> own = asPeer(peer, received);
    if (!own || (ownersOnly && !(peer.owner && (op != "node_register" || peer.node)))) {
        Json reply = Json::object();
        reply.set("ok", false);
        reply.set("error", "Access/permission denied");
        reply.set("errno", 2002); // ESLURM_ACCESS_DENIED
        conn.send(reply);
        return;
    }
    const Json &message = *own;
    if (op == "node_register") {
        std::string name = message["node"].toString();
        if (!m_controller.config().node(name)) {
            Json reply = Json::object();
            reply.set("ok", false);
            reply.set("error", "Invalid node name specified");
            conn.send(reply);
            return;
        }
        if (auto old = m_nodeFds.find(name); old != m_nodeFds.end() && old->second != fd) {
            m_nodeOfFd.erase(old->second);
            if (auto c = m_connections.find(old->second); c != m_connections.end()) {
                c->second->close();
            }
        }
        m_nodeFds[name] = fd;
        m_nodeOfFd[fd] = name;
        Json reply = Json::object();
        reply.set("ok", true);
        conn.send(reply);
        m_controller.nodeRegistered(name, message, now);
        return;
    }
    if (op == "subscribe") {
        Json reply = m_controller.snapshot(now);
        conn.send(reply);
        m_subscribers.insert(fd);
        return;
    }
    if (op == "shutdown") {
        Json reply = Json::object();
        reply.set("ok", true);
        conn.send(reply);
        Json order = Json::object();
        order.set("op", "shutdown");
        for (const auto &[name, nodeFd] : m_nodeFds) {
            if (auto c = m_connections.find(nodeFd); c != m_connections.end()) {
                c->second->send(order);
            }
        }
        m_loop.post([this] { m_loop.quit(); });
        return;
    }
    // Every other request by the controller's request table: the same row says whether a
    // scheduling pass follows at once.
    const Controller::Request *entry = Controller::findRequest(op);
    Json reply = m_controller.handleRequest(message, now);
    if ((!entry || entry->stampsNow) && !reply.contains("now")) {
        reply.set("now", now); // every reply carries the cluster clock
    }
    conn.send(reply);
    if (op == "submit" && message["job"]["interactive"].toBool() && reply["ok"].toBool()) {
        // An allocation lives as long as its salloc/srun: released if that one goes away.
        m_allocations[fd].push_back(reply["job_id"].toInt());
    }
    if (entry && entry->changes(message)) {
        scheduleSoon();
    }
}

void Server::scheduleSoon()
{
    // Requests that arrive together (a burst of sbatch) are scheduled in one pass, right after
    // the current round of the loop: a new job starts within milliseconds of its submission.
    if (m_schedulePending) {
        return;
    }
    m_schedulePending = true;
    m_loop.post([this] {
        m_schedulePending = false;
        m_controller.schedule(this->now());
    });
}

void Server::onClosed(int fd)
{
    if (auto node = m_nodeOfFd.find(fd); node != m_nodeOfFd.end()) {
        std::string name = node->second;
        m_nodeOfFd.erase(node);
        if (auto it = m_nodeFds.find(name); it != m_nodeFds.end() && it->second == fd) {
            m_nodeFds.erase(it);
            m_controller.nodeLost(name, this->now());
        }
    }
    if (auto owned = m_allocations.find(fd); owned != m_allocations.end()) {
        for (std::int64_t id : owned->second) {
            record::AllocRelease release;
            release.job = sched::JobId{static_cast<std::uint32_t>(id)};
            release.lost = true;
            m_controller.handleRequest(record::allocReleaseToJson(release), this->now());
        }
        m_allocations.erase(owned);
        scheduleSoon();
    }
    m_subscribers.erase(fd);
    m_peers.erase(fd);
    m_connections.erase(fd);
}

bool Server::send(const std::string &node, const Json &order)
{
    auto it = m_nodeFds.find(node);
    if (it == m_nodeFds.end()) {
        return false;
    }
    auto conn = m_connections.find(it->second);
    if (conn == m_connections.end() || !conn->second->isOpen()) {
        return false;
    }
    conn->second->send(order);
    return true;
}

void Server::publish(const Json &event)
{
    if (m_subscribers.empty()) {
        return;
    }
    std::string line = event.dump();
    for (int fd : m_subscribers) {
        if (auto it = m_connections.find(fd); it != m_connections.end()) {
            it->second->sendRaw(line);
        }
    }
}

} // namespace mc::ctl
