#include "mc/emu/process.h"

#include "mc/proto/event_loop.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <sys/fsuid.h>
#include <sys/resource.h>
#include <unistd.h>

namespace mc::emu {

namespace {

// `path` opened from `root` (a directory descriptor, or -1: from /) when it lies under
// `rootPath`: a user's own ids need not reach the cluster directory itself.
int openUnder(int root, const std::string &rootPath, const std::string &path, int flags)
{
    if (root >= 0 && path.size() > rootPath.size() + 1 && path.rfind(rootPath + "/", 0) == 0) {
        return ::openat(root, path.c_str() + rootPath.size() + 1, flags, 0644);
    }
    return ::open(path.c_str(), flags, 0644);
}

int openOutput(const std::string &path, bool append, std::string &error, int root = -1,
    const std::string &rootPath = {})
{
    // Always O_APPEND, as slurmstepd opens a task's output (O_TRUNC too unless appending):
    // the lines the node adds (`*** JOB N ON cn01 CANCELLED AT ... ***`) are never
    // overwritten by a job that writes after its SIGTERM.
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_APPEND | (append ? 0 : O_TRUNC);
    int fd = openUnder(root, rootPath, path, flags);
    if (fd < 0) {
        error = path + ": " + std::strerror(errno);
    }
    return fd;
}

std::vector<char *> cArray(std::vector<std::string> &strings)
{
    std::vector<char *> out;
    out.reserve(strings.size() + 1);
    for (auto &s : strings) {
        out.push_back(s.data());
    }
    out.push_back(nullptr);
    return out;
}

} // namespace

namespace {

// The filesystem identity of the calling thread for a scope (setfsuid/setfsgid).
class FileIdentity {
public:
    FileIdentity(int uid, int gid)
        : m_active(uid >= 0 && gid >= 0)
    {
        if (m_active) {
            m_oldGid = ::setfsgid(static_cast<gid_t>(gid));
            m_oldUid = ::setfsuid(static_cast<uid_t>(uid));
        }
    }
    ~FileIdentity()
    {
        if (m_active) {
            ::setfsuid(static_cast<uid_t>(m_oldUid));
            ::setfsgid(static_cast<gid_t>(m_oldGid));
        }
    }
    FileIdentity(const FileIdentity &) = delete;
    FileIdentity &operator=(const FileIdentity &) = delete;

private:
    bool m_active;
    int m_oldUid = 0;
    int m_oldGid = 0;
};

} // namespace

bool openStdio(const SpawnSpec &spec, std::vector<int> &fds, std::string &error)
{
    int root = spec.fileUid >= 0 && !spec.fileRoot.empty()
        ? ::open(spec.fileRoot.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)
        : -1;
    struct CloseRoot {
        int fd;
        ~CloseRoot()
        {
            if (fd >= 0) {
                ::close(fd);
            }
        }
    } closeRoot{root};
    FileIdentity as(spec.fileUid, spec.fileGid);
    int in = openUnder(root, spec.fileRoot, spec.stdinPath, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        error = spec.stdinPath + ": " + std::strerror(errno);
        return false;
    }
    int out = openOutput(spec.stdoutPath, spec.append, error, root, spec.fileRoot);
    if (out < 0) {
        ::close(in);
        return false;
    }
    int err = -1;
    if (!spec.stderrPath.empty() && spec.stderrPath != spec.stdoutPath) {
        err = openOutput(spec.stderrPath, spec.append, error, root, spec.fileRoot);
    } else {
        err = ::fcntl(out, F_DUPFD_CLOEXEC, 0);
        if (err < 0) {
            error = std::string("dup: ") + std::strerror(errno);
        }
    }
    if (err < 0) {
        ::close(in);
        ::close(out);
        return false;
    }
    fds = {in, out, err};
    return true;
}

pid_t spawnProcess(const SpawnSpec &spec, std::string &error)
{
    std::vector<int> stdio;
    if (!openStdio(spec, stdio, error)) {
        return -1;
    }
    int in = stdio[0];
    int out = stdio[1];
    int err = stdio[2];
    std::vector<std::string> argv = spec.argv;
    std::vector<std::string> env = spec.env;
    auto cargv = cArray(argv);
    auto cenv = cArray(env);

    pid_t pid = ::fork();
    if (pid == 0) {
        proto::resetSignalsForChild();
        ::setsid();
        ::dup2(in, 0);
        ::dup2(out, 1);
        ::dup2(err, 2);
        for (const auto &file : spec.joinFiles) {
            int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
            if (fd < 0 || ::write(fd, "0", 1) != 1) {
                std::fprintf(stderr, "minicluster: cannot join %s: %s\n", file.c_str(),
                    std::strerror(errno));
                ::_exit(126);
            }
            ::close(fd);
        }
        for (const auto &[resource, value] : spec.rlimits) {
            rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
            ::setrlimit(resource, &limit);
        }
        bindToCpus(spec.cpuCount, spec.firstCpu);
        if (!spec.chdir.empty() && ::chdir(spec.chdir.c_str()) != 0) {
            ::_exit(1);
        }
        ::execvpe(cargv[0], cargv.data(), cenv.data());
        std::fprintf(stderr, "minicluster: cannot run %s: %s\n", cargv[0], std::strerror(errno));
        ::_exit(127);
    }
    int saved = errno;
    ::close(in);
    ::close(out);
    ::close(err);
    if (pid < 0) {
        error = std::string("fork: ") + std::strerror(saved);
    }
    return pid;
}

void bindToCpus(int count, int first)
{
    // The CPUs it may use now: the daemon's (inherited), or its job's cpuset once joined, of
    // which it then keeps all (hostCpus() made that cpuset by this same rule). No allocation:
    // this runs between fork and exec.
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (count <= 0 || ::sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        return;
    }
    const int usable = CPU_COUNT(&allowed);
    if (count >= usable) {
        return;
    }
    std::size_t order[CPU_SETSIZE];
    int n = 0;
    for (std::size_t c = 0; c < CPU_SETSIZE; ++c) {
        if (CPU_ISSET(c, &allowed)) {
            order[n++] = c;
        }
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = 0; i < count; ++i) {
        CPU_SET(order[(first + i) % n], &set);
    }
    ::sched_setaffinity(0, sizeof set, &set);
}

std::string executableDir()
{
    char buf[PATH_MAX];
    ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) {
        return ".";
    }
    std::string path(buf, static_cast<std::size_t>(n));
    return path.substr(0, path.rfind('/'));
}

} // namespace mc::emu
