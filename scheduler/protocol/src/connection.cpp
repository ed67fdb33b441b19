#include "mc/proto/connection.h"

#include "mc/proto/socket.h"

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace mc::proto {

Connection::Connection(EventLoop &loop, int fd)
    : m_loop(loop)
    , m_fd(fd)
{
    makeNonBlocking(m_fd);
    m_loop.watch(m_fd, POLLIN, [this](short revents) { onEvents(revents); });
}

Connection::~Connection()
{
    if (!m_closed) {
        m_loop.unwatch(m_fd);
    }
    ::close(m_fd);
}

void Connection::send(const Json &message)
{
    if (m_closed) {
        return;
    }
    message.dumpTo(m_out);
    m_out += '\n';
    flush();
}

void Connection::sendRaw(std::string line)
{
    if (m_closed) {
        return;
    }
    m_out += line;
    m_out += '\n';
    flush();
}

void Connection::flush()
{
    while (!m_out.empty()) {
        ssize_t n = ::write(m_fd, m_out.data(), m_out.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                m_loop.setEvents(m_fd, POLLIN | POLLOUT);
                return;
            }
            close();
            return;
        }
        m_out.erase(0, static_cast<std::size_t>(n));
    }
    m_loop.setEvents(m_fd, POLLIN);
}

void Connection::close()
{
    if (m_closed) {
        return;
    }
    m_closed = true;
    m_loop.unwatch(m_fd);
    ::shutdown(m_fd, SHUT_RDWR); // the fd itself is closed by the destructor, so its number
                                 // is not reused while the owner still knows it
    if (onClosed) {
        auto cb = onClosed;
        m_loop.post(cb);
    }
}

void Connection::onEvents(short revents)
{
    if (revents & POLLOUT) {
        flush();
        if (m_closed) {
            return;
        }
    }
    if (revents & (POLLIN | POLLHUP | POLLERR)) {
        char chunk[65536];
        while (true) {
            ssize_t n = ::read(m_fd, chunk, sizeof chunk);
            if (n > 0) {
                m_in.append(std::string_view(chunk, static_cast<std::size_t>(n)));
                if (m_in.incompleteBytes() > kMaxMessageBytes) {
                    if (onOverlong) {
                        onOverlong();
                    }
                    close();
                    return;
                }
                continue;
            }
            if (n < 0 && errno == EINTR) {
                continue;
            }
            bool eof = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
            while (auto line = m_in.nextLine()) {
                if (line->empty()) {
                    continue;
                }
                auto message = Json::parse(*line);
                if (!message) {
                    close();
                    return;
                }
                if (onMessage) {
                    onMessage(*message);
                }
                if (m_closed) {
                    return;
                }
            }
            if (eof) {
                close();
            }
            return;
        }
    }
}

} // namespace mc::proto
