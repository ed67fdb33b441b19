#pragma once
// The users and accounts of etc/minicluster.conf (what slurm.conf has no key for). Lines are
// `Key=Value` words like slurm.conf; readSiteConf() (minicluster_conf.h) reads the file, this
// the values of its `User=` and `QOS=` lines.

#include "mc/sched/slurm_conf.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mc::sched {

struct SiteUser {
    std::string name;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0; // defaults to uid
    std::string defaultAccount;
    std::vector<std::string> accounts; // includes defaultAccount
    std::string fullName;
};

struct SiteUsers {
    std::vector<SiteUser> users;
    // Bad values: "minicluster.conf:3: User= needs UID=" (unknown keys: readSiteConf()).
    std::vector<std::string> problems;

    const SiteUser *find(std::string_view name) const;
};

// Reads `User=alice UID=1001 [GID=1001] DefaultAccount=def-prof [Accounts=a,b] [Name="Alice"]`.
SiteUsers parseSiteUsers(std::string_view text);

// Reads `QOS=normal [Priority=N]` lines, in their order; {"normal", 0} when there are none.
// `problems` gets "minicluster.conf:N: ..." for a bad line.
std::vector<QosConfig> parseSiteQos(std::string_view text, std::vector<std::string> &problems);

} // namespace mc::sched
