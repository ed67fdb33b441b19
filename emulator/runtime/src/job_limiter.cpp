#include "mc/emu/job_limiter.h"

#include "mc/base/file.h"
#include "mc/base/text.h"
#include "mc/emu/cpu_slots.h"
#include "mc/proto/identity.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mc::emu {

namespace {

constexpr const char *kSubtree = "minicluster";

bool writeText(const std::string &path, const std::string &text, std::string &error)
{
    int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0 || ::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
        error = path + ": " + std::strerror(errno);
        if (fd >= 0) {
            ::close(fd);
        }
        return false;
    }
    ::close(fd);
    return true;
}

bool isDir(const std::string &path)
{
    struct stat st { };
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// mkdir -p below `base` (which must exist); the created directories are appended to `made`.
bool makeDirs(const std::string &base, const std::string &rel, std::vector<std::string> *made,
    std::string &error)
{
    std::string path = base;
    std::istringstream parts(rel);
    std::string part;
    while (std::getline(parts, part, '/')) {
        if (part.empty()) {
            continue;
        }
        path += "/" + part;
        if (::mkdir(path.c_str(), 0755) == 0) {
            if (made) {
                made->push_back(path);
            }
        } else if (errno != EEXIST) {
            error = path + ": " + std::strerror(errno);
            return false;
        }
    }
    return true;
}

bool hasWord(const std::string &text, std::string_view word)
{
    auto w = base::splitWords(text);
    return std::find(w.begin(), w.end(), word) != w.end();
}

// Mount point of the cgroup v1 hierarchy holding `controller`, or of cgroup2 ("" if none).
std::string readCgroupMount(std::string_view controller)
{
    std::ifstream in("/proc/self/mounts");
    std::string line;
    while (std::getline(in, line)) {
        auto f = base::splitWords(line);
        if (f.size() < 4) {
            continue;
        }
        if (controller.empty() && f[2] == "cgroup2") {
            return f[1];
        }
        if (!controller.empty() && f[2] == "cgroup") {
            std::istringstream opts(f[3]);
            std::string opt;
            while (std::getline(opts, opt, ',')) {
                if (opt == controller) {
                    return f[1];
                }
            }
        }
    }
    return {};
}

// The same, read once per controller: cgroup filesystems are not remounted while a daemon
// runs, and every job's cgroups need them.
std::string cgroupMount(std::string_view controller)
{
    static std::map<std::string, std::string, std::less<>> known;
    auto it = known.find(controller);
    if (it == known.end()) {
        it = known.emplace(std::string(controller), readCgroupMount(controller)).first;
    }
    return it->second;
}

// Where minicluster's v2 subtree goes: the mount's root as root, else the nearest writable
// ancestor of our own cgroup (a systemd-delegated user subtree).
std::string v2Base(const std::string &mount)
{
    if (::geteuid() == 0 && ::access(mount.c_str(), W_OK) == 0) {
        return mount;
    }
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    std::string own;
    while (std::getline(in, line)) {
        if (line.rfind("0::", 0) == 0) {
            own = line.substr(3);
        }
    }
    while (!own.empty() && own != "/") {
        own = own.substr(0, own.rfind('/'));
        std::string dir = mount + (own.empty() ? "" : own);
        if (::access(dir.c_str(), W_OK) == 0
            && ::access((dir + "/cgroup.subtree_control").c_str(), W_OK) == 0) {
            return dir;
        }
    }
    return {};
}

std::string v2Root()
{
    std::string mount = cgroupMount("");
    if (mount.empty()) {
        return {};
    }
    std::string base = v2Base(mount);
    return base.empty() ? std::string() : base + "/" + kSubtree;
}

// Enables memory, pids, cpu and cpuset for the children of `dir` (errors are judged by the
// caller from cgroup.controllers of the children).
void enableV2Controllers(const std::string &dir)
{
    std::string error;
    for (const char *c : {"+memory", "+pids", "+cpu", "+cpuset"}) {
        writeText(dir + "/cgroup.subtree_control", c, error);
    }
}

// A cgroup v1 cpuset is empty when made (cgroup.clone_children is off) and takes no process
// until it has CPUs and memory nodes: each directory of `rel` below the cpuset hierarchy's
// `mount` that has none gets its parent's. The made directories are appended to `made`.
bool makeV1Cpusets(const std::string &mount, const std::string &rel, std::vector<std::string> &made,
    std::string &error)
{
    std::string path = mount;
    std::istringstream parts(rel);
    std::string part;
    while (std::getline(parts, part, '/')) {
        if (part.empty()) {
            continue;
        }
        const std::string parent = path;
        path += "/" + part;
        if (::mkdir(path.c_str(), 0755) == 0) {
            made.push_back(path);
        } else if (errno != EEXIST) {
            error = path + ": " + std::strerror(errno);
            return false;
        }
        for (const char *file : {"/cpuset.cpus", "/cpuset.mems"}) {
            if (base::trim(base::fileText(path + file)).empty()
                && !writeText(path + file, base::trim(base::fileText(parent + file)), error)) {
                return false;
            }
        }
    }
    return true;
}

LimitProbe probeV2()
{
    LimitProbe p;
    p.mode = LimitMode::CgroupV2;
    std::string mount = cgroupMount("");
    if (mount.empty()) {
        p.detail = "no cgroup v2 filesystem is mounted";
        return p;
    }
    std::string base = v2Base(mount);
    if (base.empty()) {
        p.detail = "cgroup v2 at " + mount + " has no subtree this user may write (no "
            + "systemd delegation)";
        return p;
    }
    enableV2Controllers(base);
    std::string error;
    if (!makeDirs(base, kSubtree, nullptr, error)) {
        p.detail = "cannot create a cgroup: " + error;
        return p;
    }
    std::string root = base + "/" + kSubtree;
    std::string controllers = base::fileText(root + "/cgroup.controllers");
    std::string missing;
    for (const char *c : {"memory", "pids"}) {
        if (!hasWord(controllers, c)) {
            missing += missing.empty() ? c : std::string(", ") + c;
        }
    }
    if (!missing.empty()) {
        ::rmdir(root.c_str());
        p.detail = "cgroup v2 at " + mount + " lacks the " + missing + " controller"
            + (missing.find(',') != std::string::npos ? "s" : "")
            + (cgroupMount("memory").empty() ? "" : " (held by cgroup v1)");
        return p;
    }
    p.ok = true;
    p.detail = "cgroup v2 at " + root + " (memory.max, cpu.max, pids.max)";
    return p;
}

LimitProbe probeV1()
{
    LimitProbe p;
    p.mode = LimitMode::CgroupV1;
    if (!proto::hostRoot()) {
        p.detail = "cgroup v1 needs root";
        return p;
    }
    for (const char *c : {"memory", "pids"}) {
        std::string mount = cgroupMount(c);
        std::string error;
        if (mount.empty()) {
            p.detail = std::string("no cgroup v1 ") + c + " hierarchy is mounted";
            return p;
        }
        if (!makeDirs(mount, kSubtree, nullptr, error)) {
            p.detail = "cannot create a cgroup: " + error;
            return p;
        }
    }
    p.ok = true;
    std::string memory = cgroupMount("memory");
    p.detail = "cgroup v1 as root (memory" + std::string(cgroupMount("cpu").empty() ? "" : ", cpu")
        + ", pids hierarchies under " + memory.substr(0, memory.rfind('/')) + ")";
    return p;
}

LimitProbe probeRlimit()
{
    LimitProbe p;
    p.ok = true;
    p.mode = LimitMode::Rlimit;
    p.detail = "rlimits and /proc polling every 250 ms (no usable cgroup)";
    return p;
}

std::int64_t numberAfter(const std::string &text, std::string_view key)
{
    std::istringstream in(text);
    std::string k;
    std::int64_t v = 0;
    while (in >> k >> v) {
        if (k == key) {
            return v;
        }
    }
    return 0;
}

std::vector<pid_t> readPids(const std::string &procsFile)
{
    std::ifstream in(procsFile);
    std::vector<pid_t> out;
    pid_t pid = 0;
    while (in >> pid) {
        out.push_back(pid);
    }
    return out;
}

// How a job's CPUs are kept, said after the mode's own detail: a cpuset (Slurm's task/cgroup
// with ConstrainCores) or, without a cpuset controller, the affinity alone, which a job could
// widen itself (task/affinity without task/cgroup).
std::string cpusetDetail(LimitMode mode)
{
    const std::string affinityOnly = "a job's CPUs are bound with sched_setaffinity only, "
                                     "which a job could undo";
    if (mode == LimitMode::CgroupV2) {
        const std::string root = v2Root();
        return hasWord(base::fileText(root + "/cgroup.controllers"), "cpuset")
            ? "; each job's CPUs in its cpuset.cpus"
            : "; no cpuset controller in cgroup v2 here: " + affinityOnly;
    }
    if (mode == LimitMode::CgroupV1) {
        return cgroupMount("cpuset").empty()
            ? "; no cgroup v1 cpuset hierarchy: " + affinityOnly
            : "; each job's CPUs in its cpuset.cpus (cgroup v1 cpuset)";
    }
    return "; " + affinityOnly + " (no cgroup)";
}

LimitProbe withCpusetDetail(LimitProbe probe)
{
    if (probe.ok) {
        probe.detail += cpusetDetail(probe.mode);
    }
    return probe;
}

LimitProbe probeMode(std::string_view wanted)
{
    if (wanted == "cgroup-v2") {
        return probeV2();
    }
    if (wanted == "cgroup-v1") {
        return probeV1();
    }
    if (wanted == "rlimit") {
        LimitProbe p = probeRlimit();
        p.detail = "rlimits and /proc polling every 250 ms (chosen with --limits rlimit)";
        return p;
    }
    if (wanted != "auto") {
        LimitProbe p;
        p.detail = "unknown limits mode '" + std::string(wanted)
            + "' (auto, cgroup-v2, cgroup-v1 or rlimit)";
        return p;
    }
    LimitProbe v2 = probeV2();
    if (v2.ok) {
        return v2;
    }
    LimitProbe v1 = probeV1();
    if (v1.ok) {
        v1.detail += "; " + v2.detail;
        return v1;
    }
    LimitProbe r = probeRlimit();
    r.detail += ": " + v2.detail + "; " + v1.detail;
    return r;
}

} // namespace

