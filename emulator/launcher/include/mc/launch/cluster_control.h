#pragma once
// `minicluster up | down | status | shell | gui`: starting and stopping one cluster's daemons,
// and entering its login node.

#include "mc/emu/cluster_layout.h"
#include "mc/proto/json.h"

#include <optional>
#include <string>
#include <vector>

namespace mc::launch {

struct ClusterOptions {
    emu::ClusterLayout layout;
    std::string binDir;
    std::string preset = "default";
    bool presetGiven = false; // --preset on the command line (said to be ignored on a cluster)
    std::string sandbox = "auto"; // auto | bubblewrap | plain
    std::string limits = "auto"; // auto | cgroup-v2 | cgroup-v1 | rlimit
    int timeScale = 1; // with `up`: the cluster clock's speed (demos, tests); 1: unchanged
    std::string user; // emulated user; empty: the first of etc/minicluster.conf
};

struct EmulatedUser {
    std::string name; // --user, else the first user of etc/minicluster.conf
    std::string account; // that user's default account
};
EmulatedUser emulatedUser(const ClusterOptions &options);

// A request to the cluster's controller, answered within slurm.conf's MessageTimeout;
// nullopt when it does not answer.
std::optional<proto::Json> callController(
    const ClusterOptions &options, const proto::Json &request);

// `minicluster clock [--speed N] [--forward DURATION]`: shows the cluster clock, or changes
// it with the controller's `clock` request (the instructor panel's). `args`: the words after
// `clock`.
int clock(const ClusterOptions &options, const std::vector<std::string> &args);
// A fast-forward as `clock --forward` reads it: Slurm's time forms ("90" minutes, "1:30:00",
// "2-12", "61-00:00:00") or a number with a unit s, m, h, d ("61d", "90s"); nullopt otherwise.
std::optional<long long> parseForward(const std::string &text);

// True when a controller answers on the cluster's socket.
bool isUp(const ClusterOptions &options);

// Each returns the process exit status and prints what a user needs to know.
int up(const ClusterOptions &options, bool quiet);
int down(const ClusterOptions &options);
int status(const ClusterOptions &options);
// Replaces this process with a login shell on login1 (interactive, or `bash -c command`).
int shell(const ClusterOptions &options, const std::optional<std::string> &command);
// Replaces this process with a shell on the emulated laptop (mc/ws/workstation.h), starting
// the cluster if needed.
int workstation(const ClusterOptions &options, const std::optional<std::string> &command);
// Replaces this process with login1's sshd for one ssh connection (the ProxyCommand).
int sshdStdio(const ClusterOptions &options, const std::string &user);
// Replaces this process with the app.
int gui(const ClusterOptions &options);

} // namespace mc::launch
