#include "mc/emu/sandbox.h"

#include "mc/proto/identity.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <dirent.h>
#include <limits.h>
#include <string_view>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mc::emu {

namespace {

bool isSymlink(const char *path)
{
    struct stat st { };
    return ::lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

bool exists(const char *path)
{
    struct stat st { };
    return ::lstat(path, &st) == 0;
}

// What of the host's /etc a node does not have: its login scripts (a CUDA or Lmod of the
// host's), the configs of its Slurm, container and GPU daemons.
constexpr std::array<std::string_view, 8> kHostOnlyEtc = {"profile.d", "slurm", "slurm-llnl",
    "munge", "docker", "containerd", "cdi", "nvidia-container-runtime"};
// Programs of the host's that a compute node has not (/usr/local is left out as a whole).
constexpr std::array<const char *, 6> kHostOnlyPrograms = {"/usr/bin/docker", "/usr/bin/dockerd",
    "/usr/bin/containerd", "/usr/bin/podman", "/usr/bin/nvidia-smi", "/usr/bin/nvcc"};

// The node image's /etc: the host's entries, bound one by one, without kHostOnlyEtc, and an
// empty /etc/profile.d (the cluster's profile is bound at /etc/profile by the login node).
void addEtc(std::vector<std::string> &a)
{
    a.insert(a.end(), {"--dir", "/etc"});
    DIR *dir = ::opendir("/etc");
    std::vector<std::string> names;
    while (dir) {
        dirent *e = ::readdir(dir);
        if (!e) {
            break;
        }
        std::string_view name = e->d_name;
        if (name == "." || name == ".."
            || std::find(kHostOnlyEtc.begin(), kHostOnlyEtc.end(), name) != kHostOnlyEtc.end()) {
            continue;
        }
        names.emplace_back(name);
    }
    if (dir) {
        ::closedir(dir);
    }
    std::sort(names.begin(), names.end());
    for (const auto &name : names) {
        std::string path = "/etc/" + name;
        std::array<char, PATH_MAX> target{};
        ssize_t n = ::readlink(path.c_str(), target.data(), target.size() - 1);
        if (n > 0) { // /etc/mtab -> ../proc/self/mounts: the link itself, not the host's target
            a.insert(
                a.end(), {"--symlink", std::string(target.data(), static_cast<size_t>(n)), path});
        } else {
            a.insert(a.end(), {"--ro-bind-try", path, path});
        }
    }
    a.insert(a.end(), {"--dir", "/etc/profile.d"});
}

} // namespace

std::string_view modeName(SandboxMode mode)
{
    return mode == SandboxMode::Bubblewrap ? "bubblewrap" : "plain";
}

SandboxProbe probeSandbox()
{
    SandboxProbe probe;
    FILE *p = ::popen("bwrap --unshare-user --unshare-uts --hostname probe --ro-bind / / "
                      "/bin/true 2>&1",
        "r");
    if (!p) {
        probe.detail = "cannot run bwrap";
        return probe;
    }
    std::string output;
    std::array<char, 256> buf{};
    while (std::fgets(buf.data(), static_cast<int>(buf.size()), p)) {
        output += buf.data();
    }
    int status = ::pclose(p);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        probe.mode = SandboxMode::Bubblewrap;
        probe.detail = "bubblewrap with unprivileged user namespaces";
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        probe.detail = "bwrap is not installed (Debian package bubblewrap)";
    } else {
        while (!output.empty() && (output.back() == '\n' || output.back() == ' ')) {
            output.pop_back();
        }
        probe.detail = "user namespaces are not available: " + output;
    }
    return probe;
}

