#include "mc/sched/site_conf.h"

#include "mc/base/text.h"
#include "mc/sched/minicluster_conf.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace mc::sched {

const SiteUser *SiteUsers::find(std::string_view name) const
{
    for (const auto &u : users) {
        if (u.name == name) {
            return &u;
        }
    }
    return nullptr;
}

SiteUsers parseSiteUsers(std::string_view text)
{
    SiteUsers out;
    for (const auto &[kind, line, words] : readSiteConf(text).linesOf(SiteKey::User)) {
        SiteUser user;
        bool hasUid = false;
        for (const auto &word : words) {
            auto eq = word.find('=');
            if (eq == std::string::npos) {
                continue; // readSiteConf() reports it
            }
            std::string key = base::toLower(word.substr(0, eq));
            std::string value = word.substr(eq + 1);
            auto number = [&](std::uint32_t &target) {
                auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), target);
                return ec == std::errc() && p == value.data() + value.size();
            };
            if (key == "user") {
                user.name = value;
            } else if (key == "uid") {
                hasUid = number(user.uid);
            } else if (key == "gid") {
                number(user.gid);
            } else if (key == "defaultaccount") {
                user.defaultAccount = value;
            } else if (key == "accounts") {
                std::stringstream list(value);
                std::string account;
                while (std::getline(list, account, ',')) {
                    if (!account.empty()) {
                        user.accounts.push_back(account);
                    }
                }
            } else if (key == "name") {
                user.fullName = value;
            }
        }
        if (!hasUid) {
            out.problems.push_back(line.where() + "User= needs UID=");
            continue;
        }
        if (user.gid == 0) {
            user.gid = user.uid;
        }
        if (!user.defaultAccount.empty()
            && std::find(user.accounts.begin(), user.accounts.end(), user.defaultAccount)
                == user.accounts.end()) {
            user.accounts.insert(user.accounts.begin(), user.defaultAccount);
        }
        out.users.push_back(std::move(user));
    }
    return out;
}

std::vector<QosConfig> parseSiteQos(std::string_view text, std::vector<std::string> &problems)
{
    std::vector<QosConfig> out;
    for (const auto &[kind, line, words] : readSiteConf(text).linesOf(SiteKey::Qos)) {
        QosConfig qos;
        qos.name = words[0].substr(4);
        bool ok = !qos.name.empty();
        for (std::size_t i = 1; i < words.size() && ok; ++i) {
            const auto eq = words[i].find('=');
            ok = eq != std::string::npos && base::toLower(words[i].substr(0, eq)) == "priority"
                && parseNonNegative(std::string_view(words[i]).substr(eq + 1), qos.priority);
        }
        if (!ok) {
            problems.push_back(line.where() + "QOS= needs a name and at most Priority=N");
            continue;
        }
        out.push_back(std::move(qos));
    }
    if (out.empty()) {
        out.push_back(QosConfig{"normal", 0});
    }
    return out;
}

} // namespace mc::sched
