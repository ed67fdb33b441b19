#include "mc/emu/sandbox.h"

#include <array>
#include <cstdio>
#include <sys/stat.h>
#include <sys/wait.h>

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
    std::vector<std::string> a = {"bwrap", "--unshare-user", "--uid", std::to_string(spec.uid),
        "--gid", std::to_string(spec.gid), "--unshare-uts", "--unshare-ipc", "--hostname",
        spec.hostname};
    if (spec.dieWithParent) {
        a.push_back("--die-with-parent");
    }
    a.insert(a.end(), {"--ro-bind", "/usr", "/usr"});
    for (const char *top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
        if (isSymlink(top)) {
            a.insert(a.end(), {"--symlink", std::string("usr") + top, top});
        } else if (exists(top)) {
            a.insert(a.end(), {"--ro-bind", top, top});
        }
    }
    a.insert(a.end(), {"--ro-bind", "/etc", "/etc"});
    if (!spec.passwdFile.empty()) {
        a.insert(a.end(), {"--ro-bind", spec.passwdFile, "/etc/passwd"});
    }
    if (!spec.groupFile.empty()) {
        a.insert(a.end(), {"--ro-bind", spec.groupFile, "/etc/group"});
    }
    a.insert(a.end(),
        {"--proc", "/proc", "--dev", "/dev", "--ro-bind-try", "/sys", "/sys", "--tmpfs", "/run",
            "--dir", "/var/tmp"});
    for (const auto &m : spec.mounts) {
        const char *bind = m.writable ? (m.optional ? "--bind-try" : "--bind")
                                      : (m.optional ? "--ro-bind-try" : "--ro-bind");
        a.insert(a.end(), {bind, m.hostPath, m.sandboxPath});
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
