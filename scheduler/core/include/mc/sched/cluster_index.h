#pragma once
// Node names to positions in the node list a pass receives, with each node's configuration.
// A pass builds one itself; a caller that runs many passes over the same nodes (the
// simulator) builds it once and hands it in. Valid while the config and the order of the
// nodes stay the same.

#include "mc/sched/slurm_conf.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mc::sched {

struct NodeUsage;

class ClusterIndex {
public:
    ClusterIndex(const ClusterConfig &config, const std::vector<NodeUsage> &nodes);

    std::optional<std::size_t> find(const std::string &name) const
    {
        auto it = m_index.find(name);
        return it == m_index.end() ? std::nullopt : std::optional<std::size_t>(it->second);
    }
    const NodeConfig *nodeConfig(std::size_t i) const { return m_configs[i]; }
    // Positions of the nodes of `partition` that are in the list, in Nodes= order.
    const std::vector<std::size_t> &partitionNodes(const std::string &partition) const;
    std::size_t size() const { return m_configs.size(); }

private:
    std::unordered_map<std::string, std::size_t> m_index;
    std::vector<const NodeConfig *> m_configs;
    std::unordered_map<std::string, std::vector<std::size_t>> m_partitions;
};

} // namespace mc::sched
