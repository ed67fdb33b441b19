#pragma once
// One-off requests to minicluster-ctld from the app (acct, clock, node_update, submit, ...),
// beside ControllerLink's event stream: each request gets its own short connection, so a reply
// never mixes with events. Connecting to the local socket and writing the small request happen
// at once; the reply, which may be large (acct), is read when a QSocketNotifier says so.
//
// Every request ends in exactly one call of its callback, with the controller's reply or, when
// the controller cannot be reached or the connection breaks, a reply made here:
// {"ok": false, "error": "<why, in words>"}. A reply to an op the controller does not know
// ("Unknown request: clock") is turned into plain words by describeFailure().

#include "mc/proto/json.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <functional>

namespace mc::gui {

class RequestClient : public QObject {
    Q_OBJECT

public:
    using Callback = std::function<void(const mc::proto::Json &reply)>;
    static constexpr std::chrono::milliseconds kTimeout{30000};

    explicit RequestClient(QString socketPath, QObject *parent = nullptr);
    ~RequestClient() override;

    QString socketPath() const { return m_socketPath; }
    // Sends `request`; `done` runs later on this thread (never inside send()), unless `context`
    // (the object whose state `done` touches) or this client is destroyed first.
    void send(const mc::proto::Json &request, QObject *context, Callback done);
    int pendingCount() const { return m_pending; }

    // The error of a failed reply in words for the user: the controller's own message, or, for
    // an op it does not have, "The cluster controller does not support “op” yet.".
    static QString describeFailure(const mc::proto::Json &request, const mc::proto::Json &reply);

private:
    QString m_socketPath;
    int m_pending = 0;
};

} // namespace mc::gui
