#include "mc/record/launch_order.h"

#include "mc/record/job_codec.h"

namespace mc::record {

using proto::Json;

Json launchToJson(const LaunchOrder &order)
{
    Json j = jobToRecord(order.job);
    j.set("cluster_name", order.clusterName);
    j.set("cpus_on_node", order.cpusOnNode);
    j.set("node_list", order.nodeList);
    if (order.gpuType) {
        j.set("gpu_type", *order.gpuType);
    }
    return j;
}

std::optional<LaunchOrder> launchFromJson(const Json &json)
{
    auto job = jobFromRecord(json);
    if (!job) {
        return std::nullopt;
    }
    LaunchOrder order;
    order.job = std::move(*job);
    order.clusterName = json["cluster_name"].toString();
    order.cpusOnNode = static_cast<int>(json["cpus_on_node"].toInt(1));
    order.nodeList = json["node_list"].toString();
    if (json["gpu_type"].isString()) {
        order.gpuType = json["gpu_type"].toString();
    }
    return order;
}

} // namespace mc::record