LimitProbe probeLimits(std::string_view wanted)
{
    return withCpusetDetail(probeMode(wanted));
}

JobLimiter::JobLimiter(LimitMode mode, std::string group, JobLimits limits, std::string leaf)
    : m_mode(mode)
    , m_group(std::move(group))
    , m_limits(limits)
    , m_leaf(std::move(leaf))
{ }

bool JobLimiter::create(std::string &error)
{
    if (m_mode == LimitMode::Rlimit) {
        return true;
    }
    std::string rel = std::string(kSubtree) + "/" + m_group;
    if (m_mode == LimitMode::CgroupV2) {
        std::string root = v2Root();
        if (root.empty()) {
            error = "cgroup v2 is not available";
            return false;
        }
        // Controllers are enabled level by level; the job's own cgroup (or its leaf) holds
        // the processes.
        std::string path = root.substr(0, root.rfind('/'));
        enableV2Controllers(path);
        std::string dir = path;
        std::istringstream parts(rel);
        std::string part;
        while (std::getline(parts, part, '/')) {
            enableV2Controllers(dir);
            dir += "/" + part;
            if (::mkdir(dir.c_str(), 0755) == 0) {
            } else if (errno != EEXIST) {
                error = dir + ": " + std::strerror(errno);
                return false;
            }
        }
        m_dirs = {dir}; // the directories above stay for the node's next job
        m_memoryDir = dir;
        if (!m_leaf.empty()) {
            // No processes in the job's own cgroup (cgroup v2's rule for a parent that
            // distributes controllers): they go one level down, with the same limits.
            if (!writeV2Limits(dir, error)) {
                return false;
            }
            enableV2Controllers(dir);
            dir += "/" + m_leaf;
            if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
                error = dir + ": " + std::strerror(errno);
                return false;
            }
            m_dirs.insert(m_dirs.begin(), dir);
        }
        m_procsDir = dir;
        m_cpuDir = dir;
        m_procsFiles = {dir + "/cgroup.procs"};
        return writeV2Limits(dir, error);
    }
    // cgroup v1: one directory per hierarchy.
    for (const char *c : {"memory", "pids", "cpu", "cpuacct"}) {
        std::string mount = cgroupMount(c);
        if (mount.empty()) {
            continue;
        }
        std::string dir = mount + "/" + rel;
        if (std::find(m_dirs.begin(), m_dirs.end(), dir) != m_dirs.end()) {
            continue; // cpu and cpuacct share a hierarchy
        }
        if (!makeDirs(mount, rel, nullptr, error)) {
            return false;
        }
        m_dirs.push_back(dir); // the node's directory above it stays for the next job
        std::string leafDir = dir;
        if (!m_leaf.empty()) {
            if (!writeV1Limits(c, dir, error)) {
                return false;
            }
            leafDir += "/" + m_leaf;
            if (::mkdir(leafDir.c_str(), 0755) != 0 && errno != EEXIST) {
                error = leafDir + ": " + std::strerror(errno);
                return false;
            }
            m_dirs.insert(m_dirs.begin(), leafDir); // removed before its parent
        }
        // The processes' cgroup shows the limits too (as Slurm's step cgroups do).
        if (!writeV1Limits(c, leafDir, error)) {
            return false;
        }
        m_procsFiles.push_back(leafDir + "/cgroup.procs");
        if (std::string(c) == "memory") {
            m_memoryDir = dir;
            m_procsDir = leafDir;
        }
        if (isDir(leafDir) && ::access((leafDir + "/cpuacct.usage").c_str(), R_OK) == 0) {
            m_cpuDir = leafDir;
        }
    }
    if (m_memoryDir.empty()) {
        error = "no cgroup v1 memory hierarchy";
        return false;
    }
    return createV1Cpuset(rel, error);
}

