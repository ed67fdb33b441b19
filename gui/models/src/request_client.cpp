#include "mc/gui/request_client.h"

#include "mc/proto/client.h"
#include "mc/proto/line_buffer.h"
#include "mc/proto/socket.h"

#include <QPointer>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>

namespace mc::gui {

namespace {

mc::proto::Json failureReply(const QString &error)
{
    return mc::proto::Json::object().set("ok", false).set("error", error.toStdString());
}

bool sendLine(int fd, const mc::proto::Json &message)
{
    std::string line = message.dump();
    line += '\n';
    std::size_t done = 0;
    while (done < line.size()) {
        const ssize_t n = ::send(fd, line.data() + done, line.size() - done, MSG_NOSIGNAL);
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

// One request under way: owns its connection and deletes itself after calling back.
class PendingRequest : public QObject {
public:
    PendingRequest(QObject *parent, RequestClient::Callback done)
        : QObject(parent)
        , m_done(std::move(done))
    { }

    void start(const QString &socketPath, const mc::proto::Json &request)
    {
        std::string error;
        if (!m_client.connect(socketPath.toStdString(), error)) {
            finishLater(
                failureReply(RequestClient::tr("The cluster controller is not running (%1).")
                                 .arg(QString::fromStdString(error))));
            return;
        }
        // Requests are small: sent whole while blocking; the reply is read without blocking.
        if (!sendLine(m_client.fd(), request)) {
            finishLater(
                failureReply(RequestClient::tr("The cluster controller closed the connection.")));
            return;
        }
        mc::proto::makeNonBlocking(m_client.fd());
        m_notifier = new QSocketNotifier(m_client.fd(), QSocketNotifier::Read, this);
        connect(m_notifier, &QSocketNotifier::activated, this, &PendingRequest::onReadable);
        QTimer::singleShot(RequestClient::kTimeout, this, [this] {
            finish(failureReply(RequestClient::tr("The cluster controller did not answer.")));
        });
    }

private:
    void onReadable()
    {
        char chunk[65536];
        for (;;) {
            const ssize_t n = ::read(m_client.fd(), chunk, sizeof chunk);
            if (n > 0) {
                m_lines.append(std::string_view(chunk, static_cast<std::size_t>(n)));
                continue;
            }
            if (n < 0 && errno == EINTR) {
                continue;
            }
            const bool ended = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
            if (auto line = m_lines.nextLine()) {
                const auto reply = mc::proto::Json::parse(*line);
                finish(reply && reply->isObject()
                        ? *reply
                        : failureReply(
                            RequestClient::tr("The cluster controller sent a malformed reply.")));
            } else if (ended) {
                finish(failureReply(
                    RequestClient::tr("The cluster controller closed the connection.")));
            }
            return;
        }
    }

    void finishLater(const mc::proto::Json &reply)
    {
        QTimer::singleShot(0, this, [this, reply] { finish(reply); });
    }

    void finish(const mc::proto::Json &reply)
    {
        if (m_finished) {
            return;
        }
        m_finished = true;
        delete m_notifier; // before its fd is closed
        m_notifier = nullptr;
        m_client.close();
        auto done = std::move(m_done);
        deleteLater();
        done(reply);
    }

    RequestClient::Callback m_done;
    mc::proto::Client m_client;
    mc::proto::LineBuffer m_lines;
    QSocketNotifier *m_notifier = nullptr;
    bool m_finished = false;
};

} // namespace

RequestClient::RequestClient(QString socketPath, QObject *parent)
    : QObject(parent)
    , m_socketPath(std::move(socketPath))
{ }

RequestClient::~RequestClient() = default;

void RequestClient::send(const mc::proto::Json &request, QObject *context, Callback done)
{
    ++m_pending;
    QPointer<RequestClient> self(this);
    QPointer<QObject> guard(context);
    auto *pending = new PendingRequest(
        this, [self, guard, done = std::move(done)](const mc::proto::Json &reply) {
            if (self) {
                --self->m_pending;
            }
            if (guard) {
                done(reply);
            }
        });
    pending->start(m_socketPath, request);
}

QString RequestClient::describeFailure(const mc::proto::Json &request, const mc::proto::Json &reply)
{
    const QString error = QString::fromStdString(reply["error"].toString());
    if (error.startsWith(QLatin1String("Unknown request"))) {
        return tr("The cluster controller does not support “%1” yet.")
            .arg(QString::fromStdString(request["op"].toString()));
    }
    return error.isEmpty() ? tr("The cluster controller refused the request.") : error;
}

} // namespace mc::gui
