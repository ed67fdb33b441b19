#pragma once
// One peer of the protocol inside an EventLoop: reads JSON lines, queues writes without
// blocking. The owner learns of the end through onClosed and deletes it later (post()).

#include "mc/proto/event_loop.h"
#include "mc/proto/json.h"
#include "mc/proto/line_buffer.h"

#include <cstddef>
#include <functional>
#include <string>

namespace mc::proto {

// The longest message a Connection accepts: a batch script at Slurm's max_script_size (4 MB),
// escaped in JSON, with its environment.
inline constexpr std::size_t kMaxMessageBytes = std::size_t{16} << 20;

class Connection {
public:
    Connection(EventLoop &loop, int fd);
    ~Connection();
    Connection(const Connection &) = delete;
    Connection &operator=(const Connection &) = delete;

    std::function<void(const Json &)> onMessage;
    // Called once when the peer hangs up, sends something that is not JSON, or a line longer
    // than kMaxMessageBytes (not buffered whole: the connection is closed at that length).
    std::function<void()> onClosed;
    // Called (before onClosed) when a line grows past kMaxMessageBytes: a last reply may be
    // sent; the rest of the line is never read.
    std::function<void()> onOverlong;

    void send(const Json &message);
    void sendRaw(std::string line); // one already-encoded message, without its '\n'
    void close();
    bool isOpen() const { return !m_closed; }
    int fd() const { return m_fd; }

private:
    void onEvents(short revents);
    void flush();

    EventLoop &m_loop;
    int m_fd;
    bool m_closed = false;
    LineBuffer m_in;
    std::string m_out;
};

} // namespace mc::proto
