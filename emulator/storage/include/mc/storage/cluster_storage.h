#pragma once
// What `minicluster up` sets up for the storage layout and the software environment, as on the
// Alliance's clusters: in each home the links `scratch` -> /scratch/<user> and
// `projects/<account>` -> /project/<account>; in the login profile $SCRATCH, $PROJECT, Lmod with
// the cluster's module tree (StdEnv loaded, sticky) and the login message of the storage node.

#include "mc/emu/cluster_layout.h"
#include "mc/storage/storage_pass.h"

#include <string>
#include <vector>

namespace mc::storage {

// Creates or refreshes the links (a link that points elsewhere is replaced; a file or folder
// of the user's with the same name is left alone). `sandboxPaths`: links point to /scratch
// and /project as the sandbox shows them, else to the host folders (plain mode).
void linkUserDirs(
    const emu::ClusterLayout &layout, bool sandboxPaths, const std::vector<StorageUser> &users);

// The profile lines, appended to etc/profile. Paths as the login shell sees them.
struct ProfilePaths {
    std::string scratch; // /scratch
    std::string project; // /project
    std::string software; // /opt/minicluster/software
    std::string etc; // /opt/minicluster/etc (a site's own modulefiles in etc/modulefiles)
    std::string home; // /home
    std::string datasets; // /datasets
    std::string bin; // /opt/minicluster/bin (libmc_slowfs.so sits there)
    long sharedFsLatencyUs = 0; // SharedFsLatency= of minicluster.conf; 0: no slowdown
};
ProfilePaths profilePaths(
    const emu::ClusterLayout &layout, bool sandboxPaths, const std::string &hostBinDir);
std::string storageProfile(const ProfilePaths &paths, const std::vector<StorageUser> &users);

} // namespace mc::storage
