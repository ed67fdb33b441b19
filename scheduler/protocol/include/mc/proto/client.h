#pragma once
// A blocking protocol client: what every Slurm command uses for its one request and reply.

#include "mc/proto/json.h"

#include <optional>
#include <string>

namespace mc::proto {

// Slurm's MessageTimeout in seconds (10 unless slurm.conf says otherwise) of the slurm.conf at
// `path`; by default $SLURM_CONF's, else the cluster directory's (defaultClusterDir()).
int messageTimeout(const std::string &path = {});

class Client {
public:
    Client() = default;
    ~Client();
    Client(Client &&other) noexcept;
    Client &operator=(Client &&other) noexcept;
    Client(const Client &) = delete;
    Client &operator=(const Client &) = delete;

    // false with `error` set when the controller cannot be reached.
    bool connect(const std::string &socketPath, std::string &error);
    bool isConnected() const { return m_fd >= 0; }

    // How long call() and callText() wait for the controller, in milliseconds (<= 0: for
    // ever). By default Slurm's MessageTimeout of the cluster's slurm.conf (messageTimeout()).
    void setTimeout(int milliseconds) { m_timeoutMs = milliseconds; }
    // The last call() or callText() waited its whole timeout without an answer; `error` said
    // Slurm's words for it (kTimedOut).
    bool timedOut() const { return m_timedOut; }

    // Sends `request` and waits for the next message, at most the timeout; nullopt with
    // `error` set when the connection breaks, the reply is not JSON, or the time is up.
    std::optional<Json> call(const Json &request, std::string &error);
    // The same, returning the reply's line unparsed (without its newline): for readers of large
    // replies that parse only what they print (mc::proto::RowTable).
    std::optional<std::string> callText(const Json &request, std::string &error);

    bool send(const Json &message);
    // Next message, blocking; nullopt at end of stream or on a malformed line.
    std::optional<Json> receive();
    // Next line, blocking (at most `timeoutMs` when > 0), without its newline; nullopt at end
    // of stream or when the time is up (timedOut()).
    std::optional<std::string> receiveLine(int timeoutMs = 0);
    int fd() const { return m_fd; }
    void close();

private:
    bool sendLine(const std::string &line, int timeoutMs);

    int m_fd = -1;
    std::string m_buffer;
    int m_timeoutMs = messageTimeout() * 1000;
    bool m_timedOut = false;
};

// What Slurm's clients say when the controller does not answer within MessageTimeout.
inline constexpr const char *kTimedOut = "Socket timed out on send/recv operation";
// A failed reply with those words (errno SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT), for clients that
// print the controller's refusals: each then says it as its Slurm counterpart does.
Json timedOutReply();

// Where the controller listens: $MINICLUSTER_SOCKET, else $MINICLUSTER_DIR/run/ctld.sock, else
// the default cluster's directory (see clusterDir()).
std::string controllerSocketPath();
// $MINICLUSTER_DIR, else $XDG_DATA_HOME/minicluster/default (~/.local/share/...).
std::string defaultClusterDir();

} // namespace mc::proto
