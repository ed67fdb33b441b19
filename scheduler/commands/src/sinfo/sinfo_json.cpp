// sinfo --json: Slurm 22.05's openapi/v0.0.38 node records (plugins/openapi/v0.0.38/nodes.c,
// _dump_node()), one per node of the cluster, whatever sinfo's other options say.

#include "../shared/cluster_view.h"
#include "../shared/json_commands.h"
#include "../shared/json_out.h"
#include "mc/sched/slurm_version.h"

#include <cstdlib>
#include <sys/utsname.h>

namespace mc::cmd {
namespace {

using proto::Json;

// Slurm's base state and its flags (node_state_flags[] order: COMPLETING, DRAIN, FAIL,
// NOT_RESPONDING) for sinfo's long state words.
struct NodeState {
    std::string base;
    std::vector<std::string> flags;
};

NodeState nodeState(const NodeView &node)
{
    const bool busy = node.allocCpus > 0;
    const std::string busyBase = node.allocCpus >= node.cpus ? "allocated" : "mixed";
    NodeState s;
    const std::string &st = node.state;
    if (st == "drained" || st == "draining" || st == "drain") {
        s = {busy ? busyBase : "idle", {"DRAIN"}};
    } else if (st == "fail" || st == "failing") {
        s = {busy ? busyBase : "idle", {"FAIL"}};
    } else if (st == "completing") {
        s = {busy ? busyBase : "idle", {"COMPLETING"}};
    } else if (st == "idle" || st == "mixed" || st == "allocated" || st == "down"
        || st == "future") {
        s = {st, {}};
    } else {
        s = {"unknown", {}};
    }
    if (!node.responding) {
        s.flags.emplace_back("NOT_RESPONDING");
    }
    return s;
}

std::string joined(const std::vector<std::string> &words)
{
    std::string text;
    for (const auto &word : words) {
        text += (text.empty() ? "" : ",") + word;
    }
    return text;
}

struct Host {
    std::string machine = "x86_64";
    std::string system; // "Linux <release> <version>", as slurmd reports it
    std::int64_t load = 0; // 1-minute load average x 100
};

Host host()
{
    Host h;
    utsname u{};
    if (::uname(&u) == 0) {
        h.machine = u.machine;
        h.system = std::string(u.sysname) + " " + u.release + " " + u.version;
    }
    double load[1] = {0.0};
    if (::getloadavg(load, 1) == 1) {
        h.load = static_cast<std::int64_t>(load[0] * 100.0);
    }
    return h;
}

Json nodeRecord(const NodeView &node, const Host &h, std::int64_t now)
{
    const NodeState state = nodeState(node);
    const std::string gres = nodeGres(node);
    std::string tres = "cpu=" + std::to_string(node.cpus) + ",mem=" + tresMemory(node.memory)
        + ",billing=" + std::to_string(node.cpus);
    if (node.gpus > 0) {
        tres += ",gres/gpu=" + std::to_string(node.gpus);
    }
    Json used;
    if (node.allocCpus > 0 || node.allocMemory > 0) {
        used = "cpu=" + std::to_string(node.allocCpus) + ",mem=" + tresMemory(node.allocMemory);
    }

    Json n = Json::object();
    n.reserve(48);
    n.add("architecture", h.machine);
    n.add("burstbuffer_network_address", "");
    n.add("boards", 1);
    n.add("boot_time", 0);
    n.add("comment", "");
    n.add("cores", 1); // CPUs= alone: one core per socket, as Slurm infers it
    n.add("cpu_binding", 0);
    n.add("cpu_load", h.load); // every emulated node runs on this computer
    n.add("extra", "");
    n.add("free_memory", node.memory - node.allocMemory);
    n.add("cpus", node.cpus);
    n.add("last_busy", node.allocCpus > 0 ? now : 0);
    n.add("features", joined(node.features));
    n.add("active_features", joined(node.features));
    n.add("gres", gres);
    n.add("gres_drained", "N/A");
    n.add("gres_used", nodeGresUsed(node));
    n.add("mcs_label", "");
    n.add("name", node.name);
    n.add("next_state_after_reboot", "invalid");
    n.add("address", node.name);
    n.add("hostname", node.name);
    n.add("state", state.base);
    n.add("state_flags", proto::stringList(state.flags));
    n.add("next_state_after_reboot_flags", Json::array());
    n.add("operating_system", h.system);
    n.add("owner", Json());
    n.add("partitions", proto::stringList(node.partitions));
    n.add("port", 6818); // SlurmdPort's default: the nodes talk over a local socket
    n.add("real_memory", node.memory);
    n.add("reason", node.reason);
    n.add("reason_changed_at", node.reason.empty() ? 0 : node.reasonTime);
    n.add("reason_set_by_user", node.reason.empty() ? Json() : Json(node.reasonUser));
    n.add("slurmd_start_time", 0);
    n.add("sockets", node.cpus);
    n.add("threads", 1);
    n.add("temporary_disk", 0);
    n.add("weight", node.weight);
    n.add("tres", tres);
    n.add("slurmd_version", sched::kSlurmRelease);
    n.add("alloc_memory", node.allocMemory);
    n.add("alloc_cpus", node.allocCpus);
    n.add("idle_cpus", node.cpus - node.allocCpus);
    n.add("tres_used", std::move(used));
    n.add("tres_weighted", static_cast<double>(node.allocCpus));
    return n;
}

} // namespace

Outcome sinfoJson(Context &ctx, DataFormat format)
{
    Json response = openapiResponse("openapi/v0.0.38", "Slurm OpenAPI v0.0.38");
    std::string error;
    const std::optional<ClusterView> view = loadClusterView(ctx, error);
    Json nodes = Json::array();
    if (!view) {
        Json entry = Json::object();
        entry.add("error", error);
        entry.add("errno", 1001);
        response.mutableMember("errors")->push(std::move(entry));
    } else {
        const Host h = host();
        for (const auto &node : view->nodes) {
            nodes.push(nodeRecord(node, h, ctx.now));
        }
    }
    response.add("nodes", std::move(nodes));
    return Outcome{slurmDataText(response, format, EmptyStrings::AreNull), {}, 0};
}

} // namespace mc::cmd
