#pragma once
// GPUs as Slurm's generic resources (GRES): a node's Gres= in slurm.conf, a job's request
// (--gres, --gpus, --gpus-per-node, --gpus-per-task), and which of a node's GPUs a job holds.
// Only the "gpu" GRES exists on minicluster's clusters (GresTypes=gpu); a node has one type.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::sched {

// A node's GPUs from Gres=: "gpu:2", "gpu:a100:2", "gpu:2(S:0-1)", "gpu" (one); other GRES
// are ignored. The type is the first typed gpu entry's ("" when untyped). nullopt: malformed.
struct NodeGpus {
    int count = 0;
    std::string type;
};
std::optional<NodeGpus> parseNodeGpus(std::string_view gres);

// A GPU request: "[type:]N" (--gpus, --gpus-per-node, --gpus-per-task) or a --gres list of
// "[gres/]name[:type][:N]" entries. `known` is false when it names a GRES other than gpu.
// nullopt: malformed (Slurm's "Invalid generic resource (gres) specification").
struct GpuRequest {
    int count = 0;
    std::string type; // empty: any type
    bool known = true;
};
std::optional<GpuRequest> parseGpuCount(std::string_view text);
std::optional<GpuRequest> parseGresOption(std::string_view text);
// "a100:2" or "2": the request as Slurm writes it back (SLURM_GPUS, TresPerNode=gres:gpu:...).
std::string gpuCountText(const std::string &type, int count);

// The lowest `want` GPU indices of a node with `count` GPUs that are not in `taken`; nullopt
// when fewer are free. Two jobs never hold the same index.
std::optional<std::vector<int>> pickGpus(int count, const std::vector<int> &taken, int want);
// --gpus=N over `nodes` nodes that hold `perNode` GPUs each, as Slurm's cons_tres places a
// job's GPUs (gres_select_filter.c): each node in turn takes as many as it can while leaving
// one for each node after it (3 over two 2-GPU nodes: 2,1; 5 over three 4-GPU nodes: 3,1,1).
// Empty when the nodes cannot hold N or N is fewer than the nodes.
std::vector<int> spreadGpus(int gpus, int nodes, int perNode);
// Slurm's forms of a set of indices: "0-1,3" (IDX: in scontrol -d) and "0,1,3" (the
// CUDA_VISIBLE_DEVICES, SLURM_JOB_GPUS form).
std::string gpuIndexRanges(const std::vector<int> &ids);
std::string gpuIndexList(const std::vector<int> &ids);

} // namespace mc::sched
