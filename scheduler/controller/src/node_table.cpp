#include "mc/ctl/node_table.h"

#include "mc/sched/gres.h"
#include "mc/sched/node_hold.h"

#include <algorithm>

namespace mc::ctl {

using proto::Json;
using sched::Job;

NodeTable::NodeTable(const sched::ClusterConfig &config)
    : m_config(config)
{
    for (const auto &n : m_config.nodes) {
        NodeInfo info;
        info.usage = sched::NodeUsage{n.name, n.cpus, n.realMemory, 0, 0, false};
        info.usage.gpus = n.gpus;
        info.reason = "Not responding";
        if (!n.gresInvalid.empty()) { // its gres.conf is short of Gres=: drained, as slurmctld
            info.adminState = "drain";
            info.reason = n.gresInvalid;
        }
        m_nodes[n.name] = info;
    }
}

void NodeTable::allocate(const Job &job, int sign)
{
    const sched::JobShape shape = sched::heldShape(job, m_config);
    for (std::size_t k = 0; k < job.nodeList.size(); ++k) {
        auto it = m_nodes.find(job.nodeList[k]);
        if (it == m_nodes.end()) {
            continue;
        }
        if (k < job.gpuIds.size()) {
            std::vector<int> &taken = it->second.gpusTaken;
            for (int id : job.gpuIds[k]) {
                if (sign > 0) {
                    taken.push_back(id);
                } else if (auto at = std::find(taken.begin(), taken.end(), id); at != taken.end()) {
                    taken.erase(at);
                }
            }
        }
        sched::NodeUsage &u = it->second.usage;
        sched::applyHold(u, sched::holdOn(u, shape, k), sign);
    }
}

void NodeTable::pickGpus(Job &job, const std::vector<int> &gpusOnNode) const
{
    job.gpuIds.clear();
    if (job.gpusPerNode <= 0 || job.nodeList.empty()) {
        return;
    }
    if (const sched::NodeConfig *first = m_config.node(job.nodeList.front())) {
        job.gpuAllocType = first->gpuType;
    }
    for (std::size_t k = 0; k < job.nodeList.size(); ++k) {
        auto it = m_nodes.find(job.nodeList[k]);
        std::optional<std::vector<int>> ids;
        const int want = k < gpusOnNode.size() ? gpusOnNode[k] : job.gpusPerNode;
        if (it != m_nodes.end()) {
            ids = sched::pickGpus(it->second.usage.gpus, it->second.gpusTaken, want);
        }
        job.gpuIds.push_back(ids.value_or(std::vector<int>{}));
    }
}

Json NodeTable::nodeJson(const NodeInfo &node) const
{
    const auto &u = node.usage;
    Json j = Json::object();
    j.set("name", u.name);
    std::string state;
    if (node.adminState == "drain") {
        state = u.allocCpus > 0 ? "draining" : "drained";
    } else if (node.adminState == "fail") {
        state = u.allocCpus > 0 ? "failing" : "fail";
    } else if (!node.connected || node.adminState == "down" || node.rebooting) {
        state = "down";
    } else if (u.allocCpus == 0) {
        state = "idle";
    } else if (u.allocCpus >= u.cpus) {
        state = "allocated";
    } else {
        state = "mixed";
    }
    j.set("state", state);
    j.set("cpus", u.cpus);
    j.set("alloc_cpus", u.allocCpus);
    j.set("memory", u.memory);
    j.set("alloc_memory", u.allocMemory);
    const sched::NodeConfig *conf = m_config.node(u.name);
    j.set("gpus", conf ? conf->gpus : 0);
    j.set("alloc_gpus", u.allocGpus);
    if (conf && !conf->gpuType.empty()) {
        j.set("gpu_type", conf->gpuType);
    }
    if (!node.gpusTaken.empty()) {
        Json taken = Json::array();
        for (int id : node.gpusTaken) {
            taken.push(id);
        }
        j.set("gpu_ids", std::move(taken));
    }
    Json parts = Json::array();
    for (const auto &p : m_config.partitions) {
        if (std::find(p.nodes.begin(), p.nodes.end(), u.name) != p.nodes.end()) {
            parts.push(p.name);
        }
    }
    j.set("partitions", std::move(parts));
    const bool showsReason = !node.connected || !node.adminState.empty() || node.rebooting;
    j.set("reason", showsReason ? node.reason : std::string());
    if (showsReason && node.reasonTime > 0) {
        j.set("reason_time", node.reasonTime);
    }
    j.set("limits", node.limits);
    j.set("limits_detail", node.limitsDetail);
    return j;
}

void NodeTable::forgetSteps(std::uint32_t job)
{
    m_steps.erase(job);
    m_nextStep.erase(job);
    m_batchUsage.erase(job);
    std::erase_if(m_cancelledSteps, [job](const auto &step) { return step.first == job; });
}

} // namespace mc::ctl