bool JobLimiter::createV1Cpuset(const std::string &rel, std::string &error)
{
    const std::string mount = cgroupMount("cpuset");
    if (mount.empty()) {
        return true; // the CPUs are bound with sched_setaffinity alone (cpusetDetail says so)
    }
    std::vector<std::string> made;
    const std::string dir = mount + "/" + rel;
    const std::string leafDir = m_leaf.empty() ? dir : dir + "/" + m_leaf;
    // Top down: the job's CPUs are written before its leaf copies them (a cpuset cannot
    // shrink below what a child of it holds).
    bool ok = makeV1Cpusets(mount, rel, made, error)
        && (m_limits.cpuSet.empty()
            || writeText(dir + "/cpuset.cpus", cpuListText(m_limits.cpuSet), error))
        && (m_leaf.empty() || makeV1Cpusets(dir, m_leaf, made, error));
    // What this limiter made goes with it, children first (the node's directories above the
    // job's are made once and stay, as in the other hierarchies).
    for (const auto &path : {leafDir, dir}) {
        if (std::find(made.begin(), made.end(), path) != made.end()
            && std::find(m_dirs.begin(), m_dirs.end(), path) == m_dirs.end()) {
            m_dirs.push_back(path);
        }
    }
    if (ok) {
        m_procsFiles.push_back(leafDir + "/cgroup.procs");
    }
    return ok;
}

