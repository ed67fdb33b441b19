#include "mc/emu/login_watcher.h"

#include "mc/base/file.h"
#include "mc/proto/socket.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mc::emu {

namespace {

struct ProcInfo {
    pid_t ppid = 0;
    std::int64_t cpuTicks = 0;
    std::string startTime; // field 22 of /proc/<pid>/stat
};

// Fields of /proc/<pid>/stat after the command name: token 0 is field 3 (state).
bool readProc(pid_t pid, ProcInfo &info)
{
    std::string text = base::fileText("/proc/" + std::to_string(pid) + "/stat");
    auto close = text.rfind(')');
    if (close == std::string::npos) {
        return false;
    }
    std::istringstream in(text.substr(close + 1));
    std::vector<std::string> t;
    for (std::string w; in >> w;) {
        t.push_back(w);
    }
    if (t.size() < 20) {
        return false;
    }
    info.ppid = static_cast<pid_t>(std::atoi(t[1].c_str()));
    info.cpuTicks = std::atoll(t[11].c_str()) + std::atoll(t[12].c_str());
    info.startTime = t[19];
    return true;
}

std::string loginDir(const ClusterLayout &layout)
{
    return layout.run() + "/login";
}

// login1's subtree below minicluster's, one per cluster directory.
std::string loginGroup(const ClusterLayout &layout)
{
    return "login1." + std::to_string(std::hash<std::string>{}(layout.dir) % 1000000007);
}

// One write of `text` into a cgroup file (cgroup.procs takes one pid per write).
bool writeCgroupFile(const std::string &file, const std::string &text, std::string &error)
{
    int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
    bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    if (!ok) {
        error = file + ": " + std::strerror(errno);
    }
    if (fd >= 0) {
        ::close(fd);
    }
    return ok;
}

bool isTerminalOrPipe(const std::string &target)
{
    return target.rfind("/dev/pts/", 0) == 0 || target.rfind("/dev/tty", 0) == 0
        || target.rfind("pipe:", 0) == 0;
}

} // namespace

void registerLoginShell(const ClusterLayout &layout, pid_t pid)
{
    ProcInfo info;
    if (!readProc(pid, info)) {
        return;
    }
    ::mkdir(loginDir(layout).c_str(), 0700);
    std::ofstream(loginDir(layout) + "/" + std::to_string(pid)) << info.startTime << '\n';
}

bool joinLoginSlice(const ClusterLayout &layout, LimitMode mode, const std::string &user,
    const LoginPolicy &policy, std::string &error)
{
    JobLimits limits;
    limits.memoryBytes = policy.memoryMaxMiB * 1024 * 1024;
    limits.pidsMax = policy.tasksMax;
    JobLimiter slice(mode, loginGroup(layout) + "/user_" + user, limits);
    if (!slice.create(error)) {
        return false;
    }
    for (const auto &file : slice.joinFiles()) {
        if (!writeCgroupFile(file, "0", error)) {
            return false;
        }
    }
    for (const auto &[resource, value] : slice.rlimits()) {
        rlimit r{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
        if (::setrlimit(resource, &r) != 0) {
            error = std::string("setrlimit: ") + std::strerror(errno);
            return false;
        }
    }
    return true;
}

LoginWatcher::LoginWatcher(proto::EventLoop &loop, LoginWatcherSettings settings)
    : m_loop(loop)
    , m_settings(std::move(settings))
    , m_watch(m_settings.policy)
{ }

LoginWatcher::~LoginWatcher()
{
    if (m_throttled) {
        m_throttled->remove(); // once its processes have ended; they stay throttled till then
    }
    if (m_settings.limits != LimitMode::Rlimit) {
        removeLoginSlices(m_settings.limits, loginGroup(m_settings.layout));
    }
}

void LoginWatcher::start()
{
    if (m_settings.policy.action == LoginAction::Off && m_settings.limits == LimitMode::Rlimit) {
        return; // nothing to watch: no CPU policy, no login cgroup to read
    }
    m_loop.addTimer(m_settings.interval, [this] { sample(); });
}

void LoginWatcher::sample()
{
    if (::access(m_settings.layout.run().c_str(), F_OK) != 0) {
        m_loop.quit(); // the cluster directory is gone
        return;
    }
    m_loop.addTimer(m_settings.interval, [this] { sample(); });
    // The registered login shells that still live.
    std::set<pid_t> roots;
    DIR *d = ::opendir(loginDir(m_settings.layout).c_str());
    if (d) {
        while (dirent *e = ::readdir(d)) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9') {
                continue;
            }
            std::string path = loginDir(m_settings.layout) + "/" + e->d_name;
            auto pid = static_cast<pid_t>(std::atoi(e->d_name));
            ProcInfo info;
            std::string recorded = base::fileText(path);
            while (!recorded.empty() && recorded.back() == '\n') {
                recorded.pop_back();
            }
            if (readProc(pid, info) && info.startTime == recorded) {
                roots.insert(pid);
            } else {
                ::unlink(path.c_str()); // that shell has ended
            }
        }
        ::closedir(d);
    }
    noteLimitHits(roots);
    if (m_settings.policy.action == LoginAction::Off) {
        return;
    }
    if (roots.empty()) {
        m_watch.observe(0, {});
        return;
    }
    // Every process, then those that descend from a login shell.
    std::map<pid_t, ProcInfo> all;
    std::map<pid_t, std::string> names;
    if (DIR *p = ::opendir("/proc")) {
        while (dirent *e = ::readdir(p)) {
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9') {
                auto pid = static_cast<pid_t>(std::atoi(e->d_name));
                ProcInfo info;
                if (readProc(pid, info)) {
                    all.emplace(pid, info);
                }
            }
        }
        ::closedir(p);
    }
    std::function<bool(pid_t, int)> onLogin = [&](pid_t pid, int depth) {
        if (roots.count(pid)) {
            return true;
        }
        auto it = all.find(pid);
        return depth < 64 && it != all.end() && it->second.ppid > 1
            && onLogin(it->second.ppid, depth + 1);
    };
    static const long ticks = ::sysconf(_SC_CLK_TCK);
    std::vector<LoginSample> samples;
    for (const auto &[pid, info] : all) {
        if (onLogin(pid, 0)) {
            std::string comm = base::fileText("/proc/" + std::to_string(pid) + "/comm");
            while (!comm.empty() && comm.back() == '\n') {
                comm.pop_back();
            }
            samples.push_back({pid, comm, info.cpuTicks * 1000 / std::max(1L, ticks)});
        }
    }
    auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now().time_since_epoch())
                   .count();
    const LoginPolicy &policy = m_watch.policy();
    for (const auto &decision : m_watch.observe(now, samples)) {
        auto pid = static_cast<pid_t>(decision.pid);
        if (decision.kind == LoginDecision::Kind::Warn) {
            tell(pid, loginWarning(policy, decision.pid, decision.command));
            std::fprintf(stderr, "minicluster-logind: warned process %d (%s)\n", decision.pid,
                decision.command.c_str());
            continue;
        }
        std::string error;
        bool throttled = decision.kind == LoginDecision::Kind::Throttle && throttle(pid, error);
        if (!throttled) {
            ::kill(pid, SIGTERM);
            m_loop.addTimer(std::chrono::seconds(2), [pid] { ::kill(pid, SIGKILL); });
        }
        tell(pid, loginActionNotice(policy, decision.pid, decision.command, throttled));
        std::fprintf(stderr, "minicluster-logind: %s process %d (%s)%s\n",
            throttled ? "throttled" : "killed", decision.pid, decision.command.c_str(),
            error.empty() ? "" : (" (cannot throttle: " + error + ")").c_str());
    }
}

