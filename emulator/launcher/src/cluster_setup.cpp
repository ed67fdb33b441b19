#include "mc/launch/cluster_setup.h"

#include "mc/base/file.h"
#include "mc/emu/login_policy.h"
#include "mc/proto/identity.h"
#include "mc/sched/gres_conf.h"
#include "mc/sched/minicluster_conf.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/slurm_conf.h"
#include "mc/storage/cluster_storage.h"
#include "mc/storage/storage_conf.h"
#include "mc/ws/node_ssh.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace mc::launch {

namespace fs = std::filesystem;

namespace {

// Isolated users (mc/proto/identity.h): `path` and what is in it become the user's real ids',
// once (a tree already the user's is left as it is).
void giveTo(const std::string &path, std::uint32_t uid, std::uint32_t gid)
{
    const auto realUid = static_cast<uid_t>(proto::isolatedId(uid));
    const auto realGid = static_cast<gid_t>(proto::isolatedId(gid));
    struct stat st { };
    if (::lstat(path.c_str(), &st) != 0 || st.st_uid == realUid) {
        return;
    }
    std::error_code ec;
    [[maybe_unused]] int rc = ::lchown(path.c_str(), realUid, realGid);
    for (auto it = fs::recursive_directory_iterator(path, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        rc = ::lchown(it->path().c_str(), realUid, realGid);
    }
}

bool writeFile(const std::string &path, const std::string &text)
{
    std::ofstream out(path, std::ios::trunc);
    out << text;
    return static_cast<bool>(out);
}

void writeIfMissing(const std::string &path, const std::string &text)
{
    if (!fs::exists(path)) {
        writeFile(path, text);
    }
}

// Lessons check what was typed where (`ran` checks): every interactive shell that inherits
// this notes each command as it starts, "epoch<TAB>host<TAB>cwd<TAB>command", in
// run/history/$USER. PS0 is expanded once a command is read, before it runs (never for an empty
// line), so a command still running is noted too: salloc's, while the student checks the lesson
// in the shell it opened on the compute node. Exported, so shells that srun/salloc open on
// compute nodes note too. (PS0's command substitution runs in a subshell: it keeps no state.)
constexpr const char *kHistoryHook
    = R"hook(# Lessons: note each command with its time and host (see `minicluster lesson`).
__mc_note() {
  local line num cmd
  line=$(HISTTIMEFORMAT= builtin history 1) || return 0
  line="${line#"${line%%[![:space:]]*}"}"
  num="${line%%[[:space:]]*}"
  cmd="${line#"$num"}"; cmd="${cmd#"${cmd%%[![:space:]]*}"}"
  [ -n "$cmd" ] || return 0
  local t=${EPOCHREALTIME/,/.}
  printf '%s\t%s\t%s\t%s\n' "${t:-$(date +%s)}" "${MINICLUSTER_HOSTNAME:-$HOSTNAME}" "$PWD" \
    "${cmd//$'\t'/ }" >> "${MINICLUSTER_SOCKET%/*}/history/${USER}" 2>/dev/null
  return 0
}
export -f __mc_note
export PS0='$(__mc_note)'
)hook";

std::string profileText(
    const emu::SandboxView &view, emu::SandboxMode mode, const emu::ClusterLayout &layout)
{
    std::string shim = mode == emu::SandboxMode::Plain ? layout.run() + "/shim:" : "";
    return "# /etc/profile of the minicluster login node, written by `minicluster up`.\n"
           "# The cluster's commands (sbatch, squeue, ...) come first on PATH.\n"
           "PATH=\""
        + shim + view.binDir
        + ":/usr/local/bin:/usr/bin:/bin\"\n"
          "export PATH\n"
          "export SLURM_CONF=\""
        + view.etcDir
        + "/slurm.conf\"\n"
          "export MINICLUSTER_SOCKET=\""
        + view.runDir
        + "/ctld.sock\"\n"
          "# `man sbatch` and friends; the trailing colon keeps the system's pages.\n"
          "export MANPATH=\""
        + view.binDir
        + "/../share/man:\"\n"
          "if [ -d /etc/profile.d ]; then\n"
          "  for i in /etc/profile.d/*.sh; do [ -r \"$i\" ] && . \"$i\"; done\n"
          "  unset i\n"
          "fi\n"
          "if [ -n \"${PS1-}\" ]; then\n"
          "  PS1='[${USER}@${MINICLUSTER_HOSTNAME:-\\h} \\W]\\$ '\n"
          "fi\n"
        + kHistoryHook;
}

} // namespace

std::string presetsDir(const std::string &binDir)
{
    return binDir + "/../share/minicluster/presets";
}

