#include "mc/containers/container_launch.h"

#include "mc/containers/host_process.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace mc::containers {

namespace {

constexpr const char *kContainerPath
    = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// What runs inside: the image's environment scripts, then the action. $0 is the action.
constexpr const char *kActionScript = R"(action=$0
for f in /.singularity.d/env/*.sh; do if [ -f "$f" ]; then . "$f"; fi; done
case $action in
exec)
    if ! command -v "$1" >/dev/null 2>&1; then
        echo "FATAL:   \"$1\": executable file not found in \$PATH" >&2; exit 255
    fi
    exec "$@" ;;
run)
    if [ -x /.singularity.d/runscript ]; then exec /.singularity.d/runscript "$@"; fi
    if [ -x /bin/bash ]; then exec /bin/bash --norc "$@"; fi
    exec /bin/sh "$@" ;;
test)
    if [ -x /.singularity.d/test ]; then exec /.singularity.d/test "$@"; fi
    echo "INFO:    No test script found in container, exiting" >&2; exit 0 ;;
shell)
    if [ -x /bin/bash ]; then exec /bin/bash --norc "$@"; fi
    exec /bin/sh "$@" ;;
esac
)";

// Environment kept by --cleanenv (and the GPU variables with --nv).
constexpr std::array<std::string_view, 6> kCleanKeep
    = {"HOME", "TERM", "LANG", "USER", "LOGNAME", "DISPLAY"};
constexpr std::array<std::string_view, 3> kGpuVars
    = {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL"};

std::string normalize(const std::string &path)
{
    std::vector<std::string> parts;
    std::istringstream in(path);
    std::string p;
    while (std::getline(in, p, '/')) {
        if (p.empty() || p == ".") {
            continue;
        }
        if (p == "..") {
            if (!parts.empty()) {
                parts.pop_back();
            }
            continue;
        }
        parts.push_back(p);
    }
    std::string out;
    for (const auto &part : parts) {
        out += "/" + part;
    }
    return out.empty() ? "/" : out;
}

bool under(const std::string &path, const std::string &dir)
{
    return path == dir
        || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0
            && (dir == "/" || path[dir.size()] == '/'));
}

// Binds the entries of the image's `hostDir` (seen inside as `inside`) into the new root, one
// by one; a directory that holds a bind point the image lacks is made in the tmpfs and filled
// the same way.
void underlay(const std::string &root, const std::string &hostDir, const std::string &inside,
    const std::vector<std::string> &points, std::vector<std::string> &a)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(hostDir, ec)) {
        names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    for (const auto &name : names) {
        const std::string in = (inside == "/" ? "" : inside) + "/" + name;
        const std::string host = hostDir + "/" + name;
        struct stat st { };
        if (::lstat(host.c_str(), &st) != 0
            || std::find(points.begin(), points.end(), in) != points.end()) {
            continue;
        }
        if (S_ISLNK(st.st_mode)) {
            std::string target(4096, '\0');
            ssize_t n = ::readlink(host.c_str(), target.data(), target.size() - 1);
            if (n > 0) {
                target.resize(static_cast<std::size_t>(n));
                a.insert(a.end(), {"--symlink", target, in});
            }
            continue;
        }
        // A bind point the image has (/etc/passwd, /tmp) is mounted over in place; one it has
        // not must be made, so its folder is rebuilt in the tmpfs.
        const bool holdsPoint = std::any_of(points.begin(), points.end(),
            [&](const std::string &p) { return p != in && under(p, in) && !pathExists(root + p); });
        if (S_ISDIR(st.st_mode) && holdsPoint) {
            a.insert(a.end(), {"--dir", in});
            underlay(root, host, in, points, a);
        } else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)) {
            a.insert(a.end(), {"--ro-bind", host, in});
        }
    }
}

struct Bind {
    std::string source;
    std::string destination;
    bool readOnly = false;
};

// The lines of an /etc/passwd or /etc/group file with `entry` (name:...) last and no other line
// for the same name.
std::string withEntry(const std::string &file, const std::string &entry)
{
    const std::string name = entry.substr(0, entry.find(':') + 1);
    std::istringstream in(readText(file));
    std::string out;
    std::string line;
    while (std::getline(in, line)) {
        if (name.empty() || line.rfind(name, 0) != 0) {
            out += line + "\n";
        }
    }
    return entry.empty() ? out : out + entry + "\n";
}

// Makes `path` (in the user's own copy of an image) hold `content`, replaced whole by a rename
// so that a container starting at the same time reads the old file or the new one.
void syncFile(const std::string &path, const std::string &content)
{
    struct stat st { };
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && readText(path) == content) {
        return;
    }
    const std::string tmp = path + ".mc" + std::to_string(::getpid());
    if (writeText(tmp, content) && std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
    }
}

} // namespace

bool planLaunch(const ApptainerCall &call, const ImageRoot &root, const HostContext &host,
    LaunchPlan &plan, std::string &error)
{
    auto getenv = [&](const std::string &key) {
        auto it = host.env.find(key);
        return it == host.env.end() ? std::string() : it->second;
    };
    std::vector<Bind> binds;
    std::vector<std::string> tmpfs;
    std::string home = host.home;
    std::string homeSource = host.home;
    if (!call.home.empty()) {
        const auto colon = call.home.find(':');
        homeSource = absolutePath(call.home.substr(0, colon));
        home = colon == std::string::npos ? homeSource : call.home.substr(colon + 1);
    }
    if (call.contain) {
        tmpfs = {"/tmp", "/var/tmp"};
        if (!call.noHome) {
            if (call.home.empty()) {
                tmpfs.push_back(home);
            } else {
                binds.push_back({homeSource, home, false});
            }
        }
    } else {
        if (!call.noHome) {
            binds.push_back({homeSource, home, false});
        }
        binds.push_back({"/tmp", "/tmp", false});
        binds.push_back({"/var/tmp", "/var/tmp", false});
        const std::string slurmTmp = getenv("SLURM_TMPDIR");
        if (!slurmTmp.empty() && isDirectory(slurmTmp)) {
            binds.push_back({slurmTmp, slurmTmp, false});
        }
        const bool cwdCovered = std::any_of(binds.begin(), binds.end(),
            [&](const Bind &b) { return under(host.cwd, b.destination); });
        if (!cwdCovered && host.cwd != "/") {
            binds.push_back({host.cwd, host.cwd, false});
        }
    }
    for (const auto &b : call.binds) {
        const std::string source = absolutePath(b.source);
        if (!pathExists(source)) {
            error = "container creation failed: mount hook function failure: mount " + source + "->"
                + normalize(b.destination) + " error: while mounting " + source + ": mount source "
                + source + " doesn't exist";
            return false;
        }
        binds.push_back({source, b.destination, b.readOnly});
    }
    std::vector<std::pair<std::string, std::string>> files; // host file, destination
    for (const char *f : {"/etc/hosts", "/etc/localtime", "/etc/resolv.conf"}) {
        if (pathExists(f)) {
            files.emplace_back(f, f);
        }
    }
    if (call.nv) {
        if (host.nvidiaSmi.empty()) {
            plan.warnings.push_back("Could not find any nv files on this host!");
        } else {
            files.emplace_back(host.nvidiaSmi, "/usr/bin/nvidia-smi");
        }
    }
    std::vector<std::string> points = {"/proc", "/dev", "/sys", "/etc/passwd", "/etc/group"};
    for (auto &b : binds) {
        b.destination = normalize(b.destination);
        points.push_back(b.destination);
    }
    for (const auto &t : tmpfs) {
        points.push_back(normalize(t));
    }
    for (const auto &f : files) {
        points.push_back(f.second);
    }
    // A SIF's root is the user's own unpacked copy: the bind points it lacks are made in it once,
    // so the whole root is one read-only bind (each mount costs, more so in a node sandbox's
    // large mount table). A sandbox directory is not ours to change: it gets the underlay.
    const bool wholeRoot = root.sif && !call.writableTmpfs;
    if (wholeRoot) {
        std::vector<std::string> filePoints = {"/etc/passwd", "/etc/group"};
        for (const auto &f : files) {
            filePoints.push_back(f.second);
        }
        for (const auto &b : binds) {
            if (!isDirectory(b.source)) {
                filePoints.push_back(b.destination);
            }
        }
        for (const auto &p : points) {
            const std::string inRoot = root.rootfs + p;
            if (pathExists(inRoot)) {
                continue;
            }
            if (std::find(filePoints.begin(), filePoints.end(), p) == filePoints.end()) {
                makeDirs(inRoot);
            } else if (makeDirs(inRoot.substr(0, inRoot.rfind('/')))) {
                writeText(inRoot, "");
            }
        }
    }
    std::vector<std::string> &a = plan.argv;
    a = {"bwrap", "--unshare-user"};
    if (wholeRoot) {
        a.insert(a.end(), {"--ro-bind", root.rootfs, "/"});
    } else {
        underlay(root.rootfs, root.rootfs, "/", points, a);
    }
    a.insert(a.end(),
        {"--bind", "/proc", "/proc", "--dev-bind", "/dev", "/dev", "--ro-bind-try", "/sys",
            "/sys"});
    const std::string passwd = withEntry(root.rootfs + "/etc/passwd", host.passwdLine);
    const std::string group = withEntry(root.rootfs + "/etc/group", host.groupLine);
    if (wholeRoot) { // written into the user's copy: no mount at all
        syncFile(root.rootfs + "/etc/passwd", passwd);
        syncFile(root.rootfs + "/etc/group", group);
    } else {
        plan.dataFiles = {passwd, group};
        a.insert(a.end(),
            {"--ro-bind-data", "@FD0@", "/etc/passwd", "--ro-bind-data", "@FD1@", "/etc/group"});
    }
    for (const auto &f : files) {
        if (wholeRoot && f.second.rfind("/etc/", 0) == 0) {
            syncFile(root.rootfs + f.second, readText(f.first));
        } else {
            a.insert(a.end(), {"--ro-bind", f.first, f.second});
        }
    }
    for (const auto &t : tmpfs) {
        a.insert(a.end(), {"--tmpfs", normalize(t)});
    }
    for (const auto &b : binds) {
        a.insert(a.end(), {b.readOnly ? "--ro-bind" : "--bind", b.source, b.destination});
    }
    if (!call.writableTmpfs && !wholeRoot) {
        a.insert(a.end(), {"--remount-ro", "/"});
    }
    std::string workDir = call.contain ? home : host.cwd;
    if (!call.pwd.empty()) {
        if (call.pwd[0] != '/') {
            error = "--pwd must be an absolute path: " + call.pwd;
            return false;
        }
        workDir = call.pwd;
    }
    a.insert(a.end(), {"--chdir", workDir, "--", "/bin/sh", "-c", kActionScript, call.command});
    if (call.command == "exec" || call.command == "run" || call.command == "test") {
        a.insert(a.end(), call.args.begin(), call.args.end());
    }

    // The environment: the caller's (or --cleanenv's few), APPTAINERENV_*, --env-file, --env.
    std::map<std::string, std::string> env;
    const std::string upper = call.program == "singularity" ? "SINGULARITY" : "APPTAINER";
    for (const auto &[k, v] : host.env) {
        const bool keep = !call.cleanEnv
            || std::find(kCleanKeep.begin(), kCleanKeep.end(), k) != kCleanKeep.end()
            || (call.nv && std::find(kGpuVars.begin(), kGpuVars.end(), k) != kGpuVars.end());
        // LD_PRELOAD: the node's shared-filesystem latency shim (SharedFsLatency) is a host
        // library the image does not have; inside a container the filesystems run unslowed.
        if (keep && k != "PATH" && k != "LD_LIBRARY_PATH" && k != "LD_PRELOAD"
            && k.rfind("BASH_FUNC_", 0) != 0 && k.rfind("APPTAINERENV_", 0) != 0
            && k.rfind("SINGULARITYENV_", 0) != 0) {
            env[k] = v;
        }
    }
    env["PATH"] = kContainerPath;
    env["HOME"] = home;
    for (const auto &[k, v] : host.env) {
        for (const std::string prefix : {"SINGULARITYENV_", "APPTAINERENV_"}) {
            if (k.rfind(prefix, 0) == 0 && k.size() > prefix.size()) {
                env[k.substr(prefix.size())] = v;
            }
        }
    }
    std::vector<std::string> assignments;
    if (!call.envFile.empty()) {
        std::istringstream lines(readText(absolutePath(call.envFile)));
        std::string line;
        while (std::getline(lines, line)) {
            if (!line.empty() && line[0] != '#' && line.find('=') != std::string::npos) {
                assignments.push_back(line);
            }
        }
    }
    assignments.insert(assignments.end(), call.env.begin(), call.env.end());
    for (const auto &kv : assignments) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos) {
            error = "while processing --env: " + kv + " is not KEY=VALUE";
            return false;
        }
        env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    const std::string name = root.image.substr(root.image.rfind('/') + 1);
    for (const std::string p : {"APPTAINER", "SINGULARITY"}) {
        env[p + "_CONTAINER"] = root.image;
        env[p + "_NAME"] = name;
        env[p + "_ENVIRONMENT"] = "/.singularity.d/env/91-environment.sh";
    }
    env["PS1"] = upper == "APPTAINER" ? "Apptainer> " : "Singularity> ";
    for (const auto &[k, v] : env) {
        plan.env.push_back(k + "=" + v);
    }
    return true;
}

} // namespace mc::containers
