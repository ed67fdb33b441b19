#pragma once
// A single-threaded poll(2) loop for the daemons: fds, timers, signals (via signalfd) and
// deferred calls. The imperative shell around the functional core; it reads the steady clock.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace mc::proto {

class EventLoop {
public:
    using FdCallback = std::function<void(short revents)>;
    using Callback = std::function<void()>;
    using TimerId = std::uint64_t;

    EventLoop();
    ~EventLoop();
    EventLoop(const EventLoop &) = delete;
    EventLoop &operator=(const EventLoop &) = delete;

    void watch(int fd, short events, FdCallback callback);
    void setEvents(int fd, short events);
    void unwatch(int fd);

    // Calls `callback` once after `delay`; cancel with cancelTimer().
    TimerId addTimer(std::chrono::milliseconds delay, Callback callback);
    void cancelTimer(TimerId id);

    // Blocks `signals` for the process and delivers them through the loop. Children must
    // restore their mask before exec (resetSignalsForChild()).
    void watchSignals(const std::vector<int> &signals, std::function<void(int)> callback);

    // Runs `callback` after the current dispatch round (safe place to delete objects).
    void post(Callback callback);

    void run();
    void quit() { m_running = false; }

private:
    struct Watch {
        short events;
        FdCallback callback;
    };
    struct Timer {
        std::chrono::steady_clock::time_point due;
        Callback callback;
    };

    std::map<int, Watch> m_watches;
    std::map<TimerId, Timer> m_timers;
    std::vector<Callback> m_posted;
    TimerId m_nextTimer = 1;
    int m_signalFd = -1;
    bool m_running = false;
};

// Unblocks every signal and restores default dispositions; call in a forked child.
void resetSignalsForChild();

} // namespace mc::proto
