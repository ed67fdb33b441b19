#include "mc/sched/site_conf.h"

#include <algorithm>
#include <charconv>
#include <sstream>

namespace mc::sched {

namespace {

std::vector<std::string> splitWords(std::string_view line)
{
    std::vector<std::string> words;
    std::string current;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if ((c == ' ' || c == '\t') && !quoted) {
            if (!current.empty()) {
                words.push_back(std::move(current));
                current.clear();
            }
        } else {
            current += c;
        }
    }
    if (!current.empty()) {
        words.push_back(std::move(current));
    }
    return words;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

} // namespace

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
    std::istringstream in{std::string(text)};
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (auto hash = line.find('#'); hash != std::string::npos) {
            line.erase(hash);
        }
        auto words = splitWords(line);
        if (words.empty() || lower(words[0].substr(0, 5)) != "user=") {
            continue;
        }
        SiteUser user;
        bool hasUid = false;
        for (const auto &word : words) {
            auto eq = word.find('=');
            if (eq == std::string::npos) {
                out.problems.push_back(
                    "line " + std::to_string(lineNo) + ": '" + word + "' is not Key=Value");
                continue;
            }
            std::string key = lower(word.substr(0, eq));
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
            } else {
                out.problems.push_back(
                    "line " + std::to_string(lineNo) + ": unknown key " + word.substr(0, eq) + "=");
            }
        }
        if (!hasUid) {
            out.problems.push_back("line " + std::to_string(lineNo) + ": User= needs UID=");
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

} // namespace mc::sched
