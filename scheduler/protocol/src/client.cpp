#include "mc/proto/client.h"

#include "mc/proto/socket.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
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
{
    other.m_fd = -1;
}

Client &Client::operator=(Client &&other) noexcept
{
    if (this != &other) {
        close();
        m_fd = other.m_fd;
        m_buffer = std::move(other.m_buffer);
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

bool Client::send(const Json &message)
{
    if (m_fd < 0) {
        return false;
    }
    std::string line = message.dump();
    line += '\n';
    std::size_t done = 0;
    while (done < line.size()) {
        // MSG_NOSIGNAL: a controller that went away is an error, not a SIGPIPE.
        ssize_t n = ::send(m_fd, line.data() + done, line.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) {
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

std::optional<std::string> Client::receiveLine()
{
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
        char chunk[65536];
        ssize_t n = ::read(m_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
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
    if (!send(request)) {
        error = "cannot send to the controller";
        return std::nullopt;
    }
    auto reply = receive();
    if (!reply) {
        error = "the controller closed the connection";
    }
    return reply;
}

std::optional<std::string> Client::callText(const Json &request, std::string &error)
{
    if (!send(request)) {
        error = "cannot send to the controller";
        return std::nullopt;
    }
    auto reply = receiveLine();
    if (!reply) {
        error = "the controller closed the connection";
    }
    return reply;
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
