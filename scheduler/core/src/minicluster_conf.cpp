#include "mc/sched/minicluster_conf.h"

#include "mc/base/text.h"

#include <algorithm>
#include <array>
#include <initializer_list>

namespace mc::sched {
namespace {

struct Kind {
    SiteKey kind;
    std::initializer_list<std::string_view> keys; // the first names the kind
};

const std::array<Kind, 7> kKinds{{
    {SiteKey::User, {"User", "UID", "GID", "DefaultAccount", "Accounts", "Name"}},
    {SiteKey::Qos, {"QOS", "Priority"}},
    {SiteKey::Filesystem, {"Filesystem", "Quota", "Files", "PurgeAfterDays", "PurgeNoticeDays"}},
    {SiteKey::StorageCheckInterval, {"StorageCheckInterval"}},
    {SiteKey::SharedFsLatency, {"SharedFsLatency"}},
    {SiteKey::LoginPolicy,
        {"LoginPolicy", "CpuShare", "Window", "Grace", "ThrottleShare", "MemoryMax", "TasksMax"}},
    {SiteKey::MemoryOverrun, {"MemoryOverrun", "RebootTime"}},
}};

} // namespace

std::vector<SiteConfLine> SiteConf::linesOf(SiteKey kind) const
{
    std::vector<SiteConfLine> out;
    std::copy_if(lines.begin(), lines.end(), std::back_inserter(out),
        [kind](const SiteConfLine &l) { return l.kind == kind; });
    return out;
}

std::vector<std::string_view> siteKeysOf(SiteKey kind)
{
    for (const Kind &k : kKinds) {
        if (k.kind == kind) {
            return {k.keys.begin(), k.keys.end()};
        }
    }
    return {};
}

SiteConf readSiteConf(std::string_view text)
{
    SiteConf conf;
    for (ConfLine &line : confLines(text)) {
        auto words = splitConfWords(line.text);
        if (words.empty()) {
            continue;
        }
        const std::string where = line.where();
        const std::string head = words[0].substr(0, words[0].find('='));
        const auto kind = std::find_if(kKinds.begin(), kKinds.end(),
            [&head](const Kind &k) { return base::equalsIgnoreCase(*k.keys.begin(), head); });
        if (kind == kKinds.end() || words[0].find('=') == std::string::npos) {
            conf.problems.push_back(words[0].find('=') == std::string::npos
                    ? where + "'" + words[0] + "' is not Key=Value"
                    : where + "unknown key \"" + head + "\"");
            continue;
        }
        for (std::size_t i = 1; i < words.size(); ++i) {
            const auto eq = words[i].find('=');
            if (eq == std::string::npos) {
                conf.problems.push_back(where + "'" + words[i] + "' is not Key=Value");
                continue;
            }
            const std::string key = words[i].substr(0, eq);
            const bool known = std::any_of(kind->keys.begin() + 1, kind->keys.end(),
                [&key](std::string_view k) { return base::equalsIgnoreCase(k, key); });
            if (!known) {
                conf.problems.push_back(where + "unknown key \"" + key + "\" on a "
                    + std::string(*kind->keys.begin()) + "= line");
            }
        }
        conf.lines.push_back({kind->kind, std::move(line), std::move(words)});
    }
    return conf;
}

} // namespace mc::sched
