#include "mc/storage/storage_conf.h"

#include "mc/base/file.h"
#include "mc/base/text.h"
#include "mc/sched/minicluster_conf.h"
#include "mc/storage/size_text.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace mc::storage {

namespace {

// "2ms", "500us", "0": microseconds; nullopt when malformed. `text` is lower-case.
std::optional<long> parseLatencyUs(const std::string &text)
{
    long value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || value < 0) {
        return std::nullopt;
    }
    std::string unit(end, text.data() + text.size());
    if (unit == "us" || (unit.empty() && value == 0)) {
        return value;
    }
    if (unit == "ms") {
        return value * 1000;
    }
    return std::nullopt;
}

constexpr std::string_view kKnown[] = {"home", "scratch", "project", "datasets", "localscratch"};

} // namespace

QuotaScope FilesystemPolicy::scope() const
{
    if (name == "home" || name == "scratch") {
        return QuotaScope::User;
    }
    if (name == "project") {
        return QuotaScope::Account;
    }
    if (name == "datasets") {
        return QuotaScope::Shared;
    }
    if (name == "localscratch") {
        return QuotaScope::Job;
    }
    return QuotaScope::None;
}

const FilesystemPolicy *StorageConf::find(std::string_view name) const
{
    for (const auto &f : filesystems) {
        if (f.name == name) {
            return &f;
        }
    }
    return nullptr;
}

StorageConf parseStorageConf(std::string_view text)
{
    StorageConf conf;
    for (const auto &[kind, line, words] : sched::readSiteConf(text).lines) {
        const std::string where = line.where();
        const std::string first = base::toLower(words[0]);
        if (kind == sched::SiteKey::StorageCheckInterval) {
            if (!sched::parseNonNegative(words[0].substr(21), conf.checkIntervalSeconds)
                || conf.checkIntervalSeconds < 1) {
                conf.problems.push_back(where + "StorageCheckInterval= needs whole seconds");
                conf.checkIntervalSeconds = 60;
            }
            continue;
        }
        if (kind == sched::SiteKey::SharedFsLatency) {
            if (auto us = parseLatencyUs(first.substr(16)); us) {
                conf.sharedFsLatencyUs = *us;
            } else {
                conf.problems.push_back(
                    where + "SharedFsLatency= needs a duration such as 2ms or 500us");
            }
            continue;
        }
        if (kind != sched::SiteKey::Filesystem) {
            continue;
        }
        FilesystemPolicy fs;
        fs.name = words[0].substr(11);
        if (std::find(std::begin(kKnown), std::end(kKnown), fs.name) == std::end(kKnown)) {
            conf.problems.push_back(where + "unknown filesystem '" + fs.name
                + "' (known: home, scratch, project, datasets, localscratch)");
            continue;
        }
        for (std::size_t i = 1; i < words.size(); ++i) {
            const auto &word = words[i];
            auto eq = word.find('=');
            std::string key = base::toLower(word.substr(0, eq));
            std::string value = eq == std::string::npos ? std::string() : word.substr(eq + 1);
            bool ok = eq != std::string::npos;
            if (key == "quota") {
                auto v = parseSize(value);
                ok = ok && v;
                fs.spaceQuota = v.value_or(0);
            } else if (key == "files") {
                auto v = parseCount(value);
                ok = ok && v;
                fs.fileQuota = v.value_or(0);
            } else if (key == "purgeafterdays") {
                ok = ok && sched::parseNonNegative(value, fs.purgeAfterDays);
            } else if (key == "purgenoticedays") {
                ok = ok && sched::parseNonNegative(value, fs.purgeNoticeDays);
            } else {
                continue; // readSiteConf() reports it
            }
            if (!ok) {
                conf.problems.push_back(where + "cannot read '" + word + "'");
            }
        }
        if (fs.purgeAfterDays > 0 && fs.name != "scratch") {
            // Only scratch is purged, on the Alliance's clusters as here: said, not ignored.
            conf.problems.push_back(where + "PurgeAfterDays= applies to scratch only (" + fs.name
                + " is never purged)");
            fs.purgeAfterDays = 0;
        }
        if (fs.purgeAfterDays > 0 && fs.purgeNoticeDays > fs.purgeAfterDays) {
            fs.purgeNoticeDays = fs.purgeAfterDays;
        }
        if (conf.find(fs.name)) {
            conf.problems.push_back(where + "filesystem '" + fs.name + "' given twice");
            continue;
        }
        conf.filesystems.push_back(fs);
    }
    return conf;
}

StorageConf readStorageConf(const std::string &etcDir)
{
    return parseStorageConf(base::fileText(etcDir + "/minicluster.conf"));
}

} // namespace mc::storage
