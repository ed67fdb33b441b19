// minicluster-noded --dir CLUSTER_DIR --node NAME [--sandbox bubblewrap|plain] [--kill-wait S]
//                   [--limits auto|cgroup-v2|cgroup-v1|rlimit] [--time-scale N]
#include "mc/base/file.h"
#include "mc/emu/node_daemon.h"
#include "mc/emu/node_network.h"
#include "mc/emu/process.h"
#include "memory_overrun.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sched.h>
#include <sstream>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// A PID namespace per node (issue #18). As root, the daemon makes one (unshare) and puts in
// it, as its pid 1, a child that only reaps orphans: every later child of the daemon (the
// sandboxes, the jobs, srun's tasks) is in it, so a job sees its node's processes only and
// can signal nothing outside; the daemon itself stays outside, with its own pid (pid files,
// /proc). A daemon that dies leaves the namespace and its jobs running (docs/design.md, "At
// most once": its successor kills them); the reaper leaves once the daemon is gone and
// nothing else is left in it. The sandboxes mount the namespace's /proc for themselves
// (sandbox.h); the daemon keeps the host's, whose pids it uses. Returns a sentence for the
// log: what was done, or why not; `made` says whether there is a namespace.
std::string makeNodeNamespace(bool &made)
{
    made = false;
    if (::geteuid() != 0) {
        return "no PID namespace per node: not root";
    }
    if (::unshare(CLONE_NEWPID) != 0) {
        return std::string("no PID namespace per node: unshare: ") + std::strerror(errno);
    }
    // The daemon holds the write end: its end (the reaper's getppid() says 0, the parent
    // being outside the namespace) is the read end's hang-up.
    int alive[2];
    if (::pipe2(alive, O_CLOEXEC) != 0) {
        return std::string("no PID namespace per node: pipe: ") + std::strerror(errno);
    }
    const pid_t reaper = ::fork();
    if (reaper < 0) {
        return std::string("no PID namespace per node: fork: ") + std::strerror(errno);
    }
    if (reaper > 0) {
        ::close(alive[0]);
        made = true;
        return "a PID namespace per node";
    }
    ::close(alive[1]);
    ::prctl(PR_SET_NAME, "node-init");
    for (int signal = 1; signal < NSIG; ++signal) {
        std::signal(signal, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    bool daemonGone = false;
    while (true) {
        while (::waitpid(-1, nullptr, WNOHANG) > 0) { }
        // kill(-1, 0) reaches every other process of the namespace: ESRCH when it is empty.
        if (daemonGone && ::kill(-1, 0) != 0 && errno == ESRCH) {
            ::_exit(0);
        }
        pollfd p{alive[0], POLLIN, 0};
        if (::poll(&p, 1, 1000) > 0 && (p.revents & (POLLHUP | POLLERR))) {
            daemonGone = true;
        }
        if (daemonGone) {
            ::sleep(1);
        }
    }
}

} // namespace

int main(int argc, char **argv)
{
    mc::emu::NodeSettings settings;
    std::string limits = "auto";
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string key = argv[i];
        std::string value = argv[i + 1];
        if (key == "--dir") {
            settings.layout.dir = value;
        } else if (key == "--node") {
            settings.name = value;
        } else if (key == "--sandbox") {
            settings.mode = value == "bubblewrap" ? mc::emu::SandboxMode::Bubblewrap
                                                  : mc::emu::SandboxMode::Plain;
        } else if (key == "--limits") {
            limits = value;
        } else if (key == "--time-scale") {
            settings.timeScale = std::max(1, std::atoi(value.c_str()));
        } else if (key == "--kill-wait") {
            settings.killWait = std::atoi(value.c_str());
        }
    }
    if (settings.layout.dir.empty() || settings.name.empty()) {
        std::fprintf(stderr,
            "usage: minicluster-noded --dir CLUSTER_DIR --node NAME "
            "[--sandbox bubblewrap|plain] [--kill-wait SECONDS]\n"
            "       [--limits auto|cgroup-v2|cgroup-v1|rlimit] [--time-scale N]\n");
        return 2;
    }
    if (settings.mode == mc::emu::SandboxMode::Bubblewrap) {
        // Its network first: the PID namespace's reaper, like every later child, is then in it.
        bool ownNetwork = false;
        std::fprintf(stderr, "minicluster-noded %s: %s\n", settings.name.c_str(),
            mc::emu::joinClusterNetwork(settings.layout, settings.name, ownNetwork).c_str());
        std::fprintf(stderr, "minicluster-noded %s: %s\n", settings.name.c_str(),
            makeNodeNamespace(settings.nodePidNamespace).c_str());
    }
    mc::emu::LimitProbe probe = mc::emu::probeLimits(limits);
    if (!probe.ok) {
        std::fprintf(
            stderr, "minicluster-noded: --limits %s: %s\n", limits.c_str(), probe.detail.c_str());
        return 2;
    }
    {
        // The site's policy for a job over its memory (memory_overrun.h).
        const mc::emu::MemoryOverrunPolicy overrun = mc::emu::parseMemoryOverrun(
            mc::base::fileText(settings.layout.dir + "/etc/minicluster.conf"));
        for (const auto &problem : overrun.problems) {
            std::fprintf(
                stderr, "minicluster-noded %s: etc/%s\n", settings.name.c_str(), problem.c_str());
        }
        settings.rebootOnMemoryOverrun = overrun.rebootNode;
        settings.rebootSeconds = overrun.rebootSeconds;
    }
    settings.limits = probe.mode;
    settings.limitsDetail = probe.detail;
    settings.binDir = mc::emu::executableDir();
    std::signal(SIGPIPE, SIG_IGN);
    mc::proto::EventLoop loop;
    mc::emu::NodeDaemon daemon(loop, settings);
    daemon.start();
    loop.run();
    return 0;
}
