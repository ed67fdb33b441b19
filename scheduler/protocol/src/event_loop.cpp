#include "mc/proto/event_loop.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <poll.h>
#include <sys/signalfd.h>
#include <unistd.h>

namespace mc::proto {

EventLoop::EventLoop() = default;

EventLoop::~EventLoop()
{
    if (m_signalFd >= 0) {
        ::close(m_signalFd);
    }
}

void EventLoop::watch(int fd, short events, FdCallback callback)
{
    m_watches[fd] = Watch{events, std::move(callback)};
}

void EventLoop::setEvents(int fd, short events)
{
    if (auto it = m_watches.find(fd); it != m_watches.end()) {
        it->second.events = events;
    }
}

void EventLoop::unwatch(int fd)
{
    m_watches.erase(fd);
}

EventLoop::TimerId EventLoop::addTimer(std::chrono::milliseconds delay, Callback callback)
{
    TimerId id = m_nextTimer++;
    m_timers[id] = Timer{std::chrono::steady_clock::now() + delay, std::move(callback)};
    return id;
}

void EventLoop::cancelTimer(TimerId id)
{
    m_timers.erase(id);
}

void EventLoop::watchSignals(const std::vector<int> &signals, std::function<void(int)> callback)
{
    sigset_t mask;
    sigemptyset(&mask);
    for (int s : signals) {
        sigaddset(&mask, s);
    }
    ::sigprocmask(SIG_BLOCK, &mask, nullptr);
    m_signalFd = ::signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
    watch(m_signalFd, POLLIN, [this, cb = std::move(callback)](short) {
        signalfd_siginfo info{};
        while (::read(m_signalFd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
            cb(static_cast<int>(info.ssi_signo));
        }
    });
}

void EventLoop::post(Callback callback)
{
    m_posted.push_back(std::move(callback));
}

void EventLoop::run()
{
    m_running = true;
    std::vector<pollfd> fds;
    while (m_running) {
        while (!m_posted.empty()) {
            auto posted = std::move(m_posted);
            m_posted.clear();
            for (auto &cb : posted) {
                cb();
            }
        }
        if (!m_running) {
            break;
        }
        int timeout = -1;
        auto now = std::chrono::steady_clock::now();
        for (const auto &[id, timer] : m_timers) {
            auto ms = std::chrono::ceil<std::chrono::milliseconds>(timer.due - now).count();
            int t = static_cast<int>(std::max<long long>(0, ms));
            timeout = timeout < 0 ? t : std::min(timeout, t);
        }
        fds.clear();
        for (const auto &[fd, w] : m_watches) {
            fds.push_back(pollfd{fd, w.events, 0});
        }
        int n = ::poll(fds.data(), fds.size(), timeout);
        if (n < 0 && errno != EINTR) {
            break;
        }
        for (const auto &p : fds) {
            if (p.revents == 0) {
                continue;
            }
            auto it = m_watches.find(p.fd);
            if (it == m_watches.end()) {
                continue; // unwatched during this round
            }
            auto callback = it->second.callback; // the callback may unwatch itself
            callback(p.revents);
        }
        now = std::chrono::steady_clock::now();
        std::vector<TimerId> due;
        for (const auto &[id, timer] : m_timers) {
            if (timer.due <= now) {
                due.push_back(id);
            }
        }
        for (TimerId id : due) {
            auto it = m_timers.find(id);
            if (it == m_timers.end()) {
                continue;
            }
            auto cb = std::move(it->second.callback);
            m_timers.erase(it);
            cb();
        }
    }
}

void resetSignalsForChild()
{
    sigset_t all;
    sigemptyset(&all);
    ::sigprocmask(SIG_SETMASK, &all, nullptr);
    for (int s = 1; s < NSIG; ++s) {
        if (s != SIGKILL && s != SIGSTOP) {
            ::signal(s, SIG_DFL);
        }
    }
}

} // namespace mc::proto
