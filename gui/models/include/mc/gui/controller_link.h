#pragma once
// The app's live connection to minicluster-ctld: connects to the controller socket, subscribes,
// and turns the reply and the event stream (docs/protocol.md) into signals. It never blocks the
// GUI thread: the socket is non-blocking and read when a QSocketNotifier says so.
//
// Life cycle: start() connects at once; while the controller is not there (no socket yet,
// refused) or after it goes away, it retries every retryInterval() until stop(). Each
// successful subscription emits connectedChanged(true), then snapshotReceived() with the whole
// state, then jobChanged()/nodeChanged() for every event, until connectedChanged(false). Each
// job is decoded here, once (record::JobObject), for every view that shows it.
// statusText() always says in words (through tr()) where the link stands.

#include "mc/proto/client.h"
#include "mc/proto/json.h"
#include "mc/proto/line_buffer.h"
#include "mc/record/job_object.h"

#include <QList>
#include <QObject>
#include <QString>

#include <chrono>

class QSocketNotifier;
class QTimer;

namespace mc::gui {

class ControllerLink : public QObject {
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds kDefaultRetryInterval{500};

    // `socketPath`: the controller's socket, usually <cluster>/run/ctld.sock.
    explicit ControllerLink(QString socketPath, QObject *parent = nullptr);
    ~ControllerLink() override;

    QString socketPath() const { return m_socketPath; }
    // True between connectedChanged(true) (the controller accepted the subscription) and
    // connectedChanged(false).
    bool isConnected() const { return m_connected; }
    // Where the link stands, for the status bar ("Connected to the cluster", ...).
    QString statusText() const { return m_status; }
    // Says the status again in the current language (after a live language switch); the
    // transient "retrying" texts follow at the next attempt.
    void retranslate();

    std::chrono::milliseconds retryInterval() const;
    void setRetryInterval(std::chrono::milliseconds interval);

    // Tries to connect now, then keeps the link up (retrying) until stop(). No-op when started.
    void start();
    // Closes the connection and stops retrying; emits connectedChanged(false) if it was up.
    void stop();

Q_SIGNALS:
    void connectedChanged(bool connected);
    void statusChanged(const QString &status);
    // The subscription's reply: every job the controller reports (active ones and those
    // finished within MinJobAge) and every node. `now` is the controller's clock, epoch
    // seconds (0 when the reply carries none; each job also has its own `now`).
    void snapshotReceived(
        const QList<mc::record::JobObject> &jobs, const QList<mc::proto::Json> &nodes, qint64 now);
    // A job was submitted or changed: the full job object.
    void jobChanged(const mc::record::JobObject &job);
    // A node's state or allocation changed: the full node object.
    void nodeChanged(const mc::proto::Json &node);
    // A scheduling pass changed planned starts: the event's `plan` array,
    // [{job_id, planned_start, nodes}].
    void planChanged(const mc::proto::Json &plan);
    // The cluster clock's time and rate: once after each snapshot (the link asks the controller
    // with a `clock` request), then whenever it is sped up, slowed down or fast-forwarded.
    void clockChanged(qint64 now, double speed);

private:
    void tryConnect();
    void onReadable();
    // Handles buffered messages for a bounded time; schedules itself again for the rest.
    void handleLines();
    // Handles one message; false when the connection was dropped while handling it.
    bool handleMessage(const mc::proto::Json &message);
    // Closes the socket; when `retry`, schedules the next attempt.
    void dropConnection(const QString &status, bool retry);
    void closeSocket();
    void setConnected(bool connected);
    void setStatus(const QString &status);

    QString m_socketPath;
    mc::proto::Client m_client;
    mc::proto::LineBuffer m_lines;
    QSocketNotifier *m_notifier = nullptr;
    QTimer *m_retryTimer = nullptr;
    QTimer *m_drainTimer = nullptr;
    QString m_status;
    // Bumped whenever the socket is closed, so a read loop notices that a slot dropped it.
    quint64 m_session = 0;
    bool m_started = false;
    bool m_awaitingReply = false;
    bool m_peerClosed = false; // end of stream seen; dropped once the buffered lines are handled
    bool m_connected = false;
};

} // namespace mc::gui
