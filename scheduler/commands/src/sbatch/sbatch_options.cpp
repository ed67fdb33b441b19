#include "sbatch_options.h"

#include <array>

namespace mc::cmd::sbatch {
namespace {

// Slurm 22.05 sbatch's env_vars[], in its order.
constexpr std::array kEnvOptions{
    EnvOption{"SBATCH_ACCOUNT", kAccount},
    EnvOption{"SBATCH_ARRAY_INX", kArray},
    EnvOption{"SBATCH_ACCTG_FREQ", kAcctgFreq},
    EnvOption{"SBATCH_BATCH", kBatch},
    EnvOption{"SBATCH_BURST_BUFFER", kBb},
    EnvOption{"SBATCH_CLUSTER_CONSTRAINT", kClusterConstraint},
    EnvOption{"SBATCH_CLUSTERS", kClusters},
    EnvOption{"SLURM_CLUSTERS", kClusters},
    EnvOption{"SBATCH_CONTAINER", kContainer},
    EnvOption{"SBATCH_CONSTRAINT", kConstraint},
    EnvOption{"SBATCH_CORE_SPEC", kCoreSpec},
    EnvOption{"SBATCH_CPU_FREQ_REQ", kCpuFreq},
    EnvOption{"SBATCH_CPUS_PER_GPU", kCpusPerGpu},
    EnvOption{"SBATCH_DEBUG", kVerbose},
    EnvOption{"SBATCH_DELAY_BOOT", kDelayBoot},
    EnvOption{"SBATCH_DISTRIBUTION", kDistribution},
    EnvOption{"SBATCH_EXCLUSIVE", kExclusive},
    EnvOption{"SBATCH_EXPORT", kExport},
    EnvOption{"SBATCH_GET_USER_ENV", kGetUserEnv},
    EnvOption{"SBATCH_GRES", kGres},
    EnvOption{"SBATCH_GRES_FLAGS", kGresFlags},
    EnvOption{"SBATCH_GPUS", kGpus},
    EnvOption{"SBATCH_GPU_BIND", kGpuBind},
    EnvOption{"SBATCH_GPU_FREQ", kGpuFreq},
    EnvOption{"SBATCH_GPUS_PER_NODE", kGpusPerNode},
    EnvOption{"SBATCH_GPUS_PER_SOCKET", kGpusPerSocket},
    EnvOption{"SBATCH_GPUS_PER_TASK", kGpusPerTask},
    EnvOption{"SLURM_HINT", kHint},
    EnvOption{"SBATCH_HINT", kHint},
    EnvOption{"SBATCH_JOB_NAME", kJobName},
    EnvOption{"SBATCH_MEM_BIND", kMemBind},
    EnvOption{"SBATCH_MEM_PER_CPU", kMemPerCpu},
    EnvOption{"SBATCH_MEM_PER_GPU", kMemPerGpu},
    EnvOption{"SBATCH_MEM_PER_NODE", kMem},
    EnvOption{"SBATCH_NETWORK", kNetwork},
    EnvOption{"SBATCH_NO_KILL", kNoKill},
    EnvOption{"SBATCH_NO_REQUEUE", kNoRequeue},
    EnvOption{"SBATCH_OPEN_MODE", kOpenMode},
    EnvOption{"SBATCH_OVERCOMMIT", kOvercommit},
    EnvOption{"SBATCH_PARTITION", kPartition},
    EnvOption{"SBATCH_POWER", kPower},
    EnvOption{"SBATCH_PROFILE", kProfile},
    EnvOption{"SBATCH_QOS", kQos},
    EnvOption{"SBATCH_REQ_SWITCH", kSwitches},
    EnvOption{"SBATCH_REQUEUE", kRequeue},
    EnvOption{"SBATCH_RESERVATION", kReservation},
    EnvOption{"SBATCH_SIGNAL", kSignal},
    EnvOption{"SBATCH_SPREAD_JOB", kSpreadJob},
    EnvOption{"SBATCH_THREAD_SPEC", kThreadSpec},
    EnvOption{"SBATCH_THREADS_PER_CORE", kThreadsPerCore},
    EnvOption{"SBATCH_TIMELIMIT", kTime},
    EnvOption{"SBATCH_USE_MIN_NODES", kUseMinNodes},
    EnvOption{"SBATCH_WAIT", kWait},
    EnvOption{"SBATCH_WAIT_ALL_NODES", kWaitAllNodes},
    EnvOption{"SBATCH_WAIT4SWITCH", kSwitches},
    EnvOption{"SBATCH_WCKEY", kWckey},
    EnvOption{"SBATCH_ERROR", kError},
    EnvOption{"SBATCH_INPUT", kInput},
    EnvOption{"SBATCH_OUTPUT", kOutput},
};

} // namespace

std::span<const OptionDef> optionTable()
{
    return jobOptionTable(kSbatchCommand);
}

bool isEarlyPassOption(int id)
{
    return id == kHelp || id == kUsage || id == kVersion || id == kVerbose || id == kQuiet
        || id == kWrap;
}

std::span<const EnvOption> envTable()
{
    return kEnvOptions;
}

const OptionDef *findOption(int id)
{
    for (const auto &def : optionTable()) {
        if (def.id == id) {
            return &def;
        }
    }
    return nullptr;
}

} // namespace mc::cmd::sbatch
