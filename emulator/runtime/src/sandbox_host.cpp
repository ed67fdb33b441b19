#include "mc/emu/sandbox_host.h"

#include "mc/emu/process.h"
#include "mc/proto/event_loop.h"

#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mc::emu {

namespace {

constexpr std::size_t kMaxMessage = 1 << 20; // a job's environment fits with room to spare
constexpr int kMaxFds = 16;

void putList(std::string &out, const std::vector<std::string> &list)
{
    out += std::to_string(list.size());
    out += '\0';
    for (const auto &s : list) {
        out += s;
        out += '\0';
    }
}

// Splits at NULs; reading past the end yields nullopt.
class Fields {
public:
    explicit Fields(std::string_view text)
        : m_text(text)
    { }
    std::optional<std::string_view> next()
    {
        auto end = m_text.find('\0', m_pos);
        if (end == std::string_view::npos) {
            return std::nullopt;
        }
        auto field = m_text.substr(m_pos, end - m_pos);
        m_pos = end + 1;
        return field;
    }
    template <typename T> std::optional<T> number()
    {
        auto f = next();
        T value{};
        if (!f || std::from_chars(f->data(), f->data() + f->size(), value).ec != std::errc()) {
            return std::nullopt;
        }
        return value;
    }
    bool list(std::vector<std::string> &out)
    {
        auto n = number<std::size_t>();
        if (!n || *n > kMaxMessage) {
            return false;
        }
        for (std::size_t i = 0; i < *n; ++i) {
            auto f = next();
            if (!f) {
                return false;
            }
            out.emplace_back(*f);
        }
        return true;
    }
    bool atEnd() const { return m_pos == m_text.size(); }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
};

bool sendWithFds(int sock, const std::string &text, const std::vector<int> &fds)
{
    iovec iov{const_cast<char *>(text.data()), text.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    std::vector<char> control(CMSG_SPACE(sizeof(int) * fds.size()));
    if (!fds.empty()) {
        msg.msg_control = control.data();
        msg.msg_controllen = control.size();
        cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
        std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t n;
    do {
        n = ::sendmsg(sock, &msg, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n == static_cast<ssize_t>(text.size());
}

// One datagram and the descriptors that came with it (close-on-exec), and the sender's pid
// as this process sees it when the sender passed its credentials (else 0). 0 at EOF, -1 on
// error.
ssize_t receive(int sock, std::string &text, std::vector<int> &fds, pid_t *sender = nullptr)
{
    // One buffer for the process: zeroing a fresh megabyte per message was most of the
    // daemon's CPU time per job.
    static std::vector<char> buffer(kMaxMessage);
    iovec iov{buffer.data(), buffer.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds) + CMSG_SPACE(sizeof(ucred))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n;
    do {
        n = ::recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    text.assign(buffer.data(), n > 0 ? static_cast<std::size_t>(n) : 0);
    for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            std::vector<int> got(count);
            std::memcpy(got.data(), CMSG_DATA(c), sizeof(int) * count);
            fds.insert(fds.end(), got.begin(), got.end());
        } else if (sender && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
            ucred cred{};
            std::memcpy(&cred, CMSG_DATA(c), sizeof cred);
            *sender = cred.pid;
        }
    }
    return n;
}

void sendText(int sock, const std::string &text)
{
    sendWithFds(sock, text, {});
}

} // namespace

std::string encodeLaunch(const SandboxLaunch &launch)
{
    std::string out = "launch";
    out += '\0';
    putList(out, launch.argv);
    putList(out, launch.env);
    out += launch.chdir;
    out += '\0';
    out += std::to_string(launch.rlimits.size());
    out += '\0';
    for (const auto &[resource, value] : launch.rlimits) {
        out += std::to_string(resource) + '\0' + std::to_string(value) + '\0';
    }
    for (int n : {launch.cpuCount, launch.firstCpu, launch.joinFds, launch.flags}) {
        out += std::to_string(n);
        out += '\0';
    }
    return out;
}

std::optional<SandboxLaunch> decodeLaunch(std::string_view text)
{
    Fields f(text);
    SandboxLaunch l;
    if (f.next() != std::optional<std::string_view>("launch") || !f.list(l.argv) || l.argv.empty()
        || !f.list(l.env)) {
        return std::nullopt;
    }
    auto chdir = f.next();
    auto count = f.number<std::size_t>();
    if (!chdir || !count || *count > 64) {
        return std::nullopt;
    }
    l.chdir = *chdir;
    for (std::size_t i = 0; i < *count; ++i) {
        auto resource = f.number<int>();
        auto value = f.number<long long>();
        if (!resource || !value) {
            return std::nullopt;
        }
        l.rlimits.emplace_back(*resource, *value);
    }
    auto cpus = f.number<int>();
    auto first = f.number<int>();
    auto joins = f.number<int>();
    auto flags = f.number<int>();
    if (!cpus || !first || !joins || *joins < 0 || *joins > kMaxFds - 3 || !flags || !f.atEnd()) {
        return std::nullopt;
    }
    l.flags = *flags;
    l.cpuCount = *cpus;
    l.firstCpu = *first;
    l.joinFds = *joins;
    return l;
}

namespace {

// `program` on the PATH of `env` (the job's, not sandboxd's own); itself when not found.
std::string onPath(const std::string &program, const std::vector<std::string> &env)
{
    if (program.find('/') != std::string::npos) {
        return program;
    }
    std::string path;
    for (const auto &e : env) {
        if (e.rfind("PATH=", 0) == 0) {
            path = e.substr(5);
        }
    }
    std::size_t from = 0;
    while (!path.empty() && from <= path.size()) {
        std::size_t to = path.find(':', from);
        std::string dir = path.substr(from, to == std::string::npos ? to : to - from);
        std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + program;
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
        if (to == std::string::npos) {
            break;
        }
        from = to + 1;
    }
    return program;
}

} // namespace

void execLaunch(const SandboxLaunch &launch, const std::vector<int> &fds)
{
    proto::resetSignalsForChild();
    ::setsid();
    for (int i = 0; i < 3; ++i) {
        ::dup2(fds[static_cast<std::size_t>(i)], i);
    }
    if (launch.flags & kLaunchTerminal) {
        ::ioctl(0, TIOCSCTTY, 0);
    }
    const bool step = launch.flags & kLaunchStepTask;
    for (int i = 0; i < launch.joinFds; ++i) {
        int fd = fds[static_cast<std::size_t>(3 + i)];
        if (::write(fd, "0", 1) != 1) {
            std::fprintf(
                stderr, "minicluster: cannot join the job's cgroup: %s\n", std::strerror(errno));
            ::_exit(126);
        }
    }
    for (const auto &[resource, value] : launch.rlimits) {
        rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
        ::setrlimit(resource, &limit);
    }
    bindToCpus(launch.cpuCount, launch.firstCpu);
    if (!launch.chdir.empty() && ::chdir(launch.chdir.c_str()) != 0) {
        if (step) {
            std::fprintf(stderr,
                "slurmstepd: error: couldn't chdir to `%s': %s: going to /tmp instead\n",
                launch.chdir.c_str(), std::strerror(errno));
            [[maybe_unused]] int ignored = ::chdir("/tmp");
        } else {
            std::fprintf(stderr, "minicluster: cannot chdir to %s: %s\n", launch.chdir.c_str(),
                std::strerror(errno));
            ::_exit(1);
        }
    }
    std::vector<std::string> argv = launch.argv;
    std::vector<std::string> env = launch.env;
    if (step) {
        // slurmstepd tells each task its own pid on the node (this namespace's).
        std::erase_if(env, [](const std::string &e) { return e.rfind("SLURM_TASK_PID=", 0) == 0; });
        env.push_back("SLURM_TASK_PID=" + std::to_string(::getpid()));
    }
    std::vector<char *> cargv;
    std::vector<char *> cenv;
    for (auto &a : argv) {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    for (auto &e : env) {
        cenv.push_back(e.data());
    }
    cenv.push_back(nullptr);
    std::string program = onPath(argv[0], env);
    if (program.find('/') != std::string::npos) {
        ::execve(program.c_str(), cargv.data(), cenv.data());
    } else {
        ::execvpe(cargv[0], cargv.data(), cenv.data());
    }
    int error = errno;
    if (step) {
        std::fprintf(
            stderr, "slurmstepd: error: execve(): %s: %s\n", cargv[0], std::strerror(error));
        ::_exit(error == ENOENT ? 2 : 126);
    }
    std::fprintf(stderr, "minicluster: cannot run %s: %s\n", cargv[0], std::strerror(error));
    ::_exit(127);
}

int runSandboxServer(int sock)
{
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    ::sigprocmask(SIG_BLOCK, &chld, nullptr);
    int sfd = ::signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    ::fcntl(sock, F_SETFD, FD_CLOEXEC);
    std::string text;
    while (true) {
        pollfd p[2] = {{sock, POLLIN, 0}, {sfd, POLLIN, 0}};
        if (::poll(p, 2, -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            return 1;
        }
        if (p[1].revents & POLLIN) {
            signalfd_siginfo info{};
            while (::read(sfd, &info, sizeof info) == sizeof info) { }
            int status = 0;
            rusage usage{};
            pid_t pid;
            while ((pid = ::wait4(-1, &status, WNOHANG, &usage)) > 0) {
                auto ms = [](const timeval &tv) {
                    return static_cast<long long>(tv.tv_sec) * 1000 + tv.tv_usec / 1000;
                };
                sendText(sock,
                    "exited " + std::to_string(pid) + " " + std::to_string(status) + " "
                        + std::to_string(ms(usage.ru_utime) + ms(usage.ru_stime)) + " "
                        + std::to_string(usage.ru_maxrss));
            }
        }
        if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            std::vector<int> fds;
            ssize_t n = receive(sock, text, fds);
            if (n <= 0) {
                return 0; // the node daemon is gone or let us go
            }
            auto launch = decodeLaunch(text);
            if (!launch || fds.size() != static_cast<std::size_t>(3 + launch->joinFds)) {
                sendText(sock, "failed malformed launch request");
            } else {
                pid_t pid = ::fork();
                if (pid == 0) {
                    // "child <pid>" with this process's credentials: the daemon, outside the
                    // node's PID namespace, learns the pid it knows this job by.
                    const std::string hello = "child " + std::to_string(::getpid());
                    iovec iov{const_cast<char *>(hello.data()), hello.size()};
                    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(ucred))] = {};
                    msghdr msg{};
                    msg.msg_iov = &iov;
                    msg.msg_iovlen = 1;
                    msg.msg_control = control;
                    msg.msg_controllen = sizeof control;
                    cmsghdr *c = CMSG_FIRSTHDR(&msg);
                    c->cmsg_level = SOL_SOCKET;
                    c->cmsg_type = SCM_CREDENTIALS;
                    c->cmsg_len = CMSG_LEN(sizeof(ucred));
                    ucred self{::getpid(), ::getuid(), ::getgid()};
                    std::memcpy(CMSG_DATA(c), &self, sizeof self);
                    while (::sendmsg(sock, &msg, MSG_NOSIGNAL) < 0 && errno == EINTR) { }
                    execLaunch(*launch, fds);
                }
                sendText(sock,
                    pid > 0 ? "started " + std::to_string(pid)
                            : std::string("failed fork: ") + std::strerror(errno));
            }
            for (int fd : fds) {
                ::close(fd);
            }
        }
    }
}

SandboxHost::SandboxHost(proto::EventLoop &loop, SandboxSpec spec, std::string serverPath)
    : m_loop(loop)
    , m_spec(std::move(spec))
    , m_serverPath(std::move(serverPath))
{ }

SandboxHost::~SandboxHost()
{
    close();
    if (idleTimer) {
        m_loop.cancelTimer(idleTimer);
    }
}

void SandboxHost::close()
{
    if (m_fd >= 0) {
        m_loop.unwatch(m_fd);
        ::close(m_fd); // sandboxd sees EOF and leaves; its running jobs carry on
        m_fd = -1;
    }
}

bool SandboxHost::start(std::string &error)
{
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0) {
        error = std::string("socketpair: ") + std::strerror(errno);
        return false;
    }
    SandboxSpec spec = m_spec;
    spec.workDir.clear();
    spec.dieWithParent = true;
    std::vector<std::string> argv = sandboxArgv(spec, {m_serverPath, "--fd", "3"});
    std::vector<char *> cargv;
    for (auto &a : argv) {
        cargv.push_back(a.data());
    }
    cargv.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid == 0) {
        proto::resetSignalsForChild();
        ::dup2(pair[1], 3); // clears close-on-exec
        int devnull = ::open("/dev/null", O_RDONLY);
        ::dup2(devnull, 0);
        ::execvp(cargv[0], cargv.data());
        std::fprintf(stderr, "minicluster: cannot run %s: %s\n", cargv[0], std::strerror(errno));
        ::_exit(127);
    }
    ::close(pair[1]);
    if (pid < 0) {
        ::close(pair[0]);
        error = std::string("fork: ") + std::strerror(errno);
        return false;
    }
    m_pid = pid;
    m_fd = pair[0];
    int on = 1;
    ::setsockopt(m_fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
    m_loop.watch(m_fd, POLLIN, [this](short) { readMessages(false, nullptr); });
    return true;
}

pid_t SandboxHost::spawn(
    const SandboxLaunch &launch, const std::vector<int> &fds, std::string &error)
{
    if (m_fd < 0) {
        error = "the node's sandbox is gone";
        return -1;
    }
    if (!sendWithFds(m_fd, encodeLaunch(launch), fds)) {
        error = std::string("sandbox: ") + std::strerror(errno);
        return -1;
    }
    std::string reply;
    readMessages(true, &reply);
    if (reply.rfind("started ", 0) == 0) {
        const pid_t inner = std::atoi(reply.c_str() + 8);
        // The job's own "child" message may still be on its way.
        for (int tries = 0; tries < 3 && !m_outerPid.contains(inner) && m_fd >= 0; ++tries) {
            readMessages(true, nullptr);
        }
        const pid_t pid = outer(inner);
        // Exits read while waiting (other jobs) are dispatched once the caller knows this pid.
        if (!m_stashed.empty()) {
            m_loop.post([this] {
                auto stashed = std::move(m_stashed);
                m_stashed.clear();
                for (const auto &m : stashed) {
                    dispatch(m);
                }
            });
        }
        return pid;
    }
    error = reply.rfind("failed ", 0) == 0 ? reply.substr(7) : "the node's sandbox did not answer";
    return -1;
}

void SandboxHost::readMessages(bool untilReply, std::string *reply)
{
    while (m_fd >= 0) {
        pollfd p{m_fd, POLLIN, 0};
        // Waiting for a launch reply blocks the daemon at most a few seconds (a sandbox still
        // starting answers in tens of milliseconds); otherwise only what is there is read.
        int ready = ::poll(&p, 1, untilReply ? 5000 : 0);
        if (ready <= 0) {
            return;
        }
        std::string text;
        std::vector<int> fds;
        pid_t sender = 0;
        ssize_t n = receive(m_fd, text, fds, &sender);
        for (int fd : fds) {
            ::close(fd);
        }
        if (n <= 0) {
            close();
            return;
        }
        if (text.rfind("child ", 0) == 0) {
            m_outerPid[static_cast<pid_t>(std::atoi(text.c_str() + 6))] = sender;
            if (untilReply && !reply) {
                return; // spawn() waited for this one alone
            }
            continue;
        }
        if (text.rfind("exited ", 0) == 0) {
            if (untilReply) {
                m_stashed.push_back(text);
            } else {
                dispatch(text);
            }
            continue;
        }
        if (untilReply && reply) {
            *reply = text;
            return;
        }
    }
}

void SandboxHost::dispatch(const std::string &message)
{
    long long pid = 0;
    long long status = 0;
    long long cpu = 0;
    long long rss = 0;
    if (std::sscanf(message.c_str(), "exited %lld %lld %lld %lld", &pid, &status, &cpu, &rss) == 4
        && onExit) {
        const pid_t inner = static_cast<pid_t>(pid);
        const pid_t known = outer(inner);
        m_outerPid.erase(inner);
        onExit(known, static_cast<int>(status), cpu, rss);
    }
}

pid_t SandboxHost::outer(pid_t inner) const
{
    auto it = m_outerPid.find(inner);
    return it != m_outerPid.end() && it->second > 0 ? it->second : inner;
}

void SandboxHost::childExited(pid_t pid)
{
    if (pid == m_pid) {
        m_pid = 0;
        close();
    }
}

} // namespace mc::emu
