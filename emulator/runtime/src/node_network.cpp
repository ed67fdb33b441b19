#include "mc/emu/node_network.h"

#include "mc/base/file.h"
#include "mc/proto/identity.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <sched.h>
#include <sstream>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace mc::emu {

namespace {

constexpr int kFirstNet = 200;
constexpr int kLastNet = 250;
// Shared by the clusters of this machine: two cannot take the same subnet.
constexpr const char *kHostLock = "/tmp/minicluster-net.lock";

// Runs argv (looked up on PATH) with its output discarded; true when it exits 0.
bool run(const std::vector<std::string> &argv)
{
    const pid_t pid = ::fork();
    if (pid == 0) {
        int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        ::dup2(null, 1);
        ::dup2(null, 2);
        std::vector<char *> a;
        for (const auto &s : argv) {
            a.push_back(const_cast<char *>(s.c_str()));
        }
        a.push_back(nullptr);
        ::execvp(a[0], a.data());
        ::_exit(127);
    }
    int status = 0;
    return pid > 0 && ::waitpid(pid, &status, 0) == pid && WIFEXITED(status)
        && WEXITSTATUS(status) == 0;
}

// The command's standard output, or "" when it fails.
std::string output(const std::string &command)
{
    std::string text;
    if (FILE *p = ::popen(command.c_str(), "r")) {
        char buf[4096];
        while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) {
            text.append(buf, n);
        }
        ::pclose(p);
    }
    return text;
}

bool alive(pid_t pid)
{
    return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM);
}

// The pids of the cluster's node daemons (run/noded-NODE.pid).
std::vector<pid_t> nodeDaemons(const ClusterLayout &layout)
{
    std::vector<pid_t> pids;
    if (DIR *d = ::opendir(layout.run().c_str())) {
        while (dirent *e = ::readdir(d)) {
            const std::string name = e->d_name;
            if (name.rfind("noded-", 0) == 0 && name.size() > 10
                && name.compare(name.size() - 4, 4, ".pid") == 0) {
                pids.push_back(static_cast<pid_t>(
                    std::atoi(base::fileText(layout.run() + "/" + name).c_str())));
            }
        }
        ::closedir(d);
    }
    return pids;
}

// The holder of the cluster's network: a process in a fresh network namespace that lives
// while `creator` or a node daemon of the cluster does. Returns its pid (0 on failure).
pid_t startHolder(const ClusterLayout &layout, pid_t creator)
{
    int ready[2];
    if (::pipe2(ready, O_CLOEXEC) != 0) {
        return 0;
    }
    const pid_t first = ::fork();
    if (first == 0) {
        ::setsid();
        const pid_t holder = ::fork(); // not the daemon's child: its reaping stays its own
        if (holder != 0) {
            ::_exit(holder > 0 ? 0 : 1);
        }
        // Nothing of the daemon's: an inherited run/net.lock would stay locked while it lives.
        for (int fd = 3; fd < 1024; ++fd) {
            if (fd != ready[1]) {
                ::close(fd);
            }
        }
        ::prctl(PR_SET_NAME, "cluster-net");
        pid_t self = ::getpid();
        const bool ok = ::unshare(CLONE_NEWNET) == 0;
        [[maybe_unused]] ssize_t w = ::write(ready[1], ok ? &self : nullptr, ok ? sizeof self : 0);
        ::close(ready[1]);
        if (!ok) {
            ::_exit(1);
        }
        for (int fd = 0; fd < 3; ++fd) {
            ::close(fd);
        }
        while (true) {
            ::sleep(1);
            bool any = alive(creator);
            for (pid_t pid : nodeDaemons(layout)) {
                any = any || alive(pid);
            }
            if (!any) {
                ::_exit(0);
            }
        }
    }
    ::close(ready[1]);
    pid_t holder = 0;
    if (first < 0 || ::read(ready[0], &holder, sizeof holder) != sizeof holder) {
        holder = 0;
    }
    ::close(ready[0]);
    if (first > 0) {
        ::waitpid(first, nullptr, 0);
    }
    return holder;
}

// The first subnet 10.N.0.0/24 that no address of the host uses.
int freeNet()
{
    const std::string used = output("ip -o -4 addr show 2>/dev/null");
    for (int n = kFirstNet; n <= kLastNet; ++n) {
        if (used.find(" 10." + std::to_string(n) + ".0.") == std::string::npos) {
            return n;
        }
    }
    return 0;
}

