#include "mc/storage/usage_report.h"

#include "mc/base/file.h"
#include "mc/storage/size_text.h"
#include "mc/storage/storage_conf.h"
#include "mc/storage/tree_scan.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace mc::storage {

namespace {

std::string rightAligned(const std::string &text, std::size_t width)
{
    return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

} // namespace

std::string UsageLine::description() const
{
    if (filesystem == "datasets") {
        return "/datasets (shared)";
    }
    if (filesystem == "localscratch") {
        return "/localscratch (job " + owner + ")";
    }
    bool account = filesystem == "project";
    return "/" + filesystem + (account ? " (group " : " (user ") + owner + ")";
}

std::vector<UsageLine> measureUsage(const StorageConf &conf, const StorageView &view,
    const std::string &user, const std::vector<std::string> &accounts)
{
    std::vector<UsageLine> lines;
    for (const auto &fs : conf.filesystems) {
        std::vector<std::pair<std::string, std::string>> owners; // owner, root
        if (fs.name == "home") {
            owners.emplace_back(user, view.userHome(user));
        } else if (fs.name == "scratch") {
            owners.emplace_back(user, view.userScratch(user));
        } else if (fs.name == "project") {
            for (const auto &a : accounts) {
                owners.emplace_back(a, view.accountProject(a));
            }
        }
        for (const auto &[owner, root] : owners) {
            TreeUsage u = scanTree(root);
            lines.push_back({fs.name, owner, u.bytes, u.entries, fs.spaceQuota, fs.fileQuota});
        }
    }
    return lines;
}

std::vector<UsageLine> measureSharedUsage(const StorageConf &conf, const StorageView &view,
    const std::string &tmpdir, const std::string &jobId)
{
    std::vector<UsageLine> lines;
    for (const auto &fs : conf.filesystems) {
        std::string owner;
        std::string root;
        if (fs.name == "datasets") {
            root = view.datasets;
        } else if (fs.name == "localscratch" && !tmpdir.empty() && !jobId.empty()) {
            owner = jobId;
            root = tmpdir;
        } else {
            continue;
        }
        TreeUsage u = scanTree(root);
        if (u.exists) {
            lines.push_back({fs.name, owner, u.bytes, u.entries, fs.spaceQuota, fs.fileQuota});
        }
    }
    return lines;
}

std::string formatReport(const std::vector<UsageLine> &lines)
{
    std::string out = rightAligned("Description", 40) + rightAligned("Space", 21)
        + rightAligned("# of files", 21) + "\n";
    for (const auto &l : lines) {
        std::string space
            = formatSize(l.bytes) + "/" + (l.spaceQuota > 0 ? formatSize(l.spaceQuota) : "none");
        std::string files
            = formatCount(l.files) + "/" + (l.fileQuota > 0 ? formatCount(l.fileQuota) : "none");
        out += rightAligned(l.description(), 40) + rightAligned(space, 21) + rightAligned(files, 21)
            + "\n";
    }
    return out;
}

std::vector<std::string> overQuotaNotices(const std::vector<UsageLine> &lines)
{
    std::vector<std::string> out;
    for (const auto &l : lines) {
        std::string what;
        if (l.overSpace()) {
            what = humanSize(l.bytes) + " used of " + humanSize(l.spaceQuota);
        }
        if (l.overFiles()) {
            what += (what.empty() ? "" : ", ") + std::to_string(l.files) + " files of "
                + std::to_string(l.fileQuota);
        }
        if (what.empty()) {
            continue;
        }
        if (l.filesystem == "datasets") {
            out.push_back(l.description() + " holds more than the site gives it: " + what
                + ". It is read-only for jobs: the instructor makes room there.");
            continue;
        }
        if (l.filesystem == "localscratch") {
            out.push_back("Your job is over its share of the node's local disk on "
                + l.description() + ": " + what
                + ". On a real node, writing there fails with \"No space left on device\" once "
                  "the disk is full. It is all removed when the job ends: copy your results to "
                  "/scratch or /project before that.");
            continue;
        }
        out.push_back("You are over your quota on " + l.description() + ": " + what
            + ". On a real cluster, writing there now fails with \"Disk quota exceeded\" and "
              "jobs writing there fail. Nothing is deleted for you: remove files, or archive "
              "many small files into one (tar), then check with diskusage_report.");
    }
    return out;
}

std::string encodeSnapshot(const UsageSnapshot &snapshot)
{
    std::string out = "# minicluster storage usage; measured_at (cluster clock) then "
                      "filesystem owner bytes files space_quota file_quota\n";
    out += "measured_at " + std::to_string(snapshot.measuredAt) + "\n";
    for (const auto &l : snapshot.lines) {
        out += l.filesystem + " " + l.owner + " " + std::to_string(l.bytes) + " "
            + std::to_string(l.files) + " " + std::to_string(l.spaceQuota) + " "
            + std::to_string(l.fileQuota) + "\n";
    }
    return out;
}

std::optional<UsageSnapshot> decodeSnapshot(const std::string &text)
{
    UsageSnapshot s;
    std::istringstream in(text);
    std::string line;
    bool seen = false;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::istringstream words(line);
        std::string first;
        words >> first;
        if (first == "measured_at") {
            words >> s.measuredAt;
            seen = true;
            continue;
        }
        UsageLine l;
        l.filesystem = first;
        if (!(words >> l.owner >> l.bytes >> l.files >> l.spaceQuota >> l.fileQuota)) {
            return std::nullopt;
        }
        s.lines.push_back(l);
    }
    if (!seen) {
        return std::nullopt;
    }
    return s;
}

bool writeSnapshot(const std::string &path, const UsageSnapshot &snapshot)
{
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << encodeSnapshot(snapshot);
        if (!out) {
            return false;
        }
    }
    return std::rename(tmp.c_str(), path.c_str()) == 0;
}

std::optional<UsageSnapshot> readSnapshot(const std::string &path)
{
    const auto text = base::readFile(path);
    if (!text) {
        return std::nullopt;
    }
    return decodeSnapshot(*text);
}

std::vector<UsageLine> linesFor(const UsageSnapshot &snapshot, const std::string &user,
    const std::vector<std::string> &accounts)
{
    std::vector<UsageLine> out;
    for (const auto &l : snapshot.lines) {
        bool mine = l.filesystem == "project"
            ? std::find(accounts.begin(), accounts.end(), l.owner) != accounts.end()
            : l.owner == user;
        if (mine) {
            out.push_back(l);
        }
    }
    return out;
}

std::vector<std::string> quotaWarnings(const std::string &etcDir, const std::string &user)
{
    StorageView view = viewFromEtc(etcDir);
    auto snapshot = readSnapshot(view.usageSnapshot());
    if (!snapshot) {
        return {};
    }
    // The accounts of the user: from the group file the login node shows (etc/group).
    std::vector<std::string> accounts;
    std::ifstream group(view.etc + "/group");
    for (std::string line; std::getline(group, line);) {
        auto colon = line.rfind(':');
        if (colon == std::string::npos) {
            continue;
        }
        std::stringstream members(line.substr(colon + 1));
        for (std::string m; std::getline(members, m, ',');) {
            if (m == user) {
                accounts.push_back(line.substr(0, line.find(':')));
            }
        }
    }
    return overQuotaNotices(linesFor(*snapshot, user, accounts));
}

} // namespace mc::storage
