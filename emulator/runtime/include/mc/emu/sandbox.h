#pragma once
// The node sandbox: what a process on an emulated node runs inside. With unprivileged user
// namespaces it is bubblewrap (own hostname, emulated uid, the cluster's /home, /project,
// /scratch, node-local /localscratch and /tmp, the host's /usr read-only) and the node image
// is the cluster's: /bin/sh is bash, the host's /usr/local, /etc/profile.d, Slurm, container
// and GPU configs and programs are left out (kHostOnlyEtc, kHostOnlyPrograms). Without them it is
// the plain fallback: the same process on the host with HOME and friends pointing into the
// cluster directory and a `hostname` shim first on PATH.

#include "mc/emu/cluster_layout.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mc::emu {

enum class SandboxMode { Bubblewrap, Plain };

std::string_view modeName(SandboxMode mode); // "bubblewrap" / "plain"

struct SandboxProbe {
    SandboxMode mode = SandboxMode::Plain;
    std::string detail; // why this mode ("bwrap 0.8.0 with user namespaces", "bwrap not found")
};

// Runs bwrap once with a user and a UTS namespace to see whether this machine allows them.
SandboxProbe probeSandbox();

struct SandboxSpec {
    SandboxMode mode = SandboxMode::Plain;
    std::string hostname;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    std::vector<Mount> mounts;
    std::string passwdFile; // bound over /etc/passwd
    std::string groupFile; // bound over /etc/group
    std::string hostsFile; // bound over /etc/hosts (the nodes' names); empty: the host's
    std::string workDir; // as seen inside
    // The caller is in the node's PID namespace (minicluster-noded's main.cpp): bubblewrap
    // runs under `unshare --mount-proc`, so its /proc, and the sandbox's, are the node's.
    bool nodePidNamespace = false;
    bool dieWithParent = false;
};

// The argv that runs `command` in the sandbox (bwrap ... -- command, or command itself).
std::vector<std::string> sandboxArgv(
    const SandboxSpec &spec, const std::vector<std::string> &command);

// Paths as processes see them in this mode: home of a user, the bin dir, etc/ and run/.
struct SandboxView {
    std::string home;
    std::string binDir;
    std::string etcDir;
    std::string runDir;
};
SandboxView sandboxView(SandboxMode mode, const ClusterLayout &layout, const std::string &user,
    const std::string &hostBinDir);

} // namespace mc::emu