// Makes the cluster's network (bridge br0 in the holder's namespace, the host's veth as
// 10.N.0.254). Returns N, or 0.
int makeClusterNetwork(pid_t holder)
{
    int lock = ::open(kHostLock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock < 0 || ::flock(lock, LOCK_EX) != 0) {
        return 0;
    }
    int n = freeNet();
    const std::string net = "10." + std::to_string(n) + ".0.";
    const std::string hostEnd = "mc" + std::to_string(n) + "host";
    const std::string in = std::to_string(holder);
    const bool ok = n != 0
        && run(
            {"ip", "link", "add", hostEnd, "type", "veth", "peer", "name", "uplink", "netns", in})
        && run({"ip", "addr", "add", net + "254/24", "dev", hostEnd})
        && run({"ip", "link", "set", hostEnd, "up"})
        && run({"nsenter", "-t", in, "-n", "ip", "link", "add", "br0", "type", "bridge"})
        && run({"nsenter", "-t", in, "-n", "ip", "link", "set", "br0", "up"})
        && run({"nsenter", "-t", in, "-n", "ip", "link", "set", "uplink", "master", "br0", "up"});
    ::close(lock); // the host's address now marks the subnet as used
    return ok ? n : 0;
}

// etc/hosts with the cluster's addresses: login1 .254, the other names .1, .2, ... in the
// order of the file; with `n` 0, the loopback address for all (the host's one network).
// Returns this node's host number (0 when not found).
int writeHosts(const ClusterLayout &layout, int n, const std::string &node)
{
    const std::string path = layout.etc() + "/hosts";
    std::istringstream in(base::fileText(path));
    std::string line;
    std::string out;
    int next = 1;
    int mine = 0;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string addr, name;
        words >> addr >> name;
        if (name.empty() || name == "localhost" || addr.find(':') != std::string::npos) {
            out += line + "\n";
            continue;
        }
        const int k = name == "login1" ? 254 : next++;
        if (name == node) {
            mine = k;
        }
        out += (n == 0 ? "127.0.0.1" : "10." + std::to_string(n) + ".0." + std::to_string(k)) + "\t"
            + name + "\n";
    }
    if (base::fileText(path) != out) {
        std::ofstream(path, std::ios::trunc) << out; // in place: the sandboxes bind this inode
    }
    return mine;
}

} // namespace

std::string joinClusterNetwork(const ClusterLayout &layout, const std::string &node, bool &made)
{
    made = false;
    if (!proto::hostRoot()) {
        // In minicluster's user namespace a node could have a network of its own, but the
        // bridge joining them would have to be on the host's network, which only root changes.
        return "the host's network (no namespace per node: not root)";
    }
    int lock = ::open((layout.run() + "/net.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock < 0 || ::flock(lock, LOCK_EX) != 0) {
        return "the host's network (run/net.lock: " + std::string(std::strerror(errno)) + ")";
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{lock};
    // run/net: "N HOLDER_PID" of the live cluster network.
    int n = 0;
    pid_t holder = 0;
    std::istringstream(base::fileText(layout.run() + "/net")) >> n >> holder;
    if (n == 0 || !alive(holder)) {
        holder = startHolder(layout, ::getpid());
        n = holder ? makeClusterNetwork(holder) : 0;
        if (n == 0) {
            if (holder) {
                ::kill(holder, SIGKILL);
            }
            writeHosts(layout, 0, node); // no addresses of an earlier run's network
            return "the host's network (the cluster network could not be made: ip, nsenter?)";
        }
        std::ofstream(layout.run() + "/net", std::ios::trunc) << n << ' ' << holder << '\n';
    }
    const int k = writeHosts(layout, n, node);
    if (k == 0) {
        return "the host's network (" + node + " is not in etc/hosts)";
    }
    if (k == 254) {
        return "login1: the host's network, 10." + std::to_string(n) + ".0.254";
    }
    if (::unshare(CLONE_NEWNET) != 0) {
        return "the host's network (unshare: " + std::string(std::strerror(errno)) + ")";
    }
    const std::string net = "10." + std::to_string(n) + ".0.";
    const std::string peer = "n" + std::to_string(k);
    const std::string in = std::to_string(holder);
    const bool ok = run({"ip", "link", "set", "lo", "up"})
        && run({"ip", "link", "add", "eth0", "type", "veth", "peer", "name", peer, "netns", in})
        && run({"nsenter", "-t", in, "-n", "ip", "link", "set", peer, "master", "br0", "up"})
        && run({"ip", "addr", "add", net + std::to_string(k) + "/24", "dev", "eth0"})
        && run({"ip", "link", "set", "eth0", "up"})
        && run({"ip", "route", "add", "default", "via", net + "254"});
    if (!ok) {
        return "a network namespace of its own, but not joined to the cluster's network (ip "
               "failed): the node reaches nothing";
    }
    made = true;
    return "a network namespace per node: " + net + std::to_string(k);
}

} // namespace mc::emu
