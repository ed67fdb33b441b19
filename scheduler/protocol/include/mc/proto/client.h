#pragma once
// A blocking protocol client: what every Slurm command uses for its one request and reply.

#include "mc/proto/json.h"

#include <optional>
#include <string>

namespace mc::proto {

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

    // Sends `request` and waits for the next message; nullopt with `error` set when the
    // connection breaks or the reply is not JSON.
    std::optional<Json> call(const Json &request, std::string &error);
    // The same, returning the reply's line unparsed (without its newline): for readers of large
    // replies that parse only what they print (mc::proto::RowTable).
    std::optional<std::string> callText(const Json &request, std::string &error);

    bool send(const Json &message);
    // Next message, blocking; nullopt at end of stream or on a malformed line.
    std::optional<Json> receive();
    // Next line, blocking, without its newline; nullopt at end of stream.
    std::optional<std::string> receiveLine();
    int fd() const { return m_fd; }
    void close();

private:
    int m_fd = -1;
    std::string m_buffer;
};

// Where the controller listens: $MINICLUSTER_SOCKET, else $MINICLUSTER_DIR/run/ctld.sock, else
// the default cluster's directory (see clusterDir()).
std::string controllerSocketPath();
// $MINICLUSTER_DIR, else $XDG_DATA_HOME/minicluster/default (~/.local/share/...).
std::string defaultClusterDir();

} // namespace mc::proto
