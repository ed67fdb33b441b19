#pragma once
// The cluster of the reference transcripts (01_sinfo.txt, 12_scontrol.txt) as the controller's
// `cluster` reply and its slurm.conf: node[01-04] with 4 CPUs and 4000 MB each, partitions
// debug* (node[01-02], MaxTime 30:00, DefaultTime 10:00) and cpu (node[01-04], 2 days).

#include "command_harness.h"

#include <string>
#include <vector>

namespace mc::cmd::test {

struct NodeState {
    NodeState(std::string n, std::string st = "idle", int cpus = 0, int mem = 0,
        std::string why = {}, bool up = true)
        : name(std::move(n))
        , state(std::move(st))
        , allocCpus(cpus)
        , allocMemory(mem)
        , reason(std::move(why))
        , responding(up)
    { }
    std::string name;
    std::string state;
    int allocCpus;
    int allocMemory;
    std::string reason;
    bool responding;
};

inline Json nodeJson(const NodeState &s)
{
    Json j = Json::object();
    j.set("name", s.name);
    j.set("state", s.state);
    j.set("cpus", 4);
    j.set("alloc_cpus", s.allocCpus);
    j.set("memory", 4000);
    j.set("alloc_memory", s.allocMemory);
    j.set("gpus", 0);
    j.set("partitions",
        proto::stringList(s.name <= "node02" ? std::vector<std::string>{"debug", "cpu"}
                                             : std::vector<std::string>{"cpu"}));
    j.set("reason", s.reason);
    j.set("responding", s.responding);
    if (!s.reason.empty()) {
        j.set("reason_user", "root");
        j.set("reason_time", std::int64_t{1795259331}); // 2026-11-21T11:08:51 UTC
    }
    return j;
}

inline Json partitionJson(
    std::string name, bool isDefault, std::int64_t maxTime, std::vector<std::string> nodes)
{
    Json p = Json::object();
    p.set("name", name);
    p.set("default", isDefault);
    p.set("max_time", maxTime);
    p.set("nodes", proto::stringList(nodes));
    p.set("state", "up");
    return p;
}

// The `cluster` reply for the given node states (idle nodes when empty).
inline Json clusterReply(std::vector<NodeState> states = {})
{
    if (states.empty()) {
        states = {{"node01"}, {"node02"}, {"node03"}, {"node04"}};
    }
    Json reply = okReply();
    reply.set("cluster_name", "refcluster");
    Json nodes = Json::array();
    for (const auto &s : states) {
        nodes.push(nodeJson(s));
    }
    reply.set("nodes", std::move(nodes));
    Json parts = Json::array();
    parts.push(partitionJson("debug", true, 1800, {"node01", "node02"}));
    parts.push(partitionJson("cpu", false, 172800, {"node01", "node02", "node03", "node04"}));
    reply.set("partitions", std::move(parts));
    return reply;
}

inline const char *kReferenceSlurmConf = R"(ClusterName=refcluster
SlurmctldHost=vm
DefMemPerCPU=500
NodeName=node[01-04] CPUs=4 RealMemory=4000
PartitionName=debug Nodes=node[01-02] Default=YES DefaultTime=00:10:00 MaxTime=00:30:00
PartitionName=cpu Nodes=node[01-04] MaxTime=2-00:00:00
)";

// Points the harness at a controller that answers `cluster` with `reply`, and at the reference
// slurm.conf.
inline void serveCluster(Harness &h, Json reply)
{
    h.reply = [reply = std::move(reply)](const Json &request) -> std::optional<Json> {
        if (request["op"].toString() == "cluster") {
            return reply;
        }
        return errorReply("Unknown request");
    };
    h.ctx.readSlurmConf = [] {
        return std::optional<std::string>(kReferenceSlurmConf);
    };
}

} // namespace mc::cmd::test
