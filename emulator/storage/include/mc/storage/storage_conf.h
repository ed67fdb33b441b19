#pragma once
// The storage policy of etc/minicluster.conf: one `Filesystem=` line per shared filesystem with
// its space and file-count quota and, for scratch, its purge policy; `Storage...=` keys for the
// storage daemon. Other kinds of line (User=, login policy, clock) belong to other readers and
// are skipped here.
//
//   Filesystem=home     Quota=50G   Files=500k
//   Filesystem=scratch  Quota=20T   Files=1000k PurgeAfterDays=60 PurgeNoticeDays=14
//   Filesystem=project  Quota=1000G Files=500k
//   Filesystem=datasets Quota=1T Files=1000k       (optional: the whole shared tree)
//   Filesystem=localscratch Quota=100G Files=1000k (optional: each job's $SLURM_TMPDIR)
//   StorageCheckInterval=60
//   SharedFsLatency=2ms       (optional: the slowdown of the shared filesystems, see below)
//
// home and scratch quotas are per user, project quotas per account (group), as on the
// Alliance's clusters; datasets is one tree for all, localscratch one per job. Sizes are binary (k,
// M, G, T = 1024^n bytes), file counts decimal (k = 1000). 0 or "none": no quota.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mc::storage {

// Whose usage a quota bounds: each user's tree, each account's, the whole tree (datasets),
// each job's $SLURM_TMPDIR (localscratch).
enum class QuotaScope { User, Account, Shared, Job, None };

struct FilesystemPolicy {
    std::string name; // home, scratch, project, datasets, localscratch
    std::int64_t spaceQuota = 0; // bytes; 0: none
    std::int64_t fileQuota = 0; // files and directories; 0: none
    int purgeAfterDays = 0; // 0: never purged
    int purgeNoticeDays = 14; // a file is listed this long before it goes

    QuotaScope scope() const;
};

struct StorageConf {
    std::vector<FilesystemPolicy> filesystems; // in file order
    int checkIntervalSeconds = 60; // wall-clock seconds between two passes of the daemon
    // SharedFsLatency=: a delay added to every path operation (open, stat, mkdir, ...) on
    // /home, /project, /scratch and /datasets by libmc_slowfs.so, preloaded into the login shell
    // and (through sbatch's exported environment) into jobs. Units us or ms; 0: off (default).
    long sharedFsLatencyUs = 0;
    std::vector<std::string> problems; // "line 7: unknown filesystem 'tmp'"

    const FilesystemPolicy *find(std::string_view name) const;
};

StorageConf parseStorageConf(std::string_view text);
// Reads `etcDir`/minicluster.conf; a missing file gives an empty policy.
StorageConf readStorageConf(const std::string &etcDir);

} // namespace mc::storage
