#pragma once
// `minicluster workstation [-c CMD]`: a shell on the student's emulated laptop, and
// `minicluster sshd-stdio USER`, the ProxyCommand that carries its ssh connections to login1.
//
// Layout (all generated once, then kept): <cluster>/workstation/
//   home/<user>/            the laptop's home (its ~/.ssh/config is the student's own)
//   home/<user>/.ssh/id_ed25519[.pub]   the laptop user's key; its public half is appended to
//                           the cluster's /home/<user>/.ssh/authorized_keys
//   etc/users/<user>/ssh_config   one per user, read by ssh/scp/rsync through the wrappers in
//                           bin/ (by $USER): the student's ~/.ssh/config first, then `Match host
//                           <cluster name>,login1` with the ProxyCommand and the known host key;
//                           the wrappers offer ~/.ssh/id_* unless -i names a key, as ssh does
//   etc/known_hosts, bin/ (ssh, scp, sftp, hostname wrappers), bashrc
// Password authentication works too, with kLoginPassword for every emulated user, so that a
// regenerated key does not lock the student out (ssh-copy-id then installs the new one).
// <cluster>/etc/ssh/        sshd_config and the login node's host key, as sshd sees them
//                           inside the sandbox (/opt/minicluster/etc/ssh/...)

#include "mc/emu/cluster_layout.h"
#include "mc/emu/sandbox.h"

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace mc::ws {

// The password of every emulated user on the login node's sshd (lesson 1 gives it).
inline constexpr const char *kLoginPassword = "learn-slurm";

struct WorkstationOptions {
    emu::ClusterLayout layout;
    std::string binDir; // minicluster's binaries (the ProxyCommand runs <binDir>/minicluster)
    std::string user; // the emulated user, also the laptop's user name
    std::string clusterName; // ClusterName of slurm.conf: `ssh <clusterName>` reaches login1
    emu::SandboxMode mode = emu::SandboxMode::Bubblewrap;
};

// Creates what is missing (keys, configs, wrappers, home). False with `error` in plain words.
bool prepareWorkstation(const WorkstationOptions &options, std::string &error);

// Replaces this process with the laptop's shell (interactive, or `bash -c command`).
int workstationShell(const WorkstationOptions &options, const std::optional<std::string> &command);

// Replaces this process with `sshd -i` for `user` inside login1's sandbox, speaking SSH on
// stdin/stdout (ssh's ProxyCommand). Only in the bubblewrap sandbox: a non-root sshd can only
// log in the user it runs as, which the sandbox provides.
int sshdStdio(const WorkstationOptions &options, const std::string &user);

// The environment a user's shell starts from (the laptop's, login1's): HOME, USER, LOGNAME,
// SHELL=/bin/bash and PATH, in this order (PATH is entry 4), then `extra`, then those of
// `inherited` (terminal, locale, display...) that this process has, as NAME=value.
std::vector<std::string> shellEnvironment(const std::string &home, const std::string &user,
    const std::string &path, const std::vector<std::string> &extra,
    std::initializer_list<const char *> inherited);

// Replaces this process with argv[0] (looked up on PATH unless it holds a '/') and exactly
// `env`. Returns only when that fails: 127, after "minicluster: cannot run <argv[0]>: <why>".
int execWithEnvironment(std::vector<std::string> argv, std::vector<std::string> env);

} // namespace mc::ws
