#pragma once
// The login node's rule, as every cluster guide states it: the login node is shared, heavy work
// belongs in a job. A process on login1 that keeps using more than its share of CPU is warned
// on its terminal; if it goes on, it is throttled (or killed, as some sites do) with a message
// that says to use sbatch or salloc. The guides give the rule, not numbers: the defaults below
// are minicluster's (half a CPU over a minute, then 30 s of grace), and etc/minicluster.conf
// may change them with one line:
//
//   LoginPolicy=throttle CpuShare=0.5 Window=60 Grace=30 ThrottleShare=0.1 MemoryMax=4096
//   TasksMax=512
//
// LoginPolicy=throttle|kill|off; CpuShare: CPUs (1.0 = one full core) a process may average;
// Window: seconds over which the average is taken; Grace: seconds between warning and action;
// ThrottleShare: the CPUs a throttled process keeps. MemoryMax (MiB) and TasksMax (processes)
// bound all of one user's login sessions together, as the systemd user slices of real login
// nodes do (user-UID.slice's MemoryMax= and TasksMax=); 0 is no bound. They hold even with
// LoginPolicy=off: a data load cannot swap the laptop, a fork bomb stops at TasksMax (the
// runtime's joinLoginSlice applies them). Pure: LoginWatch takes `now` and samples and returns
// decisions; the runtime (mc/emu/login_watcher.h) samples /proc and applies them.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mc::emu {

enum class LoginAction { Off, Throttle, Kill };

struct LoginPolicy {
    LoginAction action = LoginAction::Throttle;
    double cpuShare = 0.5;
    int windowSec = 60;
    int graceSec = 30;
    double throttleShare = 0.1;
    std::int64_t memoryMaxMiB = 4096; // one user's login sessions together; 0: none
    int tasksMax = 512; // processes of one user's login sessions together; 0: none
    std::vector<std::string> problems; // "line 7: unknown key Foo=" (reported, not ignored)
};

// Reads the `LoginPolicy=` line of minicluster.conf text (defaults when there is none).
LoginPolicy parseLoginPolicy(std::string_view confText);
// One line for `minicluster status`: "throttle a process above 0.5 CPU for 60 s (warned, then
// 30 s of grace; throttled to 0.1 CPU)".
std::string describeLoginPolicy(const LoginPolicy &policy);
// The other line: "each user's sessions together: at most 4096 MiB of memory, at most 512
// processes".
std::string describeLoginLimits(const LoginPolicy &policy);

// The messages written on the offending process's terminal, each ending in "\r\n".
std::string loginWarning(const LoginPolicy &policy, int pid, const std::string &command);
std::string loginActionNotice(
    const LoginPolicy &policy, int pid, const std::string &command, bool throttled);

// What a login shell is told when its user's sessions reached TasksMax (a fork refused) or
// MemoryMax (a process killed by the kernel), each ending in "\r\n".
std::string loginTasksNotice(const LoginPolicy &policy);
std::string loginMemoryNotice(const LoginPolicy &policy);

struct LoginSample {
    int pid = 0;
    std::string command; // /proc/<pid>/comm
    std::int64_t cpuMs = 0; // CPU time so far (utime + stime)
};

struct LoginDecision {
    enum class Kind { Warn, Throttle, Kill } kind = Kind::Warn;
    int pid = 0;
    std::string command;
};

class LoginWatch {
public:
    explicit LoginWatch(LoginPolicy policy);

    // One sampling round at `nowMs` (a monotonic clock) with every process of the login node.
    // A process is over when its CPU time grew by more than CpuShare × Window in the last
    // Window; it is warned once, and acted on when it is still over Grace seconds later. A
    // process that calms down before that is forgiven (warned again if it starts over).
    std::vector<LoginDecision> observe(std::int64_t nowMs, const std::vector<LoginSample> &samples);

    const LoginPolicy &policy() const { return m_policy; }

private:
    struct Tracked {
        std::vector<std::pair<std::int64_t, std::int64_t>> history; // (now, cpuMs), oldest first
        std::int64_t warnedAt = -1;
        bool acted = false;
    };

    LoginPolicy m_policy;
    std::map<int, Tracked> m_procs;
};

} // namespace mc::emu