bool JobLimiter::writeV2Limits(const std::string &dir, std::string &error) const
{
    std::string controllers = base::fileText(dir + "/cgroup.controllers");
    if (m_limits.memoryBytes > 0
        && !writeText(dir + "/memory.max", std::to_string(m_limits.memoryBytes), error)) {
        return false;
    }
    if (m_limits.memoryBytes > 0) {
        std::string ignored;
        writeText(dir + "/memory.swap.max", "0", ignored);
    }
    if (!m_limits.cpuSet.empty() && hasWord(controllers, "cpuset")
        && !writeText(dir + "/cpuset.cpus", cpuListText(m_limits.cpuSet), error)) {
        return false;
    }
    if (m_limits.hasCpuLimit() && hasWord(controllers, "cpu")
        && !writeText(dir + "/cpu.max",
            std::to_string(m_limits.cpuQuotaUs()) + " " + std::to_string(kCpuPeriodUs), error)) {
        return false;
    }
    return m_limits.pidsMax <= 0
        || writeText(dir + "/pids.max", std::to_string(m_limits.pidsMax), error);
}

bool JobLimiter::writeV1Limits(
    std::string_view controller, const std::string &dir, std::string &error) const
{
    if (controller == "memory" && m_limits.memoryBytes > 0) {
        std::string bytes = std::to_string(m_limits.memoryBytes);
        if (!writeText(dir + "/memory.limit_in_bytes", bytes, error)) {
            return false;
        }
        std::string ignored; // no swap accounting on many kernels
        writeText(dir + "/memory.memsw.limit_in_bytes", bytes, ignored);
    } else if (controller == "pids" && m_limits.pidsMax > 0) {
        return writeText(dir + "/pids.max", std::to_string(m_limits.pidsMax), error);
    } else if (controller == "cpu" && m_limits.hasCpuLimit()) {
        return writeText(dir + "/cpu.cfs_period_us", std::to_string(kCpuPeriodUs), error)
            && writeText(dir + "/cpu.cfs_quota_us", std::to_string(m_limits.cpuQuotaUs()), error);
    }
    return true;
}

