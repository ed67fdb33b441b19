#include "mc/sched/cluster_index.h"

#include "mc/sched/scheduler.h"

namespace mc::sched {

ClusterIndex::ClusterIndex(const ClusterConfig &config, const std::vector<NodeUsage> &nodes)
{
    m_index.reserve(nodes.size());
    m_configs.reserve(nodes.size());
    const auto &configured = config.nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        m_index.emplace(nodes[i].name, i);
        // The controller and the simulator list nodes in config order: no search then.
        m_configs.push_back(i < configured.size() && configured[i].name == nodes[i].name
                ? &configured[i]
                : config.node(nodes[i].name));
    }
    for (const auto &part : config.partitions) {
        auto &list = m_partitions[part.name];
        for (const auto &name : part.nodes) {
            if (auto at = find(name)) {
                list.push_back(*at);
            }
        }
    }
}

const std::vector<std::size_t> &ClusterIndex::partitionNodes(const std::string &partition) const
{
    static const std::vector<std::size_t> kNone;
    auto it = m_partitions.find(partition);
    return it == m_partitions.end() ? kNone : it->second;
}

} // namespace mc::sched
