#include "mc/containers/host_process.h"

#include <climits>
#include <fcntl.h>
#include <fstream>
#include <spawn.h>
#include <sstream>
#include <string_view>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace mc::containers {

int runProgram(const std::vector<std::string> &argv, bool quiet)
{
    std::vector<char *> args;
    for (const auto &a : argv) {
        args.push_back(const_cast<char *>(a.c_str()));
    }
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (quiet) {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    }
    // The host tools that stand in for apptainer's own mounts (unsquashfs, mksquashfs, bwrap)
    // run without the node's SharedFsLatency shim: real apptainer mounts an image with no cost
    // per file, so extracting one must not pay the shared filesystem's latency per file.
    std::vector<char *> env;
    for (char **e = environ; *e != nullptr; ++e) {
        if (std::string_view(*e).rfind("LD_PRELOAD=", 0) != 0) {
            env.push_back(*e);
        }
    }
    env.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        return 127;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0) { }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return WEXITSTATUS(status);
}

bool isDirectory(const std::string &path)
{
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool pathExists(const std::string &path)
{
    struct stat st { };
    return ::lstat(path.c_str(), &st) == 0;
}

std::string readText(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

bool writeText(const std::string &path, const std::string &text, unsigned mode)
{
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) {
            return false;
        }
    }
    return ::chmod(path.c_str(), static_cast<mode_t>(mode)) == 0;
}

std::string absolutePath(const std::string &path)
{
    if (!path.empty() && path[0] == '/') {
        return path;
    }
    char buf[PATH_MAX];
    std::string cwd = ::getcwd(buf, sizeof buf) ? buf : "/";
    if (path.empty() || path == ".") {
        return cwd;
    }
    return (cwd == "/" ? "" : cwd) + "/" + (path.rfind("./", 0) == 0 ? path.substr(2) : path);
}

bool makeDirs(const std::string &path)
{
    for (std::size_t i = 1; i <= path.size(); ++i) {
        if (i == path.size() || path[i] == '/') {
            const std::string part = path.substr(0, i);
            if (::mkdir(part.c_str(), 0755) != 0 && !isDirectory(part)) {
                return false;
            }
        }
    }
    return true;
}

bool removeTree(const std::string &path)
{
    if (!pathExists(path)) {
        return true;
    }
    // Trees made by unsquashfs keep the image's modes (read-only directories): make them
    // writable first, as `rm -rf` alone would fail on them.
    runProgram({"chmod", "-R", "u+rwX", path}, true);
    return runProgram({"rm", "-rf", "--", path}, true) == 0;
}

} // namespace mc::containers
