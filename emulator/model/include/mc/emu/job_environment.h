#pragma once
// The environment of a batch job as slurmd gives it (reference/15_job_environment.txt): the
// submitter's exported variables, then Slurm's SLURM_* variables and the few others it sets.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::emu {

struct BatchJobFacts {
    std::uint32_t jobId = 0;
    std::string jobName;
    std::string user;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
    std::string account;
    std::string partition;
    std::string qos = "normal";
    std::string clusterName;
    std::string node; // this node (SLURMD_NODENAME)
    std::string nodeList; // compressed (SLURM_JOB_NODELIST)
    int numNodes = 1;
    int ntasks = 1;
    bool ntasksGiven = false; // SLURM_NTASKS/NPROCS only when -n was given
    int cpusPerTask = 1;
    bool cpusPerTaskGiven = false;
    int cpusOnNode = 1;
    std::vector<int> nodeCpus; // CPUs on each node when they differ (4,2); empty: cpusOnNode
    long long memPerNode = 0; // MiB; SLURM_MEM_PER_NODE when given per node
    long long memPerCpu = 0; // MiB; SLURM_MEM_PER_CPU otherwise
    std::string submitDir;
    std::string submitHost;
    std::string confPath; // SLURM_CONF
    std::string home;
    std::string tmpDir; // $SLURM_TMPDIR (Alliance convention), empty: unset
    int taskPid = 0;
    // A task of a job array: SLURM_ARRAY_* are set only when arrayTaskId is.
    std::uint32_t arrayJobId = 0;
    std::optional<std::uint32_t> arrayTaskId;
    std::string arraySpec; // sbatch --array text ("1-10%2", "0-6:3", "1,3,5-6")
    int restarts = 0; // SLURM_RESTART_COUNT, set once the job was requeued
    std::string nodeFilePath; // PBS_NODEFILE of a job submitted with qsub, as the job sees it
    // GPUs (issue #15): the indices held on this node (CUDA_VISIBLE_DEVICES, SLURM_JOB_GPUS,
    // GPU_DEVICE_ORDINAL, SLURM_GPUS_ON_NODE), and the options given, each "[type:]N" text
    // (empty: not given) for its SLURM_* variable.
    std::vector<int> gpuIds;
    std::string gpus; // --gpus (SLURM_GPUS)
    std::string gpusPerNode; // --gpus-per-node (SLURM_GPUS_PER_NODE)
    std::string gpusPerTask; // --gpus-per-task (SLURM_GPUS_PER_TASK)
    int cpusPerGpu = 0; // SLURM_CPUS_PER_GPU
    long long memPerGpu = 0; // MiB; SLURM_MEM_PER_GPU
};

// What SLURM_ARRAY_TASK_COUNT/MIN/MAX/STEP say of an --array specification.
struct ArraySummary {
    int count = 0;
    long long min = 0;
    long long max = 0;
    long long step = 1; // the common distance between task ids, 1 when they are uneven
};
std::optional<ArraySummary> summarizeArray(std::string_view spec);

// `exported` is the submitter's environment (NAME=value); Slurm's variables override it.
std::vector<std::string> batchJobEnvironment(
    const BatchJobFacts &facts, const std::vector<std::string> &exported);

} // namespace mc::emu
