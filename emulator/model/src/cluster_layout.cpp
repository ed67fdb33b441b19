#include "mc/emu/cluster_layout.h"

namespace mc::emu {

std::vector<Mount> nodeMounts(
    const ClusterLayout &layout, const std::string &node, const std::string &binDir)
{
    return {
        {"/home", layout.home(), true},
        {"/project", layout.project(), true},
        {"/scratch", layout.scratch(), true},
        {"/datasets", layout.datasets(), false},
        {"/localscratch", layout.localScratch(node), true},
        {"/tmp", layout.tmp(node), true},
        {"/var/spool/slurmd", layout.spool(node), false},
        {kSandboxBin, binDir, false},
        {kSandboxEtc, layout.etc(), false},
        // run/ is read-only in the nodes (its pid files and settings are the daemons'); the
        // sockets answer all the same, and the shells note their history below it.
        {kSandboxRun, layout.run(), false},
        {std::string(kSandboxRun) + "/history", layout.run() + "/history", true},
        {kSandboxMan, binDir + "/../share/man", false, true},
        {kSandboxSoftware, binDir + "/../share/minicluster/software", false, true},
    };
}

std::vector<Mount> lessonMounts(
    const ClusterLayout &layout, const std::string &user, const std::string &binDir)
{
    return {
        {kSandboxLessonProgress, layout.state() + "/lessons", true, true},
        {kSandboxLessonLaptop, layout.dir + "/workstation/home/" + user, true, true},
        {kSandboxShare, binDir + "/../share/minicluster", false, true},
    };
}

std::string hostPathFor(const std::vector<Mount> &mounts, const std::string &sandboxPath)
{
    const Mount *best = nullptr;
    for (const auto &m : mounts) {
        const auto &p = m.sandboxPath;
        bool under = sandboxPath == p
            || (sandboxPath.size() > p.size() && sandboxPath.compare(0, p.size(), p) == 0
                && sandboxPath[p.size()] == '/');
        if (under && (!best || p.size() > best->sandboxPath.size())) {
            best = &m;
        }
    }
    if (!best) {
        return sandboxPath;
    }
    return best->hostPath + sandboxPath.substr(best->sandboxPath.size());
}

} // namespace mc::emu
