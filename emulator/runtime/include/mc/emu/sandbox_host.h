#pragma once
// A node's sandbox that outlives its jobs. Creating a bubblewrap sandbox costs about 10 ms of
// CPU (user, UTS, IPC and mount namespaces, twenty bind mounts, each read-only one checked
// against /proc/self/mountinfo), more than the trivial job it wraps. A real node is one
// machine whose hostname and mounts do not change between jobs, so here too one sandbox per
// node and emulated user is made once: bubblewrap runs `minicluster-sandboxd` inside it, and
// the node daemon asks that process to fork each job (fork, join the cgroup, limits, exec).
//
// Wire format over a SOCK_SEQPACKET socketpair, one datagram per message:
//   daemon -> sandboxd: encodeLaunch() text, with the job's stdin, stdout, stderr and the
//                       cgroup.procs files it joins attached (SCM_RIGHTS, opened by the daemon,
//                       so the job joins its cgroup with the daemon's permission)
//   sandboxd -> daemon: "started PID" | "failed TEXT" (one per launch, in order)
//                       "exited PID STATUS CPU_MS MAXRSS_KB" (wait4 of a job's first process)
// Pids are the host's: the sandbox has no pid namespace. The daemon is a child subreaper, so
// the jobs of a sandboxd that dies are reparented to it and reaped like its own children.

#include "mc/emu/sandbox.h"
#include "mc/proto/event_loop.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace mc::emu {

// What sandboxd does for one job, besides the descriptors that travel with it.
struct SandboxLaunch {
    std::vector<std::string> argv;
    std::vector<std::string> env;
    std::string chdir; // as seen inside; empty: unchanged
    std::vector<std::pair<int, long long>> rlimits; // resource, soft = hard limit
    int cpuCount = 0; // sched_setaffinity to cpuCount CPUs from firstCpu (0: all)
    int firstCpu = 0;
    int joinFds = 0; // how many cgroup.procs descriptors follow stdin, stdout and stderr
    int flags = 0; // kLaunchTerminal | kLaunchStepTask
};

// stdin becomes the controlling terminal (srun --pty).
inline constexpr int kLaunchTerminal = 1;
// An srun task: slurmstepd's words and exit codes when exec or chdir fails (a missing
// directory falls back to /tmp, a missing program exits 2), as Slurm does, and its own pid in
// SLURM_TASK_PID.
inline constexpr int kLaunchStepTask = 2;

std::string encodeLaunch(const SandboxLaunch &launch);
// nullopt when `text` is not a launch message.
std::optional<SandboxLaunch> decodeLaunch(std::string_view text);

// The job process side, shared by sandboxd and tests: dup2 the three stdio descriptors, join
// the cgroups by writing "0" to each join descriptor, set limits, chdir, exec (a name without
// '/' is looked up on the PATH of the job's environment). Never returns (status 126 when
// joining a cgroup fails, 127 when exec fails, 1 when chdir fails; see kLaunchStepTask).
[[noreturn]] void execLaunch(const SandboxLaunch &launch, const std::vector<int> &fds);

// sandboxd's loop on `socketFd`; returns when the daemon closes its end.
int runSandboxServer(int socketFd);

class SandboxHost {
public:
    // `spec` describes the sandbox (hostname, uid, mounts; its workDir is ignored);
    // `serverPath` is minicluster-sandboxd as seen inside it.
    SandboxHost(proto::EventLoop &loop, SandboxSpec spec, std::string serverPath);
    ~SandboxHost();
    SandboxHost(const SandboxHost &) = delete;
    SandboxHost &operator=(const SandboxHost &) = delete;

    bool start(std::string &error);
    // Asks sandboxd to start a job; `fds` are stdin, stdout, stderr then the join files (the
    // caller keeps and closes them). Returns the job's pid, or -1 with `error`.
    pid_t spawn(const SandboxLaunch &launch, const std::vector<int> &fds, std::string &error);
    // bubblewrap's pid (a child of the daemon); 0 once gone.
    pid_t pid() const { return m_pid; }
    void childExited(pid_t pid); // the daemon reaped `pid`: if it is bubblewrap, we are gone
    bool alive() const { return m_fd >= 0; }

    // A job's first process ended in the sandbox (wait4 by sandboxd).
    std::function<void(pid_t pid, int status, std::int64_t cpuMs, std::int64_t maxRssKb)> onExit;

    proto::EventLoop::TimerId idleTimer = 0; // the owner stops an idle sandbox after a while

private:
    void readMessages(bool untilReply, std::string *reply);
    void dispatch(const std::string &message);
    void close();

    proto::EventLoop &m_loop;
    SandboxSpec m_spec;
    std::string m_serverPath;
    int m_fd = -1;
    pid_t m_pid = 0;
    std::vector<std::string> m_stashed; // exits read while waiting for a launch reply
    // sandboxd's pids (of the node's PID namespace) as this daemon sees them: each job's
    // first process says its pid with SCM_CREDENTIALS, which the kernel translates.
    std::map<pid_t, pid_t> m_outerPid;
    pid_t outer(pid_t inner) const;
};

} // namespace mc::emu
