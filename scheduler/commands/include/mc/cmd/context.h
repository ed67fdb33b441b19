#pragma once
// Everything a Slurm command reads from or writes to the outside world, in one struct, so that
// each command runs in process: the real mains fill it from the process (systemContext()), tests
// fill it by hand with a fake controller. Commands touch nothing else except the files a user
// names (sbatch's script).

#include "mc/proto/json.h"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd {

// Sends one request and returns the controller's reply; nullopt when the controller cannot be
// reached (Slurm: "Unable to contact slurm controller (connect failure)").
using ControllerCall = std::function<std::optional<proto::Json>(const proto::Json &request)>;

// The same, returning the reply's text unparsed (a command that reads a large reply as a
// proto::RowTable); nullopt when the controller cannot be reached.
using ControllerTextCall = std::function<std::optional<std::string>(const proto::Json &request)>;

struct UserInfo {
    std::string name;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
};

// Resolves a user name or a numeric uid as Slurm's uid_from_string() does; nullopt if unknown.
using UserLookup = std::function<std::optional<UserInfo>(std::string_view nameOrUid)>;

struct Context {
    std::vector<std::string> args; // argv without the program name
    std::vector<std::string> environment; // "NAME=value", as in environ
    std::string cwd; // absolute
    std::function<std::string()> readStdin; // called at most once, only when a command needs it
    bool stdinIsTerminal = true; // false: piped (scontrol then reads its commands from it)
    std::ostream *out = nullptr;
    std::ostream *err = nullptr;
    ControllerCall controller;
    // Optional (the real mains set it; tests may not): commands that can use the text of a
    // reply call this, else `controller`.
    ControllerTextCall controllerText;
    UserInfo user; // who runs the command (getpwuid(getuid()))
    UserLookup lookupUser; // the user database (getpwnam/getpwuid)
    std::string hostname; // short host name (sbatch's submit_host)
    std::int64_t now = 0; // wall clock, seconds since the epoch (clusterNow(): the cluster's)
    // Text of the cluster's slurm.conf ($SLURM_CONF, else $MINICLUSTER_DIR/etc/slurm.conf);
    // nullopt when there is none. sinfo and scontrol read what the controller does not report
    // (features, DefaultTime, global keys) from it, as real Slurm's commands do.
    std::function<std::optional<std::string>()> readSlurmConf;
    // Text of the cluster's etc/minicluster.conf (beside slurm.conf): its users and accounts,
    // what sacctmgr shows. nullopt when there is none.
    std::function<std::optional<std::string>()> readSiteConf;
    // What the storage node last measured this user to be over quota on, in plain sentences
    // (sbatch warns with them and submits anyway); empty or unset: nothing to say.
    std::function<std::vector<std::string>()> quotaWarnings;

    // Value of an environment variable; nullopt when unset (an empty value is set).
    std::optional<std::string> getenv(std::string_view name) const;
};

// The cluster's clock (ping's `now`), which runs faster than the wall clock or ahead of it
// when an instructor changed it (`minicluster clock`); ctx.now when the controller does not
// answer. Commands that date or time jobs (sacct's defaults and Elapsed, sbatch --begin,
// scontrol's times) read this, never ctx.now directly.
std::int64_t clusterNow(const Context &ctx);

// The context of the running process: its arguments, environ, cwd, stdin, std::cout/std::cerr,
// the user database, and a controller reached through mc::proto::Client on
// controllerSocketPath().
Context systemContext(int argc, char **argv);

} // namespace mc::cmd
