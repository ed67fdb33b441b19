#pragma once
// One pass of the storage node at cluster time `now`: measure every user's and account's usage
// into the snapshot (run/storage/usage.tsv), then, on filesystems with a purge policy, list the
// files to be purged in each user's notice (~/scratch_purge_notice.txt; state kept in
// run/storage/purge-<user>.tsv), delete the files whose notice period is over, and log each
// deletion in log/purge.log. Files are deleted by the purge policy only, never for a quota.

#include "mc/storage/clock_journal.h"
#include "mc/storage/purge_plan.h"
#include "mc/storage/storage_conf.h"
#include "mc/storage/storage_view.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mc::storage {

struct StorageUser {
    std::string name;
    std::vector<std::string> accounts;
};

struct PassResult {
    int usersMeasured = 0;
    int listed = 0; // files in notices after the pass
    int purged = 0;
    std::int64_t purgedBytes = 0;
    std::int64_t filesScanned = 0; // on purged filesystems
    std::vector<std::string> errors;
};

// The name of the notice file in each user's home.
inline constexpr const char *kNoticeFile = "scratch_purge_notice.txt";

// `view`: the host's paths, where the pass works; `seen`: the same filesystems as users see them
// (sandbox paths), for the notice and the log. `clock` reads host timestamps on the cluster
// clock; `now` is the cluster clock.
PassResult runStoragePass(const StorageConf &conf, const StorageView &view, const StorageView &seen,
    const std::vector<StorageUser> &users, const ClockJournal &clock, std::int64_t now,
    const std::string &logPath);

// The users of etc/minicluster.conf with their accounts.
std::vector<StorageUser> readStorageUsers(const std::string &etcDir);

// "2026-11-21T13:05:00" for a cluster time (UTC), as the log and the notice write it.
std::string isoTime(std::int64_t epoch);

} // namespace mc::storage
