#pragma once
// Where the shared filesystems and minicluster's run/ directory are, as the current process
// sees them: inside a node sandbox /home, /scratch, /project and /opt/minicluster/run; in the
// plain fallback (or on the host) the cluster directory's folders.

#include <string>

namespace mc::storage {

struct StorageView {
    std::string home; // parent of the users' homes
    std::string scratch;
    std::string project;
    std::string datasets;
    std::string etc;
    std::string run;

    std::string userHome(const std::string &user) const { return home + "/" + user; }
    std::string userScratch(const std::string &user) const { return scratch + "/" + user; }
    std::string accountProject(const std::string &account) const { return project + "/" + account; }
    std::string usageSnapshot() const { return run + "/storage/usage.tsv"; }
};

// The view of a cluster directory on the host.
StorageView hostView(const std::string &clusterDir);
// The view from the etc/ directory a process was given (SLURM_CONF's folder):
// /opt/minicluster/etc means inside a sandbox, anything else is <cluster>/etc on the host.
StorageView viewFromEtc(const std::string &etcDir);
// From $SLURM_CONF, else $MINICLUSTER_DIR or the default cluster directory.
StorageView currentView();

} // namespace mc::storage
