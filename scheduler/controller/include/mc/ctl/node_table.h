#pragma once
// The controller's nodes-and-steps part: what each node of slurm.conf holds and how it is, and
// the srun steps running in each job's allocation (sstat, step numbers).
//
// Invariants: there is one entry per node of the configuration, never another (requests
// naming an unknown node find none). A node's usage (CPUs, memory, GPUs) is the sum of the
// holds of the active jobs listed on it: allocate(+1) when a job starts or is read back
// running, allocate(-1) when it is released, nothing else changes it; gpusTaken is the union
// of those jobs' GPU indices on that node. A job's running steps leave with its end (stored
// first); its next step number is above every step it has run.

#include "mc/proto/json.h"
#include "mc/record/usage.h"
#include "mc/sched/job.h"
#include "mc/sched/scheduler.h"
#include "mc/sched/slurm_conf.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace mc::ctl {

struct NodeInfo {
    sched::NodeUsage usage;
    bool connected = false;
    std::string adminState; // "", "drain", "down", "fail" (scontrol update nodename=)
    std::string reason;
    std::string limits; // how the node enforces limits ("cgroup-v1", ...), and why
    std::string limitsDetail;
    // MemoryOverrun=reboot-node: restarting (down, "Node unexpectedly rebooted") until its
    // daemon says it is back; the culprit's Comment, written once the node is back.
    bool rebooting = false;
    sched::Seconds reasonTime = 0; // when `reason` was set (sinfo -R, scontrol show node)
    std::optional<std::pair<sched::JobId, std::string>> overrunComment;
    std::vector<int> gpusTaken; // GPU indices held by running jobs (allocate())
};

// A running srun step (sstat).
struct RunningStep {
    int id = 0;
    std::string name;
    std::vector<std::string> nodes;
    int ntasks = 1;
    int cpus = 1;
    sched::Seconds start = 0;
    record::Usage usage; // the latest sample srun passed on (step_usage), for sstat
};

class NodeTable {
public:
    using Map = std::map<std::string, NodeInfo>;
    // Every node of `config` (which outlives this object), down ("Not responding") until its
    // daemon registers.
    explicit NodeTable(const sched::ClusterConfig &config);

    // The nodes by name, as a map's find/begin/end.
    Map::iterator find(const std::string &name) { return m_nodes.find(name); }
    Map::const_iterator find(const std::string &name) const { return m_nodes.find(name); }
    Map::iterator begin() { return m_nodes.begin(); }
    Map::iterator end() { return m_nodes.end(); }
    Map::const_iterator begin() const { return m_nodes.begin(); }
    Map::const_iterator end() const { return m_nodes.end(); }
    std::size_t size() const { return m_nodes.size(); }

    // Holds (`sign` +1) or frees (-1) what a started job takes on each of its nodes.
    void allocate(const sched::Job &job, int sign);
    // Gives a started job the lowest free GPU indices of each of its nodes: gpusPerNode on
    // each, or `gpusOnNode` (its shape's, when GPUs are spread unevenly) node by node.
    void pickGpus(sched::Job &job, const std::vector<int> &gpusOnNode = {}) const;
    // A node as `cluster`, the snapshot and node events show it (docs/protocol.md).
    proto::Json nodeJson(const NodeInfo &node) const;

    // Running srun steps by job id and step number; each job's next step number; the batch
    // step's latest sample (the batch host's batch_usage, about once a second) for sstat -j
    // N.batch.
    std::map<std::uint32_t, std::map<int, RunningStep>> &steps() { return m_steps; }
    const std::map<std::uint32_t, std::map<int, RunningStep>> &steps() const { return m_steps; }
    std::map<std::uint32_t, int> &nextStep() { return m_nextStep; }
    std::map<std::uint32_t, record::Usage> &batchUsage() { return m_batchUsage; }
    const std::map<std::uint32_t, record::Usage> &batchUsage() const { return m_batchUsage; }
    // The running steps that scancel JOB.STEP ended, by job id and step number: their end is
    // recorded CANCELLED whatever their exit.
    std::set<std::pair<std::uint32_t, int>> &cancelledSteps() { return m_cancelledSteps; }
    // A job's end: its step numbering and samples go.
    void forgetSteps(std::uint32_t job);

private:
    const sched::ClusterConfig &m_config;
    Map m_nodes;
    std::map<std::uint32_t, std::map<int, RunningStep>> m_steps;
    std::map<std::uint32_t, int> m_nextStep;
    std::map<std::uint32_t, record::Usage> m_batchUsage;
    std::set<std::pair<std::uint32_t, int>> m_cancelledSteps;
};

} // namespace mc::ctl
