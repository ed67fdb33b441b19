#include "sbatch_options.h"

#include <array>

namespace mc::cmd::sbatch {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr ArgKind kOptArg = ArgKind::Optional;
constexpr bool kYes = true;
constexpr bool kRefused = false;

// Order and spelling follow Slurm 22.05's common_options[] (it decides which prefix wins).
constexpr std::array kOptions{
    OptionDef{"account", 'A', kReq, kAccount, kYes},
    OptionDef{"acctg-freq", 0, kReq, kAcctgFreq, kRefused},
    OptionDef{"array", 'a', kReq, kArray, kYes},
    OptionDef{"batch", 0, kReq, kBatch, kRefused},
    OptionDef{"begin", 'b', kReq, kBegin, kYes},
    OptionDef{"bb", 0, kReq, kBb, kRefused},
    OptionDef{"bbf", 0, kReq, kBbf, kRefused},
    OptionDef{"cluster-constraint", 0, kReq, kClusterConstraint, kRefused},
    OptionDef{"chdir", 'D', kReq, kChdir, kYes},
    OptionDef{"cluster", 0, kReq, kCluster, kRefused},
    OptionDef{"clusters", 'M', kReq, kClusters, kRefused},
    OptionDef{"comment", 0, kReq, kComment, kYes},
    OptionDef{"container", 0, kReq, kContainer, kRefused},
    OptionDef{"context", 0, kReq, kContext, kRefused},
    OptionDef{"contiguous", 0, kNo, kContiguous, kRefused},
    OptionDef{"constraint", 'C', kReq, kConstraint, kYes},
    OptionDef{"core-spec", 'S', kReq, kCoreSpec, kRefused},
    OptionDef{"cores-per-socket", 0, kReq, kCoresPerSocket, kRefused},
    OptionDef{"cpu-freq", 0, kReq, kCpuFreq, kRefused},
    OptionDef{"cpus-per-gpu", 0, kReq, kCpusPerGpu, kYes},
    OptionDef{"cpus-per-task", 'c', kReq, kCpusPerTask, kYes},
    OptionDef{"deadline", 0, kReq, kDeadline, kRefused},
    OptionDef{"delay-boot", 0, kReq, kDelayBoot, kRefused},
    OptionDef{"dependency", 'd', kReq, kDependency, kYes},
    OptionDef{"distribution", 'm', kReq, kDistribution, kRefused},
    OptionDef{"error", 'e', kReq, kError, kYes},
    OptionDef{"exclude", 'x', kReq, kExclude, kYes},
    OptionDef{"exclusive", 0, kOptArg, kExclusive, kYes},
    OptionDef{"export", 0, kReq, kExport, kYes},
    OptionDef{"export-file", 0, kReq, kExportFile, kRefused},
    OptionDef{"extra-node-info", 'B', kReq, kExtraNodeInfo, kRefused},
    OptionDef{"get-user-env", 0, kOptArg, kGetUserEnv, kRefused},
    OptionDef{"gid", 0, kReq, kGid, kRefused},
    OptionDef{"gpu-bind", 0, kReq, kGpuBind, kRefused},
    OptionDef{"gpu-freq", 0, kReq, kGpuFreq, kRefused},
    OptionDef{"gpus", 'G', kReq, kGpus, kYes},
    OptionDef{"gpus-per-node", 0, kReq, kGpusPerNode, kYes},
    OptionDef{"gpus-per-socket", 0, kReq, kGpusPerSocket, kRefused},
    OptionDef{"gpus-per-task", 0, kReq, kGpusPerTask, kYes},
    OptionDef{"gres", 0, kReq, kGres, kYes},
    OptionDef{"gres-flags", 0, kReq, kGresFlags, kRefused},
    OptionDef{"help", 'h', kNo, kHelp, kYes},
    OptionDef{"hint", 0, kReq, kHint, kRefused},
    OptionDef{"hold", 'H', kNo, kHold, kYes},
    OptionDef{"ignore-pbs", 0, kNo, kIgnorePbs, kYes},
    OptionDef{"input", 'i', kReq, kInput, kYes},
    OptionDef{"job-name", 'J', kReq, kJobName, kYes},
    OptionDef{"kill-on-invalid-dep", 0, kReq, kKillOnInvalidDep, kRefused},
    OptionDef{"licenses", 'L', kReq, kLicenses, kRefused},
    OptionDef{"mail-type", 0, kReq, kMailType, kYes},
    OptionDef{"mail-user", 0, kReq, kMailUser, kYes},
    OptionDef{"mcs-label", 0, kReq, kMcsLabel, kRefused},
    OptionDef{"mem", 0, kReq, kMem, kYes},
    OptionDef{"mem-bind", 0, kReq, kMemBind, kRefused},
    OptionDef{"mem-per-cpu", 0, kReq, kMemPerCpu, kYes},
    OptionDef{"mem-per-gpu", 0, kReq, kMemPerGpu, kYes},
    OptionDef{"mincpus", 0, kReq, kMincpus, kRefused},
    OptionDef{"network", 0, kReq, kNetwork, kRefused},
    OptionDef{"nice", 0, kOptArg, kNice, kYes},
    OptionDef{"no-kill", 'k', kOptArg, kNoKill, kRefused},
    OptionDef{"no-requeue", 0, kNo, kNoRequeue, kYes},
    OptionDef{"nodefile", 'F', kReq, kNodefile, kRefused},
    OptionDef{"nodelist", 'w', kReq, kNodelist, kYes},
    OptionDef{"nodes", 'N', kReq, kNodes, kYes},
    OptionDef{"ntasks", 'n', kReq, kNtasks, kYes},
    OptionDef{"ntasks-per-core", 0, kReq, kNtasksPerCore, kRefused},
    OptionDef{"ntasks-per-gpu", 0, kReq, kNtasksPerGpu, kRefused},
    OptionDef{"ntasks-per-node", 0, kReq, kNtasksPerNode, kYes},
    OptionDef{"ntasks-per-socket", 0, kReq, kNtasksPerSocket, kRefused},
    OptionDef{"ntasks-per-tres", 0, kReq, kNtasksPerTres, kRefused},
    OptionDef{"open-mode", 0, kReq, kOpenMode, kYes},
    OptionDef{"output", 'o', kReq, kOutput, kYes},
    OptionDef{"overcommit", 'O', kNo, kOvercommit, kRefused},
    OptionDef{"oversubscribe", 's', kNo, kOversubscribe, kRefused},
    OptionDef{"parsable", 0, kNo, kParsable, kYes},
    OptionDef{"partition", 'p', kReq, kPartition, kYes},
    OptionDef{"power", 0, kReq, kPower, kRefused},
    OptionDef{"prefer", 0, kReq, kPrefer, kRefused},
    OptionDef{"priority", 0, kReq, kPriority, kRefused},
    OptionDef{"profile", 0, kReq, kProfile, kRefused},
    OptionDef{"propagate", 0, kOptArg, kPropagate, kRefused},
    OptionDef{"qos", 'q', kReq, kQos},
    OptionDef{"quiet", 'Q', kNo, kQuiet, kYes},
    OptionDef{"reboot", 0, kNo, kReboot, kRefused},
    OptionDef{"requeue", 0, kNo, kRequeue, kYes},
    OptionDef{"reservation", 0, kReq, kReservation, kRefused},
    OptionDef{"signal", 0, kReq, kSignal, kYes},
    OptionDef{"sockets-per-node", 0, kReq, kSocketsPerNode, kRefused},
    OptionDef{"spread-job", 0, kNo, kSpreadJob, kRefused},
    OptionDef{"switches", 0, kReq, kSwitches, kRefused},
    OptionDef{"tasks-per-node", 0, kReq, kNtasksPerNode, kYes},
    OptionDef{"test-only", 0, kNo, kTestOnly, kYes},
    OptionDef{"thread-spec", 0, kReq, kThreadSpec, kRefused},
    OptionDef{"threads-per-core", 0, kReq, kThreadsPerCore, kRefused},
    OptionDef{"time", 't', kReq, kTime, kYes},
    OptionDef{"time-min", 0, kReq, kTimeMin, kYes},
    OptionDef{"tmp", 0, kReq, kTmp, kRefused},
    OptionDef{"uid", 0, kReq, kUid, kRefused},
    OptionDef{"use-min-nodes", 0, kNo, kUseMinNodes, kRefused},
    OptionDef{"verbose", 'v', kNo, kVerbose, kYes},
    OptionDef{"version", 'V', kNo, kVersion, kYes},
    OptionDef{"usage", 0, kNo, kUsage, kYes},
    OptionDef{"wait", 'W', kNo, kWait},
    OptionDef{"wait-all-nodes", 0, kReq, kWaitAllNodes, kRefused},
    OptionDef{"wckey", 0, kReq, kWckey, kRefused},
    OptionDef{"wrap", 0, kReq, kWrap, kYes},
};

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
    return kOptions;
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
    for (const auto &def : kOptions) {
        if (def.id == id) {
            return &def;
        }
    }
    return nullptr;
}

} // namespace mc::cmd::sbatch
