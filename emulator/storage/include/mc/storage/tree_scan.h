#pragma once
// Walking a directory tree the way a quota system counts it: every file, directory and link
// is one entry (the top directory included), space is what is allocated on disk (st_blocks),
// as `du` and Lustre quotas count it. Links are not followed; other filesystems mounted
// below are not entered.

#include <cstdint>
#include <functional>
#include <string>

namespace mc::storage {

struct TreeUsage {
    std::int64_t bytes = 0;
    std::int64_t entries = 0;
    bool exists = false;
};

// One non-directory entry met on the walk; times are host epoch seconds.
struct FileEntry {
    std::string path; // absolute, as the walk was given it
    std::int64_t size = 0; // st_size
    std::int64_t atime = 0;
    std::int64_t ctime = 0;
    std::int64_t mtime = 0;
};

// Totals of `root`; `visit`, when given, sees every non-directory entry.
TreeUsage scanTree(
    const std::string &root, const std::function<void(const FileEntry &)> &visit = {});

} // namespace mc::storage
