#pragma once
// Creating and preparing a cluster directory: the preset's etc/ files copied once (then they
// belong to the user), and everything derived from them written again at every `up`:
// etc/passwd, etc/group, etc/profile, home folders, node folders, the plain mode's shims.

#include "mc/emu/cluster_layout.h"
#include "mc/emu/sandbox.h"

#include <string>
#include <vector>

namespace mc::launch {

struct SetupResult {
    bool ok = false;
    std::string error;
    std::vector<std::string> nodes; // compute nodes of etc/slurm.conf
    std::vector<std::string> users; // emulated users of etc/minicluster.conf
    std::vector<std::string> warnings;
    int killWait = 30;
    // slurm.conf's keys that minicluster accepts without acting on them (`up` names them).
    std::vector<std::string> notImplemented;
};

// Directory holding the shipped presets (<prefix>/share/minicluster/presets next to bin/).
std::string presetsDir(const std::string &binDir);

// Creates `layout.dir` from `preset` if it has no etc/slurm.conf yet, then (re)writes the
// derived files for `mode`. Never deletes user data.
SetupResult prepareCluster(const emu::ClusterLayout &layout, const std::string &preset,
    const std::string &binDir, emu::SandboxMode mode);

} // namespace mc::launch
