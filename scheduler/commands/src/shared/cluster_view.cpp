#include "cluster_view.h"

#include "json_out.h"
#include "mc/sched/gres.h"
#include "text.h"

#include <algorithm>
#include <sstream>

namespace mc::cmd {

using proto::Json;

const NodeView *ClusterView::node(std::string_view name) const
{
    for (const auto &n : nodes) {
        if (n.name == name) {
            return &n;
        }
    }
    return nullptr;
}

const PartitionView *ClusterView::partition(std::string_view name) const
{
    for (const auto &p : partitions) {
        if (p.name == name) {
            return &p;
        }
    }
    return nullptr;
}

namespace {

NodeView nodeFromJson(const Json &j)
{
    NodeView n;
    n.name = j["name"].toString();
    n.state = toLower(j["state"].toString("unknown"));
    // The controller reports a node whose daemon is gone as "down": that is Slurm's DOWN*
    // (not responding), unless it says otherwise.
    n.responding = j["responding"].isBool() ? j["responding"].toBool() : n.state != "down";
    n.cpus = static_cast<int>(j["cpus"].toInt());
    n.allocCpus = static_cast<int>(j["alloc_cpus"].toInt());
    n.memory = j["memory"].toInt();
    n.allocMemory = j["alloc_memory"].toInt();
    n.gpus = static_cast<int>(j["gpus"].toInt());
    n.gpuType = j["gpu_type"].toString();
    for (const auto &id : j["gpu_ids"].items()) {
        n.gpuIds.push_back(static_cast<int>(id.toInt()));
    }
    n.partitions = j["partitions"].toStringList();
    n.reason = j["reason"].toString();
    n.reasonUser = j["reason_user"].toString(n.reason.empty() ? "" : "slurm");
    n.reasonTime = j["reason_time"].toInt();
    return n;
}

std::string partitionStateName(sched::PartitionState state)
{
    switch (state) {
    case sched::PartitionState::Up:
        return "up";
    case sched::PartitionState::Down:
        return "down";
    case sched::PartitionState::Drain:
        return "drain";
    case sched::PartitionState::Inactive:
        return "inactive";
    }
    return "up";
}

} // namespace

std::optional<ClusterView> loadClusterView(Context &ctx, std::string &error)
{
    Json request = Json::object();
    request.set("op", "cluster");
    auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
    if (!reply) {
        error = "Unable to contact slurm controller (connect failure)";
        return std::nullopt;
    }
    if (!(*reply)["ok"].toBool()) {
        error = (*reply)["error"].toString();
        return std::nullopt;
    }
    ClusterView view;
    view.clusterName = (*reply)["cluster_name"].toString();
    if (auto text = ctx.readSlurmConf ? ctx.readSlurmConf() : std::nullopt) {
        view.config = sched::parseSlurmConf(*text).config;
    }
    for (const auto &j : (*reply)["nodes"].items()) {
        NodeView n = nodeFromJson(j);
        if (view.config) {
            if (const sched::NodeConfig *conf = view.config->node(n.name)) {
                n.features = conf->features;
                n.weight = conf->weight;
            }
        }
        view.nodes.push_back(std::move(n));
    }
    std::sort(view.nodes.begin(), view.nodes.end(),
        [](const NodeView &a, const NodeView &b) { return a.name < b.name; });
    for (const auto &j : (*reply)["partitions"].items()) {
        PartitionView p;
        p.name = j["name"].toString();
        p.isDefault = j["default"].toBool();
        p.maxTime = j["max_time"].toInt(-1);
        p.nodes = j["nodes"].toStringList();
        p.state = toLower(j["state"].toString("up"));
        if (view.config) {
            if (const sched::PartitionConfig *conf = view.config->partition(p.name)) {
                p.defaultTime = conf->defaultTime;
                p.priorityTier = conf->priorityTier;
                p.exclusive = conf->exclusive;
                p.maxNodes = conf->maxNodes;
                p.allowAccounts = conf->allowAccounts;
                if (!j["state"].isString()) {
                    p.state = partitionStateName(conf->state);
                }
            }
        }
        view.partitions.push_back(std::move(p));
    }
    return view;
}

std::string scontrolNodeState(const NodeView &node)
{
    std::string base;
    std::string flags;
    const std::string &s = node.state;
    if (s == "drained") {
        base = "IDLE";
        flags = "+DRAIN";
    } else if (s == "draining") {
        base = node.allocCpus >= node.cpus ? "ALLOCATED" : "MIXED";
        flags = "+DRAIN";
    } else if (s == "completing") {
        base = "IDLE";
        flags = "+COMPLETING";
    } else {
        for (char c : s) {
            base += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
    }
    return base + (node.responding ? "" : "*") + flags;
}

std::string nodeGres(const NodeView &node)
{
    return node.gpus > 0 ? "gpu:" + sched::gpuCountText(node.gpuType, node.gpus) : std::string();
}

std::string nodeGresUsed(const NodeView &node)
{
    if (node.gpus <= 0) {
        return {};
    }
    const int used = static_cast<int>(node.gpuIds.size());
    return "gpu:" + sched::gpuCountText(node.gpuType, used)
        + "(IDX:" + (used > 0 ? sched::gpuIndexRanges(node.gpuIds) : std::string("N/A")) + ")";
}

std::map<std::string, std::string> slurmConfKeys(const std::string &slurmConf)
{
    std::map<std::string, std::string> keys;
    std::istringstream lines(slurmConf);
    std::string text;
    while (std::getline(lines, text)) {
        text = text.substr(0, text.find('#'));
        std::istringstream words(text);
        std::string word;
        bool first = true;
        while (words >> word) {
            const auto eq = word.find('=');
            if (eq == std::string::npos) {
                break;
            }
            const std::string key = toLower(word.substr(0, eq));
            if (first
                && (key == "nodename" || key == "partitionname" || key == "downnodes"
                    || key == "nodeset")) {
                break;
            }
            first = false;
            keys[key] = word.substr(eq + 1);
        }
    }
    return keys;
}

Outcome clustersOption(Context &ctx, std::string_view program, const std::string &list)
{
    const std::optional<std::string> local = clusterName(ctx);
    if (!local) {
        return {{}, errorLine(program, "Unable to contact slurm controller (connect failure)"), 1};
    }
    for (const auto &name : splitList(list)) {
        if (name != *local && !equalsIgnoreCase(name, "all")) {
            return {{},
                errorLine(program, "No cluster '" + name + "' known by database.")
                    + errorLine(program,
                        "'" + name
                            + "' can't be reached now, or it is an invalid entry for --cluster.  "
                              "Use 'sacctmgr list clusters' to see available clusters."),
                1};
        }
    }
    return {"CLUSTER: " + *local + "\n", {}, 0};
}

} // namespace mc::cmd