std::vector<std::pair<int, long long>> JobLimiter::rlimits() const
{
    if (m_mode != LimitMode::Rlimit || proto::hostRoot()) {
        return {}; // the host's root ignores RLIMIT_NPROC (a user namespace's root does not)
    }
    long long mine = 0;
    DIR *d = ::opendir("/proc");
    if (d) {
        while (dirent *e = ::readdir(d)) {
            struct stat st { };
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9'
                && ::stat((std::string("/proc/") + e->d_name).c_str(), &st) == 0
                && st.st_uid == ::getuid()) {
                ++mine;
            }
        }
        ::closedir(d);
    }
    return {{RLIMIT_NPROC, mine + m_limits.pidsMax}};
}

std::vector<pid_t> JobLimiter::pids(pid_t leader) const
{
    if (m_mode != LimitMode::Rlimit) {
        return readPids(m_procsDir + "/cgroup.procs");
    }
    std::vector<pid_t> out;
    DIR *d = ::opendir("/proc");
    if (!d) {
        return out;
    }
    while (dirent *e = ::readdir(d)) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') {
            continue;
        }
        auto st = parseProcStat(base::fileText(std::string("/proc/") + e->d_name + "/stat"));
        if (st && st->session == leader) {
            out.push_back(st->pid);
        }
    }
    ::closedir(d);
    return out;
}

std::vector<ProcStat> JobLimiter::scanProcesses()
{
    std::vector<ProcStat> out;
    DIR *d = ::opendir("/proc");
    if (!d) {
        return out;
    }
    while (dirent *e = ::readdir(d)) {
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9') {
            if (auto st
                = parseProcStat(base::fileText(std::string("/proc/") + e->d_name + "/stat"))) {
                out.push_back(*st);
            }
        }
    }
    ::closedir(d);
    return out;
}

JobLimiter::Sample JobLimiter::sample(pid_t leader, const std::vector<ProcStat> *table) const
{
    Sample s;
    static const long pageKb = ::sysconf(_SC_PAGESIZE) / 1024;
    static const long ticks = ::sysconf(_SC_CLK_TCK);
    std::int64_t cpuTicks = 0;
    auto count = [&](const ProcStat &st) {
        ++s.processes;
        s.rssKb += st.rssPages * pageKb;
        cpuTicks += st.cpuTicks;
    };
    if (table && m_mode == LimitMode::Rlimit) {
        for (const auto &st : *table) {
            if (st.session == leader) {
                count(st);
            }
        }
    } else {
        for (pid_t pid : pids(leader)) {
            if (auto st = parseProcStat(base::fileText("/proc/" + std::to_string(pid) + "/stat"))) {
                count(*st);
            }
        }
    }
    s.cpuMs = cpuTicks * 1000 / std::max(1L, ticks);
    if (m_mode == LimitMode::CgroupV1 && !m_cpuDir.empty()) {
        std::int64_t ns
            = std::strtoll(base::fileText(m_cpuDir + "/cpuacct.usage").c_str(), nullptr, 10);
        s.cpuMs = std::max<std::int64_t>(s.cpuMs, ns / 1000000);
    } else if (m_mode == LimitMode::CgroupV2) {
        s.cpuMs = std::max(
            s.cpuMs, numberAfter(base::fileText(m_cpuDir + "/cpu.stat"), "usage_usec") / 1000);
    }
    return s;
}

int JobLimiter::oomKills() const
{
    if (m_mode == LimitMode::CgroupV1) {
        return static_cast<int>(
            numberAfter(base::fileText(m_procsDir + "/memory.oom_control"), "oom_kill"));
    }
    if (m_mode == LimitMode::CgroupV2) {
        return static_cast<int>(
            numberAfter(base::fileText(m_procsDir + "/memory.events"), "oom_kill"));
    }
    return 0;
}

int JobLimiter::pidsLimitHits() const
{
    for (const auto &dir : m_dirs) { // v2: the one cgroup; v1: the pids hierarchy's
        if (m_mode == LimitMode::CgroupV2 || dir.find("/pids/") != std::string::npos) {
            return static_cast<int>(numberAfter(base::fileText(dir + "/pids.events"), "max"));
        }
    }
    return 0;
}

