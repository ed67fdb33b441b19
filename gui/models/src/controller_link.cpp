#include "mc/gui/controller_link.h"

#include "mc/proto/socket.h"

#include <QElapsedTimer>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <sys/socket.h>
#include <unistd.h>
#include <utility>

namespace mc::gui {

namespace {

// At most this much is read per notification, so a flood of events cannot starve the GUI; the
// notifier fires again for the rest.
constexpr std::size_t kMaxReadPerWakeup = 1 << 20;
// Messages are handled for at most this long per event-loop iteration; the rest waits for the
// next one, so that a burst of events never freezes the window (a frame stays under ~16 ms).
constexpr qint64 kHandleBudgetMs = 8;

QList<mc::proto::Json> toList(const mc::proto::Json &array)
{
    const auto &items = array.items();
    return QList<mc::proto::Json>(items.begin(), items.end());
}

QList<mc::record::JobObject> decodedJobs(const mc::proto::Json &array)
{
    QList<mc::record::JobObject> jobs;
    jobs.reserve(static_cast<qsizetype>(array.items().size()));
    for (const mc::proto::Json &job : array.items()) {
        jobs.push_back(mc::record::jobObjectFromJson(job));
    }
    return jobs;
}

// Sends one message without blocking and without SIGPIPE when the peer has gone.
bool sendLine(int fd, const mc::proto::Json &message)
{
    std::string line = message.dump();
    line += '\n';
    std::size_t done = 0;
    while (done < line.size()) {
        const ssize_t n
            = ::send(fd, line.data() + done, line.size() - done, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

} // namespace

ControllerLink::ControllerLink(QString socketPath, QObject *parent)
    : QObject(parent)
    , m_socketPath(std::move(socketPath))
    , m_retryTimer(new QTimer(this))
    , m_status(tr("Not connected to the cluster"))
{
    m_drainTimer = new QTimer(this);
    m_drainTimer->setSingleShot(true);
    m_drainTimer->setInterval(0);
    connect(m_drainTimer, &QTimer::timeout, this, &ControllerLink::handleLines);
    m_retryTimer->setSingleShot(true);
    m_retryTimer->setInterval(kDefaultRetryInterval);
    connect(m_retryTimer, &QTimer::timeout, this, &ControllerLink::tryConnect);
}

ControllerLink::~ControllerLink()
{
    closeSocket();
}

std::chrono::milliseconds ControllerLink::retryInterval() const
{
    return m_retryTimer->intervalAsDuration();
}

void ControllerLink::setRetryInterval(std::chrono::milliseconds interval)
{
    m_retryTimer->setInterval(interval);
}

void ControllerLink::start()
{
    if (m_started) {
        return;
    }
    m_started = true;
    tryConnect();
}

void ControllerLink::stop()
{
    m_started = false;
    dropConnection(tr("Not connected to the cluster"), false);
}

void ControllerLink::tryConnect()
{
    if (!m_started || m_client.isConnected()) {
        return;
    }
    std::string error;
    if (!m_client.connect(m_socketPath.toStdString(), error)) {
        dropConnection(tr("Not connected: no cluster controller at %1 (%2); retrying…")
                           .arg(m_socketPath, QString::fromStdString(error)),
            true);
        return;
    }
    const int fd = m_client.fd();
    mc::proto::makeNonBlocking(fd);
    if (!sendLine(fd, mc::proto::Json::object().set("op", "subscribe"))) {
        dropConnection(tr("Not connected: the cluster controller at %1 closed the connection; "
                          "retrying…")
                           .arg(m_socketPath),
            true);
        return;
    }
    m_awaitingReply = true;
    m_notifier = new QSocketNotifier(fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &ControllerLink::onReadable);
    setStatus(tr("Connecting to the cluster…"));
}

void ControllerLink::onReadable()
{
    const int fd = m_client.fd();
    bool ended = false;
    std::size_t total = 0;
    char chunk[65536];
    while (total < kMaxReadPerWakeup) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n > 0) {
            m_lines.append(std::string_view(chunk, static_cast<std::size_t>(n)));
            total += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        // EAGAIN: all read for now; 0: end of stream; anything else: the connection broke.
        ended = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
        break;
    }

    if (ended) {
        m_peerClosed = true;
        m_notifier->setEnabled(false); // nothing more will come; handle what is buffered
    }
    // While the drain timer is set, the lines read before are still being handled: it handles
    // these too, in turn. Handling them here as well would give one event-loop pass two
    // budgets of work, and the window one frame twice as long.
    if (!m_drainTimer->isActive()) {
        handleLines();
    }
}

void ControllerLink::handleLines()
{
    const quint64 session = m_session;
    QElapsedTimer clock;
    clock.start();
    while (auto line = m_lines.nextLine()) {
        if (line->empty()) {
            continue;
        }
        const auto message = mc::proto::Json::parse(*line);
        if (!message || !message->isObject()) {
            dropConnection(
                tr("The cluster controller sent a malformed message; reconnecting…"), true);
            return;
        }
        if (!handleMessage(*message) || session != m_session) {
            return;
        }
        if (clock.elapsed() >= kHandleBudgetMs) {
            m_drainTimer->start(); // the rest in the next iteration
            return;
        }
    }

    if (m_peerClosed) {
        dropConnection(tr("Lost the connection to the cluster controller; reconnecting…"), true);
    }
}

bool ControllerLink::handleMessage(const mc::proto::Json &message)
{
    const quint64 session = m_session;
    if (m_awaitingReply) {
        // The first message after `subscribe` is its reply; events only follow a success.
        if (!message["ok"].toBool()) {
            dropConnection(tr("The cluster controller refused the subscription: %1")
                               .arg(QString::fromStdString(message["error"].toString())),
                true);
            return false;
        }
        m_awaitingReply = false;
        setStatus(tr("Connected to the cluster"));
        setConnected(true);
        if (session != m_session) {
            return false;
        }
        Q_EMIT snapshotReceived(
            decodedJobs(message["jobs"]), toList(message["nodes"]), message["now"].toInt());
        if (session != m_session) {
            return false;
        }
        // The snapshot has the clock's time, not its rate: ask for both (answered in order,
        // among the events). A controller without `clock` answers a failure, which is skipped.
        sendLine(m_client.fd(), mc::proto::Json::object().set("op", "clock"));
        return true;
    }

    const std::string event = message["event"].toString();
    if (event == "job") {
        Q_EMIT jobChanged(mc::record::jobObjectFromJson(message["job"]));
    } else if (event == "node") {
        Q_EMIT nodeChanged(message["node"]);
    } else if (event == "plan") {
        Q_EMIT planChanged(message["plan"]);
    } else if (event == "clock") {
        Q_EMIT clockChanged(message["now"].toInt(), message["speed"].toDouble(1.0));
    } else if (event.empty() && message["ok"].toBool() && message["speed"].isNumber()) {
        Q_EMIT clockChanged(message["now"].toInt(), message["speed"].toDouble()); // the reply
    }
    // Other events and replies to requests are not used yet; they are skipped.
    return session == m_session;
}

void ControllerLink::dropConnection(const QString &status, bool retry)
{
    closeSocket();
    setStatus(status);
    setConnected(false);
    if (retry && m_started) {
        m_retryTimer->start();
    } else {
        m_retryTimer->stop();
    }
}

void ControllerLink::closeSocket()
{
    ++m_session;
    // The notifier must go before its fd is closed.
    delete m_notifier;
    m_notifier = nullptr;
    m_client.close();
    m_lines = mc::proto::LineBuffer();
    m_drainTimer->stop();
    m_peerClosed = false;
    m_awaitingReply = false;
}

void ControllerLink::setConnected(bool connected)
{
    if (m_connected == connected) {
        return;
    }
    m_connected = connected;
    Q_EMIT connectedChanged(connected);
}

void ControllerLink::retranslate()
{
    if (m_connected) {
        setStatus(tr("Connected to the cluster"));
    }
}

void ControllerLink::setStatus(const QString &status)
{
    if (m_status == status) {
        return;
    }
    m_status = status;
    Q_EMIT statusChanged(status);
}

} // namespace mc::gui
