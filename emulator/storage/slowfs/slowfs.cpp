// libmc_slowfs.so: the optional slowdown of the shared filesystems (SharedFsLatency= in
// etc/minicluster.conf). Preloaded into the login shell and into jobs, it adds a fixed delay to
// every path operation (open, stat, access, mkdir, unlink, rename, opendir) on a path under one
// of the shared filesystems, as a network filesystem's metadata server does on a real cluster.
// Node-local paths ($SLURM_TMPDIR, /localscratch, /tmp) stay at the local disk's speed, so a
// student can measure why copying many small files to $SLURM_TMPDIR first pays.
//
// Environment (set by the launcher, documented in docs/design.md):
//   MC_SLOWFS_LATENCY_US  delay per operation in microseconds (0 or unset: no delay)
//   MC_SLOWFS_PATHS       colon-separated absolute prefixes, e.g. /home:/project:/scratch
//   MC_SLOWFS_COUNT_FILE  when set, the process appends "<pid> <delayed operations>" at exit
//
// It never changes what a call does or returns; it only sleeps before it. Only calls made
// through the dynamic linker are seen (statically linked programs are not slowed down).

#undef _FORTIFY_SOURCE // the wrappers below define open() and friends themselves

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace {

struct Settings {
    long latencyUs = 0;
    std::vector<std::string> prefixes;
    std::string countFile;
};

// Never destroyed: the wrappers run until the process's very last call, after static
// destructors (including CountAtExit's own open()).
Settings &settings()
{
    static Settings *s = new Settings([] {
        Settings r;
        if (const char *v = std::getenv("MC_SLOWFS_LATENCY_US")) {
            r.latencyUs = std::strtol(v, nullptr, 10);
        }
        if (const char *v = std::getenv("MC_SLOWFS_PATHS")) {
            std::string all = v;
            std::size_t start = 0;
            while (start <= all.size()) {
                std::size_t end = all.find(':', start);
                if (end == std::string::npos) {
                    end = all.size();
                }
                std::string p = all.substr(start, end - start);
                while (p.size() > 1 && p.back() == '/') {
                    p.pop_back();
                }
                if (!p.empty() && p[0] == '/') {
                    r.prefixes.push_back(p);
                }
                start = end + 1;
            }
        }
        if (const char *v = std::getenv("MC_SLOWFS_COUNT_FILE")) {
            r.countFile = v;
        }
        return r;
    }());
    return *s;
}

std::atomic<long> g_delayed{0};
thread_local bool t_inside = false; // our own getcwd/readlink must not recurse

bool underPrefix(const std::string &path)
{
    for (const std::string &p : settings().prefixes) {
        if (path.compare(0, p.size(), p) == 0
            && (path.size() == p.size() || path[p.size()] == '/')) {
            return true;
        }
    }
    return false;
}

std::string resolve(int dirfd, const char *path)
{
    if (path == nullptr) {
        return {};
    }
    if (path[0] == '/') {
        return path;
    }
    char buf[4096];
    std::string base;
    if (dirfd == AT_FDCWD) {
        if (::getcwd(buf, sizeof buf) == nullptr) {
            return {};
        }
        base = buf;
    } else {
        std::string link = "/proc/self/fd/" + std::to_string(dirfd);
        ssize_t n = ::readlink(link.c_str(), buf, sizeof buf - 1);
        if (n <= 0) {
            return {};
        }
        base.assign(buf, static_cast<std::size_t>(n));
    }
    return base + "/" + path;
}

void maybeDelay(int dirfd, const char *path)
{
    const Settings &s = settings();
    if (s.latencyUs <= 0 || s.prefixes.empty() || t_inside) {
        return;
    }
    int savedErrno = errno;
    t_inside = true;
    bool slow = underPrefix(resolve(dirfd, path));
    t_inside = false;
    if (slow) {
        g_delayed.fetch_add(1, std::memory_order_relaxed);
        timespec ts{s.latencyUs / 1000000, (s.latencyUs % 1000000) * 1000};
        while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) { }
    }
    errno = savedErrno;
}

template <typename Fn> Fn next(const char *name)
{
    return reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, name));
}

struct CountAtExit {
    ~CountAtExit()
    {
        const Settings &s = settings();
        if (s.countFile.empty()) {
            return;
        }
        int fd = ::open(s.countFile.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            return;
        }
        std::string line
            = std::to_string(::getpid()) + " " + std::to_string(g_delayed.load()) + "\n";
        ssize_t ignored = ::write(fd, line.data(), line.size());
        (void)ignored;
        ::close(fd);
    }
} g_countAtExit;

