#pragma once
// Gathering the facts checks are judged on: the user's jobs and the nodes from the controller
// (requests `ping`, `acct`, `jobs`, `cluster`), the shell history from run/history/<user>, and a
// view of the user's files. This is the engine's only I/O with the cluster.

#include "mc/emu/cluster_layout.h"
#include "mc/lessons/facts.h"

#include <memory>
#include <string>

namespace mc::lessons {

// Facts together with the file view they point to.
struct Snapshot {
    Facts facts;
    std::unique_ptr<FileView> files;
};

// False with `error` set (in plain words) when the controller does not answer.
bool collectFacts(const emu::ClusterLayout &layout, const std::string &user,
    const std::string &account, long long since, double wallSince, Snapshot &out,
    std::string &error);

// The cluster clock (`now` of a ping), or nullopt when the controller does not answer.
std::optional<long long> clusterNow(const emu::ClusterLayout &layout);

} // namespace mc::lessons
