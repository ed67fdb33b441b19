#pragma once
// Where everything of one cluster lives on the host (DESIGN.md "The cluster directory"), and
// what a node's processes see inside their sandbox.

#include <string>
#include <vector>

namespace mc::emu {

struct ClusterLayout {
    std::string dir; // absolute

    std::string etc() const { return dir + "/etc"; }
    std::string run() const { return dir + "/run"; }
    std::string state() const { return dir + "/state"; }
    std::string log() const { return dir + "/log"; }
    std::string socket() const { return run() + "/ctld.sock"; }
    // Where node daemons register (mode 0600, outside every sandbox: jobs cannot reach it).
    std::string nodeSocket() const { return state() + "/nodes.sock"; }
    std::string home() const { return dir + "/home"; }
    std::string project() const { return dir + "/project"; }
    std::string scratch() const { return dir + "/scratch"; }
    std::string datasets() const { return dir + "/datasets"; }
    std::string nodeDir(const std::string &node) const { return dir + "/nodes/" + node; }
    std::string spool(const std::string &node) const { return nodeDir(node) + "/spool"; }
    std::string localScratch(const std::string &node) const
    {
        return nodeDir(node) + "/localscratch";
    }
    std::string tmp(const std::string &node) const { return nodeDir(node) + "/tmp"; }
};

// One bind of the node sandbox: `sandboxPath` inside shows `hostPath`.
struct Mount {
    std::string sandboxPath;
    std::string hostPath;
    bool writable = true;
    bool optional = false; // skipped when hostPath does not exist (bwrap --ro-bind-try)
};

// Where minicluster's own files appear inside a node sandbox: its commands first on PATH, the
// cluster's etc/ (SLURM_CONF) and run/ (the controller's socket).
inline constexpr const char *kSandboxBin = "/opt/minicluster/bin";
inline constexpr const char *kSandboxEtc = "/opt/minicluster/etc";
inline constexpr const char *kSandboxRun = "/opt/minicluster/run";
inline constexpr const char *kSandboxMan = "/opt/minicluster/share/man";
// The software tree (Lmod modulefiles, the offline wheelhouse): <build>/share/minicluster/software.
inline constexpr const char *kSandboxSoftware = "/opt/minicluster/software";

// The cluster's mounts for `node`: /home /project /scratch /datasets (read-only) shared by all
// nodes, /localscratch, /tmp and /var/spool/slurmd from the node's own folder, and minicluster's
// bin/, etc/, run/ and the software tree under /opt/minicluster. `binDir` holds the sbatch,
// squeue, ... binaries.
std::vector<Mount> nodeMounts(
    const ClusterLayout &layout, const std::string &node, const std::string &binDir);

// What `minicluster lesson` needs in a login shell's sandbox (the app's terminal, `minicluster
// shell`), beside nodeMounts(): the lessons' progress (<cluster>/state/lessons, written), the
// user's laptop home (lesson 1's laptop files, written) and minicluster's share/ (the lessons'
// text and sample jobs, read-only, where lessonsDir(kSandboxBin) finds them).
inline constexpr const char *kSandboxLessonProgress = "/opt/minicluster/lessons/progress";
inline constexpr const char *kSandboxLessonLaptop = "/opt/minicluster/lessons/laptop";
inline constexpr const char *kSandboxShare = "/opt/minicluster/share/minicluster";
std::vector<Mount> lessonMounts(
    const ClusterLayout &layout, const std::string &user, const std::string &binDir);

// The host path behind a path as seen in the sandbox: the longest mount prefix wins; a path
// under no mount is the same on the host.
std::string hostPathFor(const std::vector<Mount> &mounts, const std::string &sandboxPath);

} // namespace mc::emu
