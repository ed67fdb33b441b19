#include "mc/cmd/job_option_table.h"

#include <array>
#include <vector>

namespace mc::cmd {
namespace {

constexpr ArgKind kNo = ArgKind::None;
constexpr ArgKind kReq = ArgKind::Required;
constexpr ArgKind kOpt = ArgKind::Optional;

constexpr unsigned kS = kSbatchCommand;
constexpr unsigned kR = kSrunCommand;
constexpr unsigned kA = kSallocCommand;
constexpr unsigned kAll = kS | kR | kA;
constexpr unsigned kNone = 0;

struct Row {
    std::string_view longName;
    char shortName;
    ArgKind arg;
    JobOptionId id;
    unsigned takes; // the commands whose man page has the option
    unsigned implements; // those of them in which minicluster implements it
};

// Slurm 22.05's common_options[] order for sbatch's options; the options only srun or salloc
// take where the real commands list them in an ambiguous prefix's possibilities (--jobid before
// --job-name), else in alphabetical places.
constexpr std::array kRows{
    Row{"accel-bind", 0, kReq, kAccelBind, kR, kR},
    Row{"account", 'A', kReq, kAccount, kAll, kAll},
    Row{"acctg-freq", 0, kReq, kAcctgFreq, kAll, kNone},
    Row{"array", 'a', kReq, kArray, kS, kS},
    Row{"batch", 0, kReq, kBatch, kS, kNone},
    Row{"bcast", 0, kOpt, kBcast, kR, kNone},
    Row{"bcast-exclude", 0, kReq, kBcastExclude, kR, kNone},
    Row{"begin", 'b', kReq, kBegin, kAll, kS},
    Row{"bb", 0, kReq, kBb, kAll, kNone},
    Row{"bbf", 0, kReq, kBbf, kAll, kNone},
    Row{"bell", 0, kNo, kBell, kA, kNone},
    Row{"cluster-constraint", 0, kReq, kClusterConstraint, kAll, kNone},
    Row{"chdir", 'D', kReq, kChdir, kAll, kAll},
    Row{"cluster", 0, kReq, kCluster, kS, kS},
    Row{"clusters", 'M', kReq, kClusters, kAll, kS},
    Row{"comment", 0, kReq, kComment, kAll, kS},
    Row{"compress", 0, kOpt, kCompress, kR, kNone},
    Row{"container", 0, kReq, kContainer, kAll, kNone},
    Row{"context", 0, kReq, kContext, kS, kNone},
    Row{"contiguous", 0, kNo, kContiguous, kAll, kNone},
    Row{"constraint", 'C', kReq, kConstraint, kAll, kAll},
    Row{"core-spec", 'S', kReq, kCoreSpec, kAll, kNone},
    Row{"cores-per-socket", 0, kReq, kCoresPerSocket, kAll, kNone},
    Row{"cpu-bind", 0, kReq, kCpuBind, kR, kR},
    Row{"cpu-freq", 0, kReq, kCpuFreq, kAll, kNone},
    Row{"cpu_bind", 0, kReq, kCpuBind, kR, kR},
    Row{"cpus-per-gpu", 0, kReq, kCpusPerGpu, kAll, kAll},
    Row{"cpus-per-task", 'c', kReq, kCpusPerTask, kAll, kAll},
    Row{"deadline", 0, kReq, kDeadline, kAll, kS},
    Row{"delay-boot", 0, kReq, kDelayBoot, kAll, kNone},
    Row{"dependency", 'd', kReq, kDependency, kAll, kS},
    Row{"disable-status", 'X', kNo, kDisableStatus, kR, kNone},
    Row{"distribution", 'm', kReq, kDistribution, kAll, kR | kS},
    Row{"epilog", 0, kReq, kEpilog, kR, kNone},
    Row{"error", 'e', kReq, kError, kS | kR, kS},
    Row{"exact", 0, kNo, kExact, kR, kR},
    Row{"exclude", 'x', kReq, kExclude, kAll, kAll},
    Row{"exclusive", 0, kOpt, kExclusive, kAll, kAll},
    Row{"export", 0, kReq, kExport, kS | kR, kS | kR},
    Row{"export-file", 0, kReq, kExportFile, kS, kNone},
    Row{"extra-node-info", 'B', kReq, kExtraNodeInfo, kAll, kNone},
    Row{"get-user-env", 0, kOpt, kGetUserEnv, kS | kA, kNone},
    Row{"gid", 0, kReq, kGid, kAll, kNone},
    Row{"gpu-bind", 0, kReq, kGpuBind, kAll, kNone},
    Row{"gpu-freq", 0, kReq, kGpuFreq, kAll, kNone},
    Row{"gpus", 'G', kReq, kGpus, kAll, kAll},
    Row{"gpus-per-node", 0, kReq, kGpusPerNode, kAll, kAll},
    Row{"gpus-per-socket", 0, kReq, kGpusPerSocket, kAll, kNone},
    Row{"gpus-per-task", 0, kReq, kGpusPerTask, kAll, kAll},
    Row{"gres", 0, kReq, kGres, kAll, kAll},
    Row{"gres-flags", 0, kReq, kGresFlags, kAll, kNone},
    Row{"help", 'h', kNo, kHelp, kAll, kAll},
    Row{"het-group", 0, kReq, kHetGroup, kR, kNone},
    Row{"hint", 0, kReq, kHint, kAll, kR | kA},
    Row{"hold", 'H', kNo, kHold, kAll, kS},
    Row{"ignore-pbs", 0, kNo, kIgnorePbs, kS, kS},
    Row{"immediate", 'I', kOpt, kImmediate, kR | kA, kR | kA},
    Row{"input", 'i', kReq, kInput, kS | kR, kS},
    // Not in srun's man page: what salloc runs for its shell under use_interactive_step
    // (InteractiveStepOptions), as in Slurm's common_options[].
    Row{"interactive", 0, kNo, kInteractive, kR, kR},
    Row{"jobid", 0, kReq, kJobId, kR, kR},
    Row{"job-name", 'J', kReq, kJobName, kAll, kAll},
    Row{"kill-command", 'K', kOpt, kKillCommand, kA, kNone},
    Row{"kill-on-bad-exit", 'K', kOpt, kKillOnBadExit, kR, kR},
    Row{"kill-on-invalid-dep", 0, kReq, kKillOnInvalidDep, kS, kNone},
    Row{"label", 'l', kNo, kLabel, kR, kR},
    Row{"licenses", 'L', kReq, kLicenses, kAll, kS},
    Row{"mail-type", 0, kReq, kMailType, kAll, kAll},
    Row{"mail-user", 0, kReq, kMailUser, kAll, kAll},
    Row{"mcs-label", 0, kReq, kMcsLabel, kAll, kNone},
    Row{"mem", 0, kReq, kMem, kAll, kAll},
    Row{"mem-bind", 0, kReq, kMemBind, kAll, kNone},
    Row{"mem-per-cpu", 0, kReq, kMemPerCpu, kAll, kAll},
    Row{"mem-per-gpu", 0, kReq, kMemPerGpu, kAll, kAll},
    Row{"mincpus", 0, kReq, kMincpus, kAll, kNone},
    Row{"mpi", 0, kReq, kMpi, kR, kR},
    Row{"msg-timeout", 0, kReq, kMsgTimeout, kR, kNone},
    Row{"multi-prog", 0, kNo, kMultiProg, kR, kR},
    Row{"network", 0, kReq, kNetwork, kAll, kNone},
    Row{"nice", 0, kOpt, kNice, kAll, kS},
    Row{"no-allocate", 'Z', kNo, kNoAllocate, kR, kNone},
    Row{"no-bell", 0, kNo, kNoBell, kA, kNone},
    Row{"no-kill", 'k', kOpt, kNoKill, kAll, kR | kA},
    Row{"no-requeue", 0, kNo, kNoRequeue, kS, kS},
    Row{"no-shell", 0, kNo, kNoShell, kA, kNone},
    Row{"nodefile", 'F', kReq, kNodefile, kAll, kNone},
    Row{"nodelist", 'w', kReq, kNodelist, kAll, kAll},
    Row{"nodes", 'N', kReq, kNodes, kAll, kAll},
    Row{"ntasks", 'n', kReq, kNtasks, kAll, kAll},
    Row{"ntasks-per-core", 0, kReq, kNtasksPerCore, kAll, kNone},
    Row{"ntasks-per-gpu", 0, kReq, kNtasksPerGpu, kAll, kNone},
    Row{"ntasks-per-node", 0, kReq, kNtasksPerNode, kAll, kAll},
    Row{"ntasks-per-socket", 0, kReq, kNtasksPerSocket, kAll, kNone},
    Row{"ntasks-per-tres", 0, kReq, kNtasksPerTres, kS, kNone},
    Row{"open-mode", 0, kReq, kOpenMode, kS | kR, kS},
    Row{"output", 'o', kReq, kOutput, kS | kR, kS},
    Row{"overcommit", 'O', kNo, kOvercommit, kAll, kNone},
    Row{"overlap", 0, kNo, kOverlap, kR, kR},
    Row{"oversubscribe", 's', kNo, kOversubscribe, kAll, kNone},
    Row{"parsable", 0, kNo, kParsable, kS, kS},
    Row{"partition", 'p', kReq, kPartition, kAll, kAll},
    Row{"power", 0, kReq, kPower, kAll, kNone},
    Row{"prefer", 0, kReq, kPrefer, kAll, kNone},
    Row{"preserve-env", 'E', kNo, kPreserveEnv, kR, kR},
    Row{"priority", 0, kReq, kPriority, kAll, kS},
    Row{"profile", 0, kReq, kProfile, kAll, kNone},
    Row{"prolog", 0, kReq, kProlog, kR, kNone},
    Row{"propagate", 0, kOpt, kPropagate, kS | kR, kNone},
    Row{"pty", 0, kNo, kPty, kR, kR},
    Row{"qos", 'q', kReq, kQos, kAll, kAll},
    Row{"quiet", 'Q', kNo, kQuiet, kAll, kAll},
    Row{"quit-on-interrupt", 0, kNo, kQuitOnInterrupt, kR, kNone},
    Row{"reboot", 0, kNo, kReboot, kAll, kNone},
    Row{"relative", 'r', kReq, kRelative, kR, kNone},
    Row{"requeue", 0, kNo, kRequeue, kS, kS},
    Row{"reservation", 0, kReq, kReservation, kAll, kS},
    Row{"resv-ports", 0, kOpt, kResvPorts, kR, kNone},
    Row{"send-libs", 0, kOpt, kSendLibs, kR, kNone},
    Row{"signal", 0, kReq, kSignal, kAll, kS},
    Row{"slurmd-debug", 0, kReq, kSlurmdDebug, kR, kNone},
    Row{"sockets-per-node", 0, kReq, kSocketsPerNode, kAll, kNone},
    Row{"spread-job", 0, kNo, kSpreadJob, kAll, kNone},
    Row{"switches", 0, kReq, kSwitches, kAll, kNone},
    Row{"task-epilog", 0, kReq, kTaskEpilog, kR, kNone},
    Row{"task-prolog", 0, kReq, kTaskProlog, kR, kNone},
    Row{"tasks-per-node", 0, kReq, kNtasksPerNode, kS, kS},
    Row{"test-only", 0, kNo, kTestOnly, kS | kR, kS},
    Row{"threads", 'T', kReq, kThreads, kR, kNone},
    Row{"thread-spec", 0, kReq, kThreadSpec, kAll, kNone},
    Row{"threads-per-core", 0, kReq, kThreadsPerCore, kAll, kNone},
    Row{"time", 't', kReq, kTime, kAll, kAll},
    Row{"time-min", 0, kReq, kTimeMin, kAll, kS},
    Row{"tmp", 0, kReq, kTmp, kAll, kNone},
    Row{"uid", 0, kReq, kUid, kAll, kNone},
    Row{"unbuffered", 'u', kNo, kUnbuffered, kR, kR},
    Row{"use-min-nodes", 0, kNo, kUseMinNodes, kAll, kNone},
    Row{"verbose", 'v', kNo, kVerbose, kAll, kAll},
    Row{"version", 'V', kNo, kVersion, kAll, kAll},
    Row{"usage", 0, kNo, kUsage, kAll, kAll},
    Row{"wait", 'W', kNo, kWait, kS, kS},
    Row{"wait", 'W', kReq, kWaitSeconds, kR | kA, kR},
    Row{"wait-all-nodes", 0, kReq, kWaitAllNodes, kS | kA, kNone},
    Row{"wckey", 0, kReq, kWckey, kAll, kNone},
    Row{"wrap", 0, kReq, kWrap, kS, kS},
    Row{"x11", 0, kOpt, kX11, kR | kA, kNone},
};

std::vector<OptionDef> filtered(JobCommand command)
{
    std::vector<OptionDef> table;
    for (const Row &row : kRows) {
        if ((row.takes & command) != 0) {
            table.push_back(OptionDef{
                row.longName, row.shortName, row.arg, row.id, (row.implements & command) != 0});
        }
    }
    return table;
}

} // namespace

std::span<const OptionDef> jobOptionTable(JobCommand command)
{
    static const std::vector<OptionDef> sbatch = filtered(kSbatchCommand);
    static const std::vector<OptionDef> srun = filtered(kSrunCommand);
    static const std::vector<OptionDef> salloc = filtered(kSallocCommand);
    return command == kSbatchCommand ? sbatch : command == kSrunCommand ? srun : salloc;
}

} // namespace mc::cmd
