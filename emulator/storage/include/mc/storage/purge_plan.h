#pragma once
// The scratch purge as data (the Alliance's policy): a file's age is the time since the more
// recent of its last access (atime) and its last status change (ctime), on the cluster clock.
// A file that will be older than the policy within the notice period is listed in the user's
// notice; a listed file is purged once it is older than the policy AND it has been listed for
// the whole notice period. Using or touching a file takes it off the list. Directories stay.
// Pure: no clock, no I/O.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mc::storage {

inline constexpr std::int64_t kDay = 86400;

struct PurgeCandidate {
    std::string path;
    std::int64_t size = 0;
    std::int64_t lastUse = 0; // cluster clock: max(atime, ctime)
};

struct NoticeEntry {
    std::string path;
    std::int64_t size = 0;
    std::int64_t ageSeconds = 0;
    std::int64_t listedAt = 0; // cluster clock, first listed
    std::int64_t purgeAt = 0; // cluster clock, earliest purge
};

struct PurgeDecision {
    std::vector<NoticeEntry> notice; // still listed after this pass, oldest first
    std::vector<NoticeEntry> purge; // to delete now
};

// `listed`: path -> when it was first listed (from the previous notice).
PurgeDecision planPurge(const std::vector<PurgeCandidate> &files,
    const std::map<std::string, std::int64_t> &listed, std::int64_t now, int purgeAfterDays,
    int noticeDays);

} // namespace mc::storage
