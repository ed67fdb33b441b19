#include "mc/storage/purge_plan.h"

#include <algorithm>

namespace mc::storage {

PurgeDecision planPurge(const std::vector<PurgeCandidate> &files,
    const std::map<std::string, std::int64_t> &listed, std::int64_t now, int purgeAfterDays,
    int noticeDays)
{
    PurgeDecision d;
    if (purgeAfterDays <= 0) {
        return d;
    }
    const std::int64_t threshold = purgeAfterDays * kDay;
    const std::int64_t notice = std::clamp(noticeDays, 0, purgeAfterDays) * kDay;
    for (const auto &f : files) {
        std::int64_t age = now - f.lastUse;
        if (age < threshold - notice) {
            continue; // young enough: not listed (or taken off the list after use)
        }
        std::int64_t listedAt = now;
        if (auto it = listed.find(f.path); it != listed.end() && it->second >= f.lastUse) {
            listedAt = it->second; // listed earlier, unused since
        }
        NoticeEntry e{
            f.path, f.size, age, listedAt, std::max(listedAt + notice, f.lastUse + threshold)};
        (now >= e.purgeAt ? d.purge : d.notice).push_back(e);
    }
    auto oldestFirst = [](const NoticeEntry &a, const NoticeEntry &b) {
        return a.ageSeconds != b.ageSeconds ? a.ageSeconds > b.ageSeconds : a.path < b.path;
    };
    std::sort(d.notice.begin(), d.notice.end(), oldestFirst);
    std::sort(d.purge.begin(), d.purge.end(), oldestFirst);
    return d;
}

} // namespace mc::storage