mode_t modeArg(int flags, va_list ap)
{
    if ((flags & O_CREAT) != 0 || (flags & O_TMPFILE) == O_TMPFILE) {
        return static_cast<mode_t>(va_arg(ap, int));
    }
    return 0;
}

} // namespace

// The dynamic linker's interposition: each wrapper delays, then calls the next definition.
// NOLINTBEGIN(cert-dcl50-cpp): open() and friends are variadic C interfaces.
extern "C" {

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = modeArg(flags, ap);
    va_end(ap);
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, int, ...)>("open");
    return real(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = modeArg(flags, ap);
    va_end(ap);
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, int, ...)>("open64");
    return real(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = modeArg(flags, ap);
    va_end(ap);
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, int, ...)>("openat");
    return real(dirfd, path, flags, mode);
}

int openat64(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = modeArg(flags, ap);
    va_end(ap);
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, int, ...)>("openat64");
    return real(dirfd, path, flags, mode);
}

int __open_2(const char *path, int flags)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, int)>("__open_2");
    return real(path, flags);
}

int __open64_2(const char *path, int flags)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, int)>("__open64_2");
    return real(path, flags);
}

int __openat_2(int dirfd, const char *path, int flags)
{
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, int)>("__openat_2");
    return real(dirfd, path, flags);
}

int __openat64_2(int dirfd, const char *path, int flags)
{
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, int)>("__openat64_2");
    return real(dirfd, path, flags);
}

FILE *fopen(const char *path, const char *mode)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<FILE *(*)(const char *, const char *)>("fopen");
    return real(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<FILE *(*)(const char *, const char *)>("fopen64");
    return real(path, mode);
}

int stat(const char *path, struct stat *buf)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, struct stat *)>("stat");
    return real(path, buf);
}

int stat64(const char *path, struct stat64 *buf)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, struct stat64 *)>("stat64");
    return real(path, buf);
}

int lstat(const char *path, struct stat *buf)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, struct stat *)>("lstat");
    return real(path, buf);
}

int lstat64(const char *path, struct stat64 *buf)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, struct stat64 *)>("lstat64");
    return real(path, buf);
}

int fstatat(int dirfd, const char *path, struct stat *buf, int flags)
{
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, struct stat *, int)>("fstatat");
    return real(dirfd, path, buf, flags);
}

int fstatat64(int dirfd, const char *path, struct stat64 *buf, int flags)
{
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, struct stat64 *, int)>("fstatat64");
    return real(dirfd, path, buf, flags);
}

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf)
{
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, int, unsigned int, struct statx *)>("statx");
    return real(dirfd, path, flags, mask, buf);
}

int access(const char *path, int mode)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, int)>("access");
    return real(path, mode);
}

int faccessat(int dirfd, const char *path, int mode, int flags)
{
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, int, int)>("faccessat");
    return real(dirfd, path, mode, flags);
}

DIR *opendir(const char *path)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<DIR *(*)(const char *)>("opendir");
    return real(path);
}

int mkdir(const char *path, mode_t mode)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *, mode_t)>("mkdir");
    return real(path, mode);
}

int mkdirat(int dirfd, const char *path, mode_t mode)
{
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, mode_t)>("mkdirat");
    return real(dirfd, path, mode);
}

int unlink(const char *path)
{
    maybeDelay(AT_FDCWD, path);
    static auto real = next<int (*)(const char *)>("unlink");
    return real(path);
}

int unlinkat(int dirfd, const char *path, int flags)
{
    maybeDelay(dirfd, path);
    static auto real = next<int (*)(int, const char *, int)>("unlinkat");
    return real(dirfd, path, flags);
}

int rename(const char *from, const char *to)
{
    maybeDelay(AT_FDCWD, from);
    static auto real = next<int (*)(const char *, const char *)>("rename");
    return real(from, to);
}

int renameat(int fromfd, const char *from, int tofd, const char *to)
{
    maybeDelay(fromfd, from);
    static auto real = next<int (*)(int, const char *, int, const char *)>("renameat");
    return real(fromfd, from, tofd, to);
}

} // extern "C"
// NOLINTEND(cert-dcl50-cpp)