std::vector<std::string> sandboxArgv(
    const SandboxSpec &spec, const std::vector<std::string> &command)
{
    if (spec.mode == SandboxMode::Plain) {
        return command;
    }
    // Isolated users (mc/proto/identity.h): the node's mounts are made as root (the cluster
    // directory need not be reachable by the users' ids), then the process takes the user's
    // real ids (setpriv) and a second, unprivileged bwrap maps them to the emulated ones.
    const bool isolated = proto::usersIsolated();
    std::vector<std::string> a;
    if (spec.nodePidNamespace) {
        // bwrap without --unshare-pid binds the /proc it sees: the node's, mounted here.
        a = {"unshare", "--mount-proc", "--"};
    }
    a.push_back("bwrap");
    if (!isolated) {
        a.insert(a.end(),
            {"--unshare-user", "--uid", std::to_string(spec.uid), "--gid",
                std::to_string(spec.gid)});
    }
    a.insert(a.end(), {"--unshare-uts", "--unshare-ipc", "--hostname", spec.hostname});
    if (spec.dieWithParent) {
        a.push_back("--die-with-parent");
    }
    a.insert(a.end(), {"--ro-bind", "/usr", "/usr"});
    // The node image, as on the Alliance's RHEL nodes: /bin/sh is bash (so `module`, an
    // exported function, reaches `sbatch --wrap` scripts), no /usr/local of the host's (its
    // CUDA, docker, pip-installed Pythons), none of the host's container or GPU programs.
    if (exists("/usr/bin/bash")) {
        a.insert(a.end(), {"--ro-bind", "/usr/bin/bash", "/usr/bin/sh"});
    }
    if (exists("/usr/local")) {
        a.insert(a.end(), {"--tmpfs", "/usr/local", "--remount-ro", "/usr/local"});
    }
    for (const char *program : kHostOnlyPrograms) {
        if (exists(program)) {
            a.insert(a.end(), {"--ro-bind", "/dev/null", program});
        }
    }
    for (const char *top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        if (isSymlink(top)) {
            a.insert(a.end(), {"--symlink", std::string("usr") + top, top});
        } else if (exists(top)) {
            a.insert(a.end(), {"--ro-bind", top, top});
        }
    }
    addEtc(a);
    if (!spec.passwdFile.empty()) {
        a.insert(a.end(), {"--ro-bind", spec.passwdFile, "/etc/passwd"});
    }
    if (!spec.groupFile.empty()) {
        a.insert(a.end(), {"--ro-bind", spec.groupFile, "/etc/group"});
    }
    if (!spec.hostsFile.empty()) {
        a.insert(a.end(), {"--ro-bind-try", spec.hostsFile, "/etc/hosts"});
    }
    a.insert(a.end(),
        {"--proc", "/proc", "--dev", "/dev", "--ro-bind-try", "/sys", "/sys", "--tmpfs", "/run",
            "--perms", "1777", "--dir", "/var/tmp"});
    if (isolated) {
        // bwrap's /dev/shm is root's: the user's own id could not make the shared memory that
        // Python's multiprocessing (a torch DataLoader's workers) needs. Open to all, as a node's.
        a.insert(a.end(), {"--perms", "1777", "--tmpfs", "/dev/shm"});
        // bwrap as root makes a mount point's missing parents mode 0700: the users' ids could
        // not reach /opt/minicluster/etc. Made 0755 first.
        std::vector<std::string> parents;
        for (const auto &m : spec.mounts) {
            for (auto slash = m.sandboxPath.find('/', 1); slash != std::string::npos;
                 slash = m.sandboxPath.find('/', slash + 1)) {
                parents.push_back(m.sandboxPath.substr(0, slash));
            }
        }
        std::sort(parents.begin(), parents.end());
        parents.erase(std::unique(parents.begin(), parents.end()), parents.end());
        for (const auto &dir : parents) {
            a.insert(a.end(), {"--perms", "0755", "--dir", dir});
        }
    }
    for (const auto &m : spec.mounts) {
        const char *bind = m.writable ? (m.optional ? "--bind-try" : "--bind")
                                      : (m.optional ? "--ro-bind-try" : "--ro-bind");
        a.insert(a.end(), {bind, m.hostPath, m.sandboxPath});
    }
    if (isolated) {
        a.insert(a.end(),
            {"--", "setpriv", "--reuid", std::to_string(proto::isolatedId(spec.uid)), "--regid",
                std::to_string(proto::isolatedId(spec.gid)), "--clear-groups", "--", "bwrap",
                "--unshare-user", "--uid", std::to_string(spec.uid), "--gid",
                std::to_string(spec.gid), "--dev-bind", "/", "/"});
        if (spec.dieWithParent) {
            a.push_back("--die-with-parent");
        }
    }
    if (!spec.workDir.empty()) {
        a.insert(a.end(), {"--chdir", spec.workDir});
    }
    a.push_back("--");
    a.insert(a.end(), command.begin(), command.end());
    return a;
}

SandboxView sandboxView(SandboxMode mode, const ClusterLayout &layout, const std::string &user,
    const std::string &hostBinDir)
{
    if (mode == SandboxMode::Bubblewrap) {
        return {"/home/" + user, kSandboxBin, kSandboxEtc, kSandboxRun};
    }
    return {layout.home() + "/" + user, hostBinDir, layout.etc(), layout.run()};
}

} // namespace mc::emu
