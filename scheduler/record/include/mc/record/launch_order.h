#pragma once
// The launch order: what the controller sends a node daemon to start a batch job (the `job`
// member of op `launch`, docs/protocol.md). The job's stored record, its script and
// environment included, plus what only the batch host needs.

#include "mc/proto/json.h"
#include "mc/sched/job.h"

#include <optional>
#include <string>

namespace mc::record {

struct LaunchOrder {
    sched::Job job; // with spec.script and spec.env filled
    std::string clusterName; // ClusterName (SLURM_CLUSTER_NAME)
    int cpusOnNode = 1; // the job's CPUs on its batch host (SLURM_CPUS_ON_NODE)
    std::string nodeList; // the allocated nodes compressed, "cn[01-02]" (SLURM_JOB_NODELIST)
    // The GPU model of a batch host with GPUs (its emulated nvidia-smi); unset on a node
    // without GPUs.
    std::optional<std::string> gpuType;
};

proto::Json launchToJson(const LaunchOrder &order);
// Unset when `json` is not a job record (jobFromRecord()).
std::optional<LaunchOrder> launchFromJson(const proto::Json &json);

} // namespace mc::record
