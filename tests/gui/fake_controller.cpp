#include "fake_controller.h"

#include "mc/proto/json.h"
#include "mc/proto/socket.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QTest>

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace mc::gui::test {

FakeController::FakeController(std::string socketPath)
    : m_path(std::move(socketPath))
{ }

FakeController::~FakeController()
{
    dropClient();
    stopListening();
}

bool FakeController::listen()
{
    std::string error;
    m_listenFd = mc::proto::listenUnix(m_path, error);
    if (m_listenFd < 0) {
        qWarning("listenUnix(%s): %s", m_path.c_str(), error.c_str());
        return false;
    }
    return true;
}

bool FakeController::accept(std::chrono::milliseconds timeout)
{
    dropClient();
    const QDeadlineTimer deadline(timeout);
    while (true) {
        // The listener is non-blocking; the accepted socket is blocking (not inherited).
        m_clientFd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        if (m_clientFd >= 0) {
            return true;
        }
        if (deadline.hasExpired()) {
            return false;
        }
        QTest::qWait(10);
    }
}

std::optional<std::string> FakeController::readLine(std::chrono::milliseconds timeout)
{
    const QDeadlineTimer deadline(timeout);
    while (true) {
        const auto newline = m_buffer.find('\n');
        if (newline != std::string::npos) {
            std::string line = m_buffer.substr(0, newline);
            m_buffer.erase(0, newline + 1);
            return line;
        }
        QCoreApplication::processEvents();
        pollfd pfd{m_clientFd, POLLIN, 0};
        const int ready = ::poll(&pfd, 1, 10);
        if (ready > 0) {
            char chunk[4096];
            const ssize_t n = ::read(m_clientFd, chunk, sizeof chunk);
            if (n <= 0) {
                return std::nullopt;
            }
            m_buffer.append(chunk, static_cast<std::size_t>(n));
        } else if (ready < 0 && errno != EINTR) {
            return std::nullopt;
        }
        if (deadline.hasExpired()) {
            return std::nullopt;
        }
    }
}

bool FakeController::sendRaw(const std::string &bytes)
{
    std::size_t done = 0;
    while (m_clientFd >= 0 && done < bytes.size()) {
        // MSG_NOSIGNAL: a client that already hung up must fail the test, not kill it.
        // MSG_DONTWAIT: when the socket is full, let the app (on this thread) read some.
        const ssize_t n = ::send(
            m_clientFd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
            continue;
        }
        if (n <= 0) {
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return m_clientFd >= 0;
}

bool FakeController::send(const mc::proto::Json &message)
{
    return sendRaw(message.dump() + '\n');
}

std::optional<mc::proto::Json> FakeController::answerRequest(const mc::proto::Json &reply)
{
    if (!accept()) {
        return std::nullopt;
    }
    const auto line = readLine();
    auto request = line ? mc::proto::Json::parse(*line) : std::nullopt;
    if (request) {
        send(reply);
    }
    dropClient();
    return request;
}

void FakeController::dropClient()
{
    if (m_clientFd >= 0) {
        ::close(m_clientFd);
        m_clientFd = -1;
    }
    m_buffer.clear();
}

void FakeController::stopListening()
{
    if (m_listenFd >= 0) {
        ::close(m_listenFd);
        m_listenFd = -1;
        ::unlink(m_path.c_str());
    }
}

} // namespace mc::gui::test
