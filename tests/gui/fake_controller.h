#pragma once
// A stand-in for minicluster-ctld in GUI tests: listens on a Unix socket, accepts the app's
// connection, reads its requests and writes replies and events, all on the test's thread.
// Waits process Qt events (so the code under test runs) and give up after their timeout.

#include "mc/proto/json.h"

#include <chrono>
#include <optional>
#include <string>

namespace mc::gui::test {

class FakeController {
public:
    explicit FakeController(std::string socketPath);
    ~FakeController();
    FakeController(const FakeController &) = delete;
    FakeController &operator=(const FakeController &) = delete;

    // Starts listening at the socket path; false (with a test warning) on failure.
    bool listen();
    // Accepts the next client; false when none came within `timeout`.
    bool accept(std::chrono::milliseconds timeout = std::chrono::seconds(5));
    // The next line the client sent, without '\n'; nullopt on timeout or end of stream.
    std::optional<std::string> readLine(
        std::chrono::milliseconds timeout = std::chrono::seconds(5));
    // Sends raw bytes / one message followed by '\n'.
    bool sendRaw(const std::string &bytes);
    bool send(const mc::proto::Json &message);
    // Serves one request on its own connection (RequestClient's way): accepts, reads the
    // request, answers `reply` and hangs up. Returns the request; nullopt when none came.
    std::optional<mc::proto::Json> answerRequest(const mc::proto::Json &reply);
    // Hangs up on the client (the listener stays).
    void dropClient();
    // Stops listening and removes the socket file.
    void stopListening();

private:
    std::string m_path;
    int m_listenFd = -1;
    int m_clientFd = -1;
    std::string m_buffer;
};

} // namespace mc::gui::test