void JobLimiter::signalAll(pid_t leader, int signal, bool spareLeader) const
{
    // The job's processes are listed before any is signalled: a process its shell starts after
    // handling the signal (a trap that goes on) is not hit by a signal sent before it existed.
    const std::vector<pid_t> list = pids(leader);
    if (!spareLeader) {
        ::kill(-leader, signal);
    }
    for (pid_t pid : list) {
        if (pid != leader || !spareLeader) {
            ::kill(pid, signal);
        }
    }
}

bool JobLimiter::freeze(bool frozen) const
{
    if (m_mode != LimitMode::CgroupV2 || m_dirs.empty()) {
        return false;
    }
    // The job's own cgroup is the last (m_dirs lists children first): its leaves freeze with it.
    std::ofstream file(m_dirs.back() + "/cgroup.freeze");
    file << (frozen ? "1" : "0");
    file.flush();
    return static_cast<bool>(file);
}

bool JobLimiter::remove()
{
    std::erase_if(m_dirs,
        [](const std::string &dir) { return ::rmdir(dir.c_str()) == 0 || errno == ENOENT; });
    return m_dirs.empty();
}

namespace {

std::vector<std::string> nodeRoots(LimitMode mode, const std::string &nodeGroup)
{
    std::vector<std::string> roots;
    if (mode == LimitMode::CgroupV2) {
        std::string root = v2Root();
        if (!root.empty()) {
            roots.push_back(root + "/" + nodeGroup);
        }
    } else if (mode == LimitMode::CgroupV1) {
        for (const char *c : {"memory", "pids", "cpu", "cpuacct", "cpuset"}) {
            std::string mount = cgroupMount(c);
            std::string dir = mount + "/" + kSubtree + "/" + nodeGroup;
            if (!mount.empty() && std::find(roots.begin(), roots.end(), dir) == roots.end()) {
                roots.push_back(dir);
            }
        }
    }
    return roots;
}

} // namespace

void removeNodeCgroups(LimitMode mode, const std::string &nodeGroup)
{
    reapOrphanCgroups(mode, nodeGroup);
    for (const auto &root : nodeRoots(mode, nodeGroup)) {
        ::rmdir(root.c_str());
    }
}

void removeLoginSlices(LimitMode mode, const std::string &loginGroup)
{
    for (const auto &root : nodeRoots(mode, loginGroup)) {
        std::vector<std::string> slices;
        if (DIR *d = ::opendir(root.c_str())) {
            while (dirent *e = ::readdir(d)) {
                if (std::strncmp(e->d_name, "user_", 5) == 0) {
                    slices.push_back(root + "/" + e->d_name);
                }
            }
            ::closedir(d);
        }
        for (const auto &slice : slices) {
            ::rmdir(slice.c_str()); // fails, and stays, while a session still lives in it
        }
        ::rmdir(root.c_str());
    }
}

int reapOrphanCgroups(LimitMode mode, const std::string &nodeGroup)
{
    std::vector<std::string> roots = nodeRoots(mode, nodeGroup);
    int found = 0;
    for (const auto &root : roots) {
        DIR *d = ::opendir(root.c_str());
        if (!d) {
            continue;
        }
        std::vector<std::string> jobs;
        while (dirent *e = ::readdir(d)) {
            if (std::strncmp(e->d_name, "job_", 4) == 0) {
                jobs.push_back(root + "/" + e->d_name);
            }
        }
        ::closedir(d);
        for (const auto &job : jobs) {
            // The job's steps (step_batch, step_N) below it, removed before it.
            std::vector<std::string> dirs;
            if (DIR *sub = ::opendir(job.c_str())) {
                while (dirent *e = ::readdir(sub)) {
                    if (std::strncmp(e->d_name, "step_", 5) == 0) {
                        dirs.push_back(job + "/" + e->d_name);
                    }
                }
                ::closedir(sub);
            }
            dirs.push_back(job);
            for (const auto &dir : dirs) {
                for (pid_t pid : readPids(dir + "/cgroup.procs")) {
                    ::kill(pid, SIGKILL);
                }
            }
            ++found;
            for (const auto &dir : dirs) {
                for (int i = 0; i < 50 && ::rmdir(dir.c_str()) != 0 && errno == EBUSY; ++i) {
                    ::usleep(10000); // the killed processes leave the cgroup within milliseconds
                }
            }
        }
    }
    return mode == LimitMode::CgroupV1 ? found / std::max<int>(1, static_cast<int>(roots.size()))
                                       : found;
}

} // namespace mc::emu
