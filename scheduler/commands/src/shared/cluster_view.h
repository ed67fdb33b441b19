#pragma once
// The cluster as sinfo and scontrol show it: the controller's `cluster` reply (live node states
// and allocations, docs/protocol.md) merged with what only slurm.conf says (features, weights,
// DefaultTime, priority tiers, global keys). One load per command run.

#include "mc/cmd/context.h"
#include "mc/sched/slurm_conf.h"
#include "outcome.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mc::cmd {

struct NodeView {
    std::string name;
    std::string state; // sinfo's long state: idle, mixed, allocated, down, drained, ...
    bool responding = true; // false: Slurm's '*' suffix (NO_RESPOND)
    int cpus = 0;
    int allocCpus = 0;
    std::int64_t memory = 0; // MiB
    std::int64_t allocMemory = 0; // MiB
    int gpus = 0;
    std::string gpuType; // Gres=gpu:<type>:N's type; empty when untyped
    std::vector<int> gpuIds; // the GPU indices running jobs hold
    std::vector<std::string> partitions;
    std::string reason; // empty: none
    std::string reasonUser; // who set the reason (Slurm's SlurmUser for automatic ones)
    std::int64_t reasonTime = 0; // epoch; 0 unknown
    std::vector<std::string> features; // slurm.conf Feature=
    int weight = 1;
};

struct PartitionView {
    std::string name;
    bool isDefault = false;
    std::int64_t maxTime = -1; // seconds, -1 unlimited
    std::optional<std::int64_t> defaultTime; // seconds; nullopt: none configured
    std::vector<std::string> nodes;
    std::string state = "up"; // up, down, drain, inactive
    int priorityTier = 1;
    bool exclusive = false;
    std::optional<int> maxNodes;
    std::vector<std::string> allowAccounts; // empty: ALL
};

struct ClusterView {
    std::string clusterName;
    std::vector<NodeView> nodes; // by name
    std::vector<PartitionView> partitions; // in slurm.conf order
    std::optional<sched::ClusterConfig> config; // nullopt when slurm.conf could not be read

    const NodeView *node(std::string_view name) const;
    const PartitionView *partition(std::string_view name) const;
};

// Asks the controller for the cluster and merges slurm.conf in. On failure returns nullopt and
// sets `error` to Slurm's words for the caller's "<what> error: " prefix (e.g. "Unable to
// contact slurm controller (connect failure)").
std::optional<ClusterView> loadClusterView(Context &ctx, std::string &error);

// slurm.conf's global keys (not NodeName=, PartitionName=... lines) and their values as
// written, by lower-case name: for the keys minicluster reads without acting on them.
std::map<std::string, std::string> slurmConfKeys(const std::string &slurmConf);

// -M/--clusters of sinfo and squeue: minicluster is one cluster, so the list may name only it
// (or "all"). The output then starts with the "CLUSTER: <name>\n" line (`out`); a name no
// cluster has gets Slurm's two errors and exit code 1.
Outcome clustersOption(Context &ctx, std::string_view program, const std::string &list);

// Upper-case scontrol form of a node's long state ("IDLE", "MIXED", "DOWN*", "IDLE+DRAIN").
std::string scontrolNodeState(const NodeView &node);
// The node's Gres= ("gpu:a100:2"; empty without GPUs) and GresUsed ("gpu:a100:1(IDX:0)",
// "gpu:a100:0(IDX:N/A)"; empty without GPUs), as scontrol and sinfo write them.
std::string nodeGres(const NodeView &node);
std::string nodeGresUsed(const NodeView &node);

} // namespace mc::cmd
