#include "mc/launch/user_namespace.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <pwd.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace mc::launch {

namespace {

// The namespace maps uids 1..65535 (slurm's 64030 included): the first subordinate range must
// hold them. Debian's adduser gives each new user 65536.
constexpr long kIdsNeeded = 65535;

// The size of the first range of /etc/subuid or /etc/subgid for `name` or `id`; 0 if none.
long firstRange(const char *file, const std::string &name, unsigned id)
{
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string owner;
        std::string start;
        std::string count;
        if (std::getline(fields, owner, ':') && std::getline(fields, start, ':')
            && std::getline(fields, count) && (owner == name || owner == std::to_string(id))) {
            return std::atol(count.c_str());
        }
    }
    return 0;
}

// Runs `unshare ... true` as the real re-execution will: whether newuidmap maps us.
bool probeUnshare()
{
    const pid_t pid = ::fork();
    if (pid < 0) {
        return false;
    }
    if (pid == 0) {
        const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null >= 0) {
            ::dup2(null, 1);
            ::dup2(null, 2);
        }
        ::execlp("unshare", "unshare", "--user", "--map-root-user", "--map-auto", "true",
            static_cast<char *>(nullptr));
        ::_exit(127);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace

std::string userNamespaceObstacle()
{
    if (::access("/usr/bin/newuidmap", X_OK) != 0 || ::access("/usr/bin/newgidmap", X_OK) != 0) {
        return "newuidmap is not installed (Debian's uidmap package)";
    }
    const passwd *me = ::getpwuid(::getuid());
    const std::string name = me ? me->pw_name : "";
    if (firstRange("/etc/subuid", name, ::getuid()) < kIdsNeeded
        || firstRange("/etc/subgid", name, ::getuid()) < kIdsNeeded) {
        return "your user has no range of 65536 subordinate ids in /etc/subuid and /etc/subgid";
    }
    if (!probeUnshare()) {
        return "this system does not let your user create a user namespace with its "
               "subordinate ids";
    }
    return "";
}

void enterUserNamespace(char **argv)
{
    const char *mode = std::getenv("MINICLUSTER_USERNS");
    if (::geteuid() == 0 || mode != nullptr || std::getenv("MINICLUSTER_SOCKET") != nullptr) {
        return; // root already, inside one, turned off, or on the cluster's own nodes
    }
    if (!userNamespaceObstacle().empty()) {
        return; // `minicluster status` says why users are not isolated
    }
    char self[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        return;
    }
    self[n] = '\0';
    std::vector<char *> args{const_cast<char *>("unshare"), const_cast<char *>("--user"),
        const_cast<char *>("--map-root-user"), const_cast<char *>("--map-auto"),
        const_cast<char *>("--"), self};
    for (char **a = argv + 1; *a != nullptr; ++a) {
        args.push_back(*a);
    }
    args.push_back(nullptr);
    ::setenv("MINICLUSTER_USERNS", "1", 1);
    ::execvp("unshare", args.data());
    // Still here: go on without the namespace, as before.
    std::fprintf(
        stderr, "minicluster: unshare: %s: users are not isolated\n", std::strerror(errno));
    ::unsetenv("MINICLUSTER_USERNS");
}

} // namespace mc::launch
