#pragma once
// The login node's watchdog (minicluster-logind): applies the LoginPolicy (login_policy.h) to
// the processes of login1. Login shells register themselves (registerLoginShell, called by
// `minicluster shell` before it execs the shell or bubblewrap); every process descending from a
// registered shell is on login1. Once a second the watcher reads their CPU time from /proc,
// writes the warning on the process's terminal (its stderr, else its stdout), and then
// throttles it in a cgroup with a CPU quota (cgroup modes) or kills it (the policy says kill,
// or there is no cgroup to throttle with: stopping and continuing it by signals would make its
// shell report it as stopped).

#include "mc/emu/cluster_layout.h"
#include "mc/emu/job_limiter.h"
#include "mc/emu/login_policy.h"
#include "mc/proto/event_loop.h"

#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <sys/types.h>

namespace mc::emu {

// Records `pid` (with its start time, against pid reuse) as a login shell of the cluster.
void registerLoginShell(const ClusterLayout &layout, pid_t pid);

// Puts the calling process (a login shell about to exec) and so everything it starts into
// `user`'s cgroup on login1, `login1.<cluster>/user_<user>`, bounded by the policy's MemoryMax
// and TasksMax: all of a user's sessions share it, as a systemd user slice on a real login
// node, so one student's fork bomb or data load stops there and not in a classmate's session
// or the laptop. In rlimit mode (no cgroup) only the processes are bounded, with RLIMIT_NPROC,
// and only when not root (root ignores it). False with `error` when the cgroup cannot be made.
bool joinLoginSlice(const ClusterLayout &layout, LimitMode mode, const std::string &user,
    const LoginPolicy &policy, std::string &error);

struct LoginWatcherSettings {
    ClusterLayout layout;
    LimitMode limits = LimitMode::Rlimit;
    LoginPolicy policy;
    std::chrono::milliseconds interval{1000};
};

class LoginWatcher {
public:
    LoginWatcher(proto::EventLoop &loop, LoginWatcherSettings settings);
    ~LoginWatcher();

    void start();

private:
    void sample();
    // Tells the shells of a user whose login cgroup refused a fork (TasksMax) or killed a
    // process (MemoryMax) since the last sample, as the policy tells a CPU hog.
    void noteLimitHits(const std::set<pid_t> &roots);
    void tell(pid_t pid, const std::string &text) const;
    bool throttle(pid_t pid, std::string &error);

    proto::EventLoop &m_loop;
    LoginWatcherSettings m_settings;
    LoginWatch m_watch;
    std::unique_ptr<JobLimiter> m_throttled; // the cgroup of throttled processes, made on use
    struct Slice {
        std::unique_ptr<JobLimiter> cgroup; // a user's login cgroup, read only (no limits set)
        int pidsHits = 0;
        int oomKills = 0;
    };
    std::map<std::string, Slice> m_slices; // by user
};

} // namespace mc::emu
