#include "mc/proto/client.h"

#include "mc/proto/socket.h"

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
    std::size_t scanned = 0; // no newline before this offset: a large reply is searched once
    while (true) {
        auto nl = m_buffer.find('\n', scanned);
        if (nl != std::string::npos) {
            auto message = Json::parse(std::string_view(m_buffer).substr(0, nl));
            m_buffer.erase(0, nl + 1);
            return message;
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
