#include "mc/proto/client.h"

#include "mc/proto/socket.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace mc::proto {

Client::~Client()
{
    close();
}

Client::Client(Client &&other) noexcept
    : m_fd(other.m_fd)
    , m_buffer(std::move(other.m_buffer))
    , m_timeoutMs(other.m_timeoutMs)
{
    other.m_fd = -1;
}

Client &Client::operator=(Client &&other) noexcept
{
    if (this != &other) {
        close();
        m_fd = other.m_fd;
        m_buffer = std::move(other.m_buffer);
        m_timeoutMs = other.m_timeoutMs;
        other.m_fd = -1;
    }
    return *this;
}

bool Client::connect(const std::string &socketPath, std::string &error)
{
    close();
    m_fd = connectUnix(socketPath, error);
    return m_fd >= 0;
}

void Client::close()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    m_buffer.clear();
}

namespace {

using Deadline = std::chrono::steady_clock::time_point;

Deadline deadlineIn(int timeoutMs)
{
    return timeoutMs > 0 ? std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs)
                         : Deadline::max();
}

// Waits until `fd` is ready for `events` or the deadline passes (false).
bool waitReady(int fd, short events, Deadline deadline)
{
    while (true) {
        int ms = -1;
        if (deadline != Deadline::max()) {
            auto left = std::chrono::ceil<std::chrono::milliseconds>(
                deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) {
                return false;
            }
            ms = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
        }
        pollfd p{fd, events, 0};
        int n = ::poll(&p, 1, ms);
        if (n > 0) {
            return true;
        }
        if (n < 0 && errno != EINTR) {
            return true; // let the read or write report it
        }
    }
}

} // namespace

bool Client::send(const Json &message)
{
    std::string line = message.dump();
    line += '\n';
    return sendLine(line, 0);
}

bool Client::sendLine(const std::string &line, int timeoutMs)
{
    if (m_fd < 0) {
        return false;
    }
    const Deadline deadline = deadlineIn(timeoutMs);
    std::size_t done = 0;
    while (done < line.size()) {
        if (!waitReady(m_fd, POLLOUT, deadline)) {
            m_timedOut = true;
            return false;
        }
        // MSG_NOSIGNAL: a controller that went away is an error, not a SIGPIPE.
        ssize_t n
            = ::send(m_fd, line.data() + done, line.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            continue;
        }
        if (n < 0) {
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

std::optional<Json> Client::receive()
{
    auto line = receiveLine();
    if (!line) {
        return std::nullopt;
    }
    return Json::parse(*line);
}

std::optional<std::string> Client::receiveLine(int timeoutMs)
{
    const Deadline deadline = deadlineIn(timeoutMs);
    std::size_t scanned = 0; // no newline before this offset: a large reply is searched once
    while (true) {
        auto nl = m_buffer.find('\n', scanned);
        if (nl != std::string::npos) {
            std::string line;
            if (nl + 1 == m_buffer.size()) { // the usual case: the buffer holds just the reply
                line.swap(m_buffer);
                line.pop_back();
            } else {
                line.assign(m_buffer, 0, nl);
                m_buffer.erase(0, nl + 1);
            }
            return line;
        }
        scanned = m_buffer.size();
        if (!waitReady(m_fd, POLLIN, deadline)) {
            m_timedOut = true;
            return std::nullopt;
        }
        char chunk[65536];
        ssize_t n = ::read(m_fd, chunk, sizeof chunk);
        if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) {
            continue;
        }
        if (n <= 0) {
            return std::nullopt;
        }
        const std::size_t needed = m_buffer.size() + static_cast<std::size_t>(n);
        if (needed > m_buffer.capacity() && needed >= sizeof chunk) {
            // A large reply: room reserved (not touched) in big steps, so that growth copies
            // the text rarely.
            m_buffer.reserve(std::max<std::size_t>(m_buffer.capacity() * 4, 1 << 20));
        }
        m_buffer.append(chunk, static_cast<std::size_t>(n));
    }
}

std::optional<Json> Client::call(const Json &request, std::string &error)
{
    auto line = callText(request, error);
    if (!line) {
        return std::nullopt;
    }
    auto reply = Json::parse(*line);
    if (!reply) {
        error = "the controller's reply is not JSON";
    }
    return reply;
}

std::optional<std::string> Client::callText(const Json &request, std::string &error)
{
    m_timedOut = false;
    std::string line = request.dump();
    line += '\n';
    // One deadline for the request and its reply, as Slurm's MessageTimeout.
    const auto start = std::chrono::steady_clock::now();
    if (!sendLine(line, m_timeoutMs)) {
        const bool sendTimedOut = m_timedOut;
        if (!sendTimedOut) {
            // A request refused before it was read whole: the controller's reply may wait.
            if (auto reply = receiveLine(100)) {
                m_timedOut = false;
                return reply;
            }
        }
        m_timedOut = sendTimedOut;
        error = m_timedOut ? kTimedOut : "cannot send to the controller";
        return std::nullopt;
    }
    int left = 0;
    if (m_timeoutMs > 0) {
        const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - start);
        left = std::max(1, m_timeoutMs - static_cast<int>(spent.count()));
    }
    auto reply = receiveLine(left);
    if (!reply) {
        error = m_timedOut ? kTimedOut : "the controller closed the connection";
    }
    return reply;
}

Json timedOutReply()
{
    Json reply = Json::object();
    reply.set("ok", false);
    reply.set("error", kTimedOut);
    reply.set("errno", 5004); // SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT
    return reply;
}

int messageTimeout(const std::string &path)
{
    std::string file = path;
    if (file.empty()) {
        const char *conf = std::getenv("SLURM_CONF");
        file = conf && *conf ? std::string(conf) : defaultClusterDir() + "/etc/slurm.conf";
    }
    std::ifstream in(file);
    int seconds = 10; // Slurm's default
    for (std::string line; std::getline(in, line);) {
        line = line.substr(0, line.find('#'));
        const std::string key = "messagetimeout=";
        std::string lower;
        for (char c : line) {
            if (!std::isspace(static_cast<unsigned char>(c))) {
                lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            }
        }
        if (lower.rfind(key, 0) == 0) {
            const int value = std::atoi(lower.c_str() + key.size());
            seconds = value > 0 ? value : seconds;
        }
    }
    return seconds;
}

std::string defaultClusterDir()
{
    if (const char *dir = std::getenv("MINICLUSTER_DIR"); dir && *dir) {
        return dir;
    }
    std::string base;
    if (const char *xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
        base = xdg;
    } else if (const char *home = std::getenv("HOME"); home && *home) {
        base = std::string(home) + "/.local/share";
    } else {
        base = "/tmp";
    }
    return base + "/minicluster/default";
}

std::string controllerSocketPath()
{
    if (const char *sock = std::getenv("MINICLUSTER_SOCKET"); sock && *sock) {
        return sock;
    }
    return defaultClusterDir() + "/run/ctld.sock";
}

} // namespace mc::proto
