#pragma once
// sbatch's option table: every option of `man sbatch` (Slurm 22.05), those minicluster does not
// implement marked unsupported so that they are refused, never ignored.

#include "mc/cmd/option_parser.h"

#include <span>
#include <string_view>

namespace mc::cmd::sbatch {

enum Opt : int {
    kAccount = 1,
    kAcctgFreq,
    kArray,
    kBatch,
    kBegin,
    kBb,
    kBbf,
    kClusterConstraint,
    kChdir,
    kCluster,
    kClusters,
    kComment,
    kContainer,
    kContext,
    kContiguous,
    kConstraint,
    kCoreSpec,
    kCoresPerSocket,
    kCpuFreq,
    kCpusPerGpu,
    kCpusPerTask,
    kDeadline,
    kDelayBoot,
    kDependency,
    kDistribution,
    kError,
    kExclude,
    kExclusive,
    kExport,
    kExportFile,
    kExtraNodeInfo,
    kGetUserEnv,
    kGid,
    kGpuBind,
    kGpuFreq,
    kGpus,
    kGpusPerNode,
    kGpusPerSocket,
    kGpusPerTask,
    kGres,
    kGresFlags,
    kHelp,
    kHint,
    kHold,
    kIgnorePbs,
    kInput,
    kJobName,
    kKillOnInvalidDep,
    kLicenses,
    kMailType,
    kMailUser,
    kMcsLabel,
    kMem,
    kMemBind,
    kMemPerCpu,
    kMemPerGpu,
    kMincpus,
    kNetwork,
    kNice,
    kNoKill,
    kNoRequeue,
    kNodefile,
    kNodelist,
    kNodes,
    kNtasks,
    kNtasksPerCore,
    kNtasksPerGpu,
    kNtasksPerNode,
    kNtasksPerSocket,
    kNtasksPerTres,
    kOpenMode,
    kOutput,
    kOvercommit,
    kOversubscribe,
    kParsable,
    kPartition,
    kPower,
    kPrefer,
    kPriority,
    kProfile,
    kPropagate,
    kQos,
    kQuiet,
    kReboot,
    kRequeue,
    kReservation,
    kSignal,
    kSocketsPerNode,
    kSpreadJob,
    kSwitches,
    kTestOnly,
    kThreadSpec,
    kThreadsPerCore,
    kTime,
    kTimeMin,
    kTmp,
    kUid,
    kUseMinNodes,
    kVerbose,
    kVersion,
    kUsage,
    kWait,
    kWaitAllNodes,
    kWckey,
    kWrap,
};

// The command-line (and #SBATCH) option table.
std::span<const OptionDef> optionTable();

// Options sbatch reads only from its own command line, in its first pass (Slurm ignores them in
// #SBATCH lines): --help, --usage, --version, --verbose, --quiet, --wrap.
bool isEarlyPassOption(int id);

// SBATCH_* input environment variables and the option each stands for, in the order sbatch
// applies them.
struct EnvOption {
    std::string_view variable;
    int id;
};
std::span<const EnvOption> envTable();

// The option definition with `id`; never null for an id of the table.
const OptionDef *findOption(int id);

} // namespace mc::cmd::sbatch
