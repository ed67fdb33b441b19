#include "mc/storage/storage_pass.h"

#include "mc/base/file.h"
#include "mc/sched/site_conf.h"
#include "mc/storage/size_text.h"
#include "mc/storage/tree_scan.h"
#include "mc/storage/usage_report.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace mc::storage {

namespace {

std::map<std::string, std::int64_t> readListed(const std::string &path)
{
    std::map<std::string, std::int64_t> listed;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        auto tab = line.find('\t');
        if (tab != std::string::npos) {
            listed[line.substr(tab + 1)] = std::atoll(line.substr(0, tab).c_str());
        }
    }
    return listed;
}

void writeListed(const std::string &path, const std::vector<NoticeEntry> &notice)
{
    if (notice.empty()) {
        std::remove(path.c_str());
        return;
    }
    // The list names a user's files: only the daemons (and the laptop's owner) may read it.
    std::string tmp = path + ".tmp";
    std::string text;
    for (const auto &e : notice) {
        text += std::to_string(e.listedAt) + '\t' + e.path + '\n';
    }
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        return;
    }
    ::fchmod(fd, 0600); // a .tmp left by an older version may be 0644
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ok = ::close(fd) == 0 && ok;
    if (ok) {
        std::rename(tmp.c_str(), path.c_str());
    }
}

std::string shown(
    const std::string &hostPath, const std::string &hostRoot, const std::string &shownRoot)
{
    if (hostPath.compare(0, hostRoot.size(), hostRoot) == 0) {
        return shownRoot + hostPath.substr(hostRoot.size());
    }
    return hostPath;
}

std::string noticeText(const std::string &user, const std::string &root, std::int64_t now,
    const FilesystemPolicy &fs, const std::vector<NoticeEntry> &notice, const std::string &hostRoot)
{
    char line[512];
    std::string out = "Scratch purge notice for " + user + ", written " + isoTime(now)
        + " (cluster clock).\n\n";
    out += "The files below in " + root + " have been neither read nor changed for a long time.\n"
        + "Files unused for more than " + std::to_string(fs.purgeAfterDays) + " days are deleted "
        + "from " + root.substr(0, root.rfind('/')) + ", after being listed here for "
        + std::to_string(fs.purgeNoticeDays) + " days.\n"
        + "Each file below goes on the date shown unless it is used before. Copy what you want\n"
        + "to keep to /project or your home, then remove it from scratch yourself.\n\n";
    std::snprintf(
        line, sizeof line, "%9s  %-10s  %-19s  %s\n", "AGE(days)", "SIZE", "PURGE ON", "FILE");
    out += line;
    for (const auto &e : notice) {
        std::snprintf(line, sizeof line, "%9lld  %-10s  %-19s  %s\n",
            static_cast<long long>(e.ageSeconds / kDay), humanSize(e.size).c_str(),
            isoTime(e.purgeAt).c_str(), shown(e.path, hostRoot, root).c_str());
        out += line;
    }
    return out;
}

bool stillUnused(const std::string &path, const ClockJournal &clock, std::int64_t lastUse)
{
    struct stat st { };
    if (::lstat(path.c_str(), &st) != 0) {
        return false;
    }
    std::int64_t use = clock.clusterTimeOf(
        std::max<std::int64_t>(static_cast<std::int64_t>(st.st_atime), st.st_ctime));
    return use <= lastUse;
}

} // namespace

std::string isoTime(std::int64_t epoch)
{
    std::time_t t = static_cast<std::time_t>(epoch);
    std::tm tm{};
    ::gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    return buf;
}

std::vector<StorageUser> readStorageUsers(const std::string &etcDir)
{
    std::vector<StorageUser> users;
    for (const auto &u :
        sched::parseSiteUsers(base::fileText(etcDir + "/minicluster.conf")).users) {
        users.push_back({u.name, u.accounts});
    }
    return users;
}

PassResult runStoragePass(const StorageConf &conf, const StorageView &view, const StorageView &seen,
    const std::vector<StorageUser> &users, const ClockJournal &clock, std::int64_t now,
    const std::string &logPath)
{
    PassResult result;
    UsageSnapshot snapshot;
    snapshot.measuredAt = now;
    std::vector<std::string> accountsDone;
    const FilesystemPolicy *scratch = conf.find("scratch");
    std::string stateDir = view.run + "/storage";
    std::error_code ec;
    std::filesystem::create_directories(stateDir, ec);
    std::ofstream log;
    for (const auto &user : users) {
        ++result.usersMeasured;
        if (scratch && scratch->purgeAfterDays > 0) {
            std::vector<PurgeCandidate> files;
            std::string root = view.userScratch(user.name);
            scanTree(root, [&](const FileEntry &e) {
                files.push_back({e.path, e.size, clock.clusterTimeOf(std::max(e.atime, e.ctime))});
            });
            result.filesScanned += static_cast<std::int64_t>(files.size());
            std::string statePath = stateDir + "/purge-" + user.name + ".tsv";
            PurgeDecision d = planPurge(files, readListed(statePath), now, scratch->purgeAfterDays,
                scratch->purgeNoticeDays);
            for (const auto &e : d.purge) {
                // Used between the walk and now: it stays (and leaves the list next pass).
                if (!stillUnused(e.path, clock, now - e.ageSeconds)) {
                    continue;
                }
                if (::unlink(e.path.c_str()) != 0) {
                    result.errors.push_back("cannot purge " + e.path);
                    continue;
                }
                ++result.purged;
                result.purgedBytes += e.size;
                // Each line is flushed as its file goes: the log is never behind the scratch tree.
                if (!log.is_open()) {
                    log.open(logPath, std::ios::app);
                }
                log << isoTime(now) << " purged " << shown(e.path, view.scratch, seen.scratch)
                    << " user=" << user.name << " age=" << e.ageSeconds / kDay
                    << "d size=" << e.size << " listed=" << isoTime(e.listedAt) << std::endl;
            }
            writeListed(statePath, d.notice);
            result.listed += static_cast<int>(d.notice.size());
            std::string noticePath = view.userHome(user.name) + "/" + kNoticeFile;
            if (d.notice.empty()) {
                std::filesystem::remove(noticePath, ec);
            } else {
                std::ofstream out(noticePath, std::ios::trunc);
                out << noticeText(user.name, seen.userScratch(user.name), now, *scratch, d.notice,
                    view.userScratch(user.name));
            }
        }
        std::vector<std::string> fresh;
        for (const auto &a : user.accounts) {
            if (std::find(accountsDone.begin(), accountsDone.end(), a) == accountsDone.end()) {
                fresh.push_back(a);
                accountsDone.push_back(a);
            }
        }
        auto lines = measureUsage(conf, view, user.name, fresh);
        snapshot.lines.insert(snapshot.lines.end(), lines.begin(), lines.end());
    }
    if (!writeSnapshot(view.usageSnapshot(), snapshot)) {
        result.errors.push_back("cannot write " + view.usageSnapshot());
    }
    return result;
}

} // namespace mc::storage