void LoginWatcher::noteLimitHits(const std::set<pid_t> &roots)
{
    if (m_settings.limits == LimitMode::Rlimit) {
        return;
    }
    // Each shell's user, from the login cgroup it joined (joinLoginSlice).
    std::map<std::string, std::vector<pid_t>> shellsOf;
    for (pid_t pid : roots) {
        const std::string groups = base::fileText("/proc/" + std::to_string(pid) + "/cgroup");
        const auto at = groups.find("/user_");
        if (at != std::string::npos) {
            const auto end = groups.find_first_of("/\n", at + 6);
            shellsOf[groups.substr(at + 6, end - at - 6)].push_back(pid);
        }
    }
    for (const auto &[user, shells] : shellsOf) {
        Slice &slice = m_slices[user];
        if (!slice.cgroup) {
            JobLimits none; // opened to be read: the shells set the limits
            none.pidsMax = 0;
            auto cgroup = std::make_unique<JobLimiter>(
                m_settings.limits, loginGroup(m_settings.layout) + "/user_" + user, none);
            std::string error;
            if (!cgroup->create(error)) {
                continue;
            }
            slice.cgroup = std::move(cgroup);
        }
        const int pidsHits = slice.cgroup->pidsLimitHits();
        const int oomKills = slice.cgroup->oomKills();
        for (pid_t shell : shells) {
            if (pidsHits > slice.pidsHits) {
                tell(shell, loginTasksNotice(m_settings.policy));
            }
            if (oomKills > slice.oomKills) {
                tell(shell, loginMemoryNotice(m_settings.policy));
            }
        }
        slice.pidsHits = pidsHits;
        slice.oomKills = oomKills;
    }
}

void LoginWatcher::tell(pid_t pid, const std::string &text) const
{
    for (int fd : {2, 1}) {
        std::string link = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
        char target[256];
        ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
        if (n <= 0 || !isTerminalOrPipe(std::string(target, static_cast<std::size_t>(n)))) {
            continue;
        }
        int out = ::open(link.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_APPEND | O_CLOEXEC);
        if (out >= 0) {
            proto::writeAll(out, text);
            ::close(out);
            return;
        }
    }
}

bool LoginWatcher::throttle(pid_t pid, std::string &error)
{
    if (m_settings.limits == LimitMode::Rlimit) {
        error = "no cgroup on this machine (limits: rlimit)";
        return false;
    }
    if (!m_throttled) {
        JobLimits limits;
        limits.pidsMax = 4096;
        limits.quotaUs = static_cast<std::int64_t>(
            m_settings.policy.throttleShare * static_cast<double>(kCpuPeriodUs));
        auto group = std::make_unique<JobLimiter>(
            m_settings.limits, loginGroup(m_settings.layout) + "/throttled", limits);
        if (!group->create(error)) {
            group->remove();
            return false;
        }
        m_throttled = std::move(group);
    }
    for (const auto &file : m_throttled->joinFiles()) {
        if (!writeCgroupFile(file, std::to_string(pid), error)) {
            return false;
        }
    }
    return true;
}

} // namespace mc::emu
