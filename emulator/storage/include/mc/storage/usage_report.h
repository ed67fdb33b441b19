#pragma once
// Usage against quota, per user and per account: measured by walking the trees
// (measureUsage), kept as a snapshot by the storage daemon (run/storage/usage.tsv, so that
// sbatch and the login message need no walk), and printed the way the Alliance's
// diskusage_report prints it:
//
//                              Description                Space           # of files
//                       /home (user alice)            157k/50G              13/500k
//                    /scratch (user alice)              4096/20T              1/1000k
//                 /project (group def-prof)           8192/1000G               2/500k

#include "mc/storage/storage_conf.h"
#include "mc/storage/storage_view.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mc::storage {

struct UsageLine {
    std::string filesystem; // home, scratch, project; datasets, localscratch (measureSharedUsage)
    // user (home, scratch), account (project), job id (localscratch), empty (datasets)
    std::string owner;
    std::int64_t bytes = 0;
    std::int64_t files = 0;
    std::int64_t spaceQuota = 0; // 0: none
    std::int64_t fileQuota = 0;

    bool overSpace() const { return spaceQuota > 0 && bytes > spaceQuota; }
    bool overFiles() const { return fileQuota > 0 && files > fileQuota; }
    // "/home (user alice)", "/project (group def-prof)", "/datasets (shared)",
    // "/localscratch (job 12)"
    std::string description() const;
};

// Measures the per-user and per-account filesystems of `conf` (home, scratch, project) for
// `user` and its `accounts`: what the storage node keeps in its snapshot.
std::vector<UsageLine> measureUsage(const StorageConf &conf, const StorageView &view,
    const std::string &user, const std::vector<std::string> &accounts);

// The other two filesystems of `conf`, measured for diskusage_report only: /datasets as a whole
// (shared by everyone, read-only for jobs: its quota is the space the site gives it), and the
// $SLURM_TMPDIR of job `jobId` at `tmpdir` against the localscratch quota (per job, on the
// node's own disk), when both are given and the folder exists (inside a job).
std::vector<UsageLine> measureSharedUsage(const StorageConf &conf, const StorageView &view,
    const std::string &tmpdir, const std::string &jobId);

// diskusage_report's table, header included, each line ending in '\n'.
std::string formatReport(const std::vector<UsageLine> &lines);

// One plain sentence per line over its quota ("You are over your quota on /scratch (user
// alice): 25G used of 20G. ..."); empty when every line is within quota. Nothing is ever
// deleted for being over quota: the sentences say what to do.
std::vector<std::string> overQuotaNotices(const std::vector<UsageLine> &lines);

// The snapshot: one line per filesystem and owner, with the cluster time it was measured at.
struct UsageSnapshot {
    std::int64_t measuredAt = 0; // cluster clock
    std::vector<UsageLine> lines;
};
std::string encodeSnapshot(const UsageSnapshot &snapshot);
std::optional<UsageSnapshot> decodeSnapshot(const std::string &text);
bool writeSnapshot(const std::string &path, const UsageSnapshot &snapshot); // atomic rename
std::optional<UsageSnapshot> readSnapshot(const std::string &path);

// The lines of the snapshot that concern `user` (its home and scratch, its accounts'
// projects).
std::vector<UsageLine> linesFor(const UsageSnapshot &snapshot, const std::string &user,
    const std::vector<std::string> &accounts);

// For sbatch and the login message: what the latest snapshot says `user` is over, read from
// the snapshot only (no walk, a few microseconds). Empty when within quota or when there is
// no snapshot yet. `etcDir` is the folder of SLURM_CONF.
std::vector<std::string> quotaWarnings(const std::string &etcDir, const std::string &user);

} // namespace mc::storage