SetupResult prepareCluster(const emu::ClusterLayout &layout, const std::string &preset,
    const std::string &binDir, emu::SandboxMode mode)
{
    SetupResult result;
    std::error_code ec;
    fs::create_directories(layout.etc(), ec);
    if (ec) {
        result.error = layout.etc() + ": " + ec.message();
        return result;
    }
    std::string source = presetsDir(binDir) + "/" + preset;
    for (const char *file : {"slurm.conf", "minicluster.conf"}) {
        std::string target = layout.etc() + "/" + file;
        if (!fs::exists(target)) {
            if (!fs::exists(source + "/" + file)) {
                result.error = "no preset named '" + preset + "' (looked in " + source + ")";
                return result;
            }
            fs::copy_file(source + "/" + file, target, ec);
        }
    }
    // gres.conf is optional, as on Slurm: a preset that describes its GPUs' devices ships one.
    if (fs::exists(source + "/gres.conf") && !fs::exists(layout.etc() + "/gres.conf")) {
        fs::copy_file(source + "/gres.conf", layout.etc() + "/gres.conf", ec);
    }
    const std::string slurmConf = base::fileText(layout.etc() + "/slurm.conf");
    const std::string siteConf = base::fileText(layout.etc() + "/minicluster.conf");
    auto parsed = sched::parseSlurmConf(slurmConf);
    for (const auto &p : parsed.problems) {
        result.warnings.push_back(
            "etc/slurm.conf line " + std::to_string(p.line) + ": " + p.message);
    }
    if (const auto gresText = base::readFile(layout.etc() + "/gres.conf")) {
        const auto gres = sched::parseGresConf(*gresText);
        for (const auto &p : gres.problems) {
            result.warnings.push_back(
                "etc/gres.conf line " + std::to_string(p.line) + ": " + p.message);
        }
        sched::applyGresConf(parsed.config, gres);
        for (const auto &node : parsed.config.nodes) {
            if (!node.gresInvalid.empty()) {
                result.warnings.push_back("etc/gres.conf: node " + node.name
                    + " is drained (State=INVAL) with reason: " + node.gresInvalid);
            }
        }
    }
    // Every problem of minicluster.conf, keys first (the daemons log theirs too).
    const auto users = sched::parseSiteUsers(siteConf);
    std::vector<std::string> site = sched::readSiteConf(siteConf).problems;
    for (const auto &problems : {users.problems, storage::parseStorageConf(siteConf).problems,
             emu::parseLoginPolicy(siteConf).problems}) {
        site.insert(site.end(), problems.begin(), problems.end());
    }
    for (const auto &p : site) {
        result.warnings.push_back("etc/" + p);
    }
    result.killWait = static_cast<int>(parsed.config.killWait);
    result.notImplemented = parsed.notImplemented;

    for (const auto &dir : {layout.run(), layout.state(), layout.log(), layout.home(),
             layout.project(), layout.scratch(), layout.datasets(), layout.run() + "/shim",
             layout.run() + "/history"}) {
        fs::create_directories(dir, ec);
    }
    // root, and the daemons' own user as a cluster has it (Debian's slurm-wlm gives it uid
    // 64030): `scontrol show config` names SlurmUser with its uid, whatever the host has.
    std::string passwd = "root:x:0:0:root:/root:/bin/bash\n"
                         "slurm:x:64030:64030:SLURM Workload Manager:/var/lib/slurm:/bin/false\n";
    std::string group = "root:x:0:\nslurm:x:64030:\n";
    for (const auto &u : users.users) {
        result.users.push_back(u.name);
        passwd += u.name + ":x:" + std::to_string(u.uid) + ":" + std::to_string(u.gid) + ":"
            + u.fullName + ":/home/" + u.name + ":/bin/bash\n";
        group += u.name + ":x:" + std::to_string(u.gid) + ":\n";
        std::string home = layout.home() + "/" + u.name;
        fs::create_directories(home, ec);
        fs::create_directories(layout.scratch() + "/" + u.name, ec);
        for (const auto &account : u.accounts) {
            fs::create_directories(layout.project() + "/" + account + "/" + u.name, ec);
        }
        writeIfMissing(home + "/.bash_profile",
            "# ~/.bash_profile: read by login shells.\n"
            "[ -f ~/.bashrc ] && . ~/.bashrc\n");
        writeIfMissing(home + "/.bashrc",
            "# ~/.bashrc: your own settings for interactive shells.\n"
            "alias ls='ls --color=auto'\n"
            "# The prompt names the node you are on: login1, or the compute node of\n"
            "# `srun --pty bash`.\n"
            "PS1='[\\u@${MINICLUSTER_HOSTNAME:-\\h} \\W]\\$ '\n");
    }
    // One group per account (the Alliance's def-<pi> groups), gids from 6000 up.
    std::vector<std::string> accounts;
    for (const auto &u : users.users) {
        for (const auto &a : u.accounts) {
            if (std::find(accounts.begin(), accounts.end(), a) == accounts.end()) {
                accounts.push_back(a);
            }
        }
    }
    for (std::size_t i = 0; i < accounts.size(); ++i) {
        std::string members;
        for (const auto &u : users.users) {
            if (std::find(u.accounts.begin(), u.accounts.end(), accounts[i]) != u.accounts.end()) {
                members += (members.empty() ? "" : ",") + u.name;
            }
        }
        group += accounts[i] + ":x:" + std::to_string(6000 + i) + ":" + members + "\n";
    }
    writeFile(layout.etc() + "/passwd", passwd);
    writeFile(layout.etc() + "/group", group);
    emu::SandboxView view = emu::sandboxView(mode, layout, "", binDir);
    // The storage layout's links and profile lines ($SCRATCH, $PROJECT, Lmod): mc_storage.
    auto storageUsers = storage::readStorageUsers(layout.etc());
    bool sandboxPaths = mode == emu::SandboxMode::Bubblewrap;
    writeFile(layout.etc() + "/profile",
        profileText(view, mode, layout)
            + storage::storageProfile(
                storage::profilePaths(layout, sandboxPaths, binDir), storageUsers));
    storage::linkUserDirs(layout, sandboxPaths, storageUsers);
    if (sandboxPaths && proto::usersIsolated()) {
        // The users' own ids must reach their folders: a cluster directory made 0700 (a
        // temporary directory) is opened to traversal, never to listing.
        fs::permissions(
            layout.dir, fs::perms::group_exec | fs::perms::others_exec, fs::perm_options::add, ec);
        // Each user's folders are its own, as on a real cluster; the history of its commands
        // (run/history/<user>, written by its shells) too.
        fs::permissions(layout.run() + "/history",
            fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec, ec);
        for (const auto &u : users.users) {
            giveTo(layout.home() + "/" + u.name, u.uid, u.gid);
            giveTo(layout.scratch() + "/" + u.name, u.uid, u.gid);
            for (const auto &account : u.accounts) {
                giveTo(layout.project() + "/" + account + "/" + u.name, u.uid, u.gid);
            }
            std::string history = layout.run() + "/history/" + u.name;
            writeIfMissing(history, "");
            giveTo(history, u.uid, u.gid);
        }
    }
    std::string shim = layout.run() + "/shim/hostname";
    writeFile(shim,
        "#!/bin/sh\n# minicluster's plain mode: the emulated node's name.\n"
        "echo \"${MINICLUSTER_HOSTNAME:-login1}\"\n");
    fs::permissions(shim,
        fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
            | fs::perms::others_read | fs::perms::others_exec,
        ec);

    std::vector<std::string> nodes = {"login1"};
    for (const auto &n : parsed.config.nodes) {
        nodes.push_back(n.name);
        result.nodes.push_back(n.name);
    }
    // The node image's /etc/hosts: every node's name resolves, from login1 and from the other
    // nodes. Without root the nodes share the laptop's one network, so every name is the
    // loopback address; as root the node daemons give each node its own network and write its
    // address here (mc/emu/node_network.h), which a restart of the cluster keeps.
    std::string hosts = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n";
    std::string names;
    for (const auto &n : nodes) {
        hosts += "127.0.0.1\t" + n + "\n";
        names += n + "\n";
    }
    std::string kept;
    std::istringstream current(base::fileText(layout.etc() + "/hosts"));
    for (std::string addr, name, line; std::getline(current, line);) {
        std::istringstream(line) >> addr >> name;
        kept += name == "localhost" || addr.find(':') != std::string::npos ? "" : name + "\n";
    }
    if (kept != names) {
        writeFile(layout.etc() + "/hosts", hosts);
    }
    // `ssh NODE` as pam_slurm_adopt allows it (mc/ws/node_ssh.h), in the login shells.
    std::ofstream(layout.etc() + "/profile", std::ios::app) << ws::nodeSshFunctions(nodes);
    for (const auto &n : nodes) {
        for (const auto &dir : {layout.spool(n), layout.localScratch(n), layout.tmp(n)}) {
            fs::create_directories(dir, ec);
        }
        fs::permissions(layout.tmp(n), fs::perms::all | fs::perms::sticky_bit, ec);
    }
    result.ok = true;
    return result;
}

} // namespace mc::launch
