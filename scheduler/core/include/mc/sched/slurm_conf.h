#pragma once
// The cluster as etc/slurm.conf describes it, in slurm.conf syntax. Keys we do not model are
// reported back (never silently ignored) so the caller can warn about them.

#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mc::sched {

enum class PartitionState { Up, Down, Drain, Inactive };

// SchedulerType=sched/builtin (strict priority order) or sched/backfill (Slurm's default).
enum class SchedulerKind { Builtin, Backfill };
// PriorityType=priority/basic (submission order) or priority/multifactor.
enum class PriorityKind { Basic, Multifactor };
// PreemptMode= (global or per partition); Off unless PreemptType=preempt/partition_prio.
enum class PreemptMode { Off, Cancel, Requeue };

// PriorityWeight*= and the other multifactor keys of slurm.conf.
struct PriorityConfig {
    PriorityKind kind = PriorityKind::Basic;
    std::int64_t weightAge = 0;
    std::int64_t weightFairshare = 0;
    std::int64_t weightJobSize = 0;
    std::int64_t weightPartition = 0;
    std::int64_t weightQos = 0;
    Seconds maxAge = 7 * 24 * 3600; // PriorityMaxAge=, default 7-0
    Seconds decayHalfLife = 7 * 24 * 3600; // PriorityDecayHalfLife=, default 7-0; 0: no decay
    bool favorSmall = false; // PriorityFavorSmall=
    // PriorityCalcPeriod= (minutes, or a time like 00:05:00), default 5 minutes: how often
    // running jobs' usage is charged to fairshare. Never below one second.
    Seconds calcPeriod = 5 * 60;
};

struct NodeConfig {
    std::string name;
    int cpus = 1;
    MiB realMemory = 1; // RealMemory= (MiB)
    int gpus = 0; // from Gres=gpu:N (also gpu:<type>:N)
    std::string gpuType; // the <type> of Gres=gpu:<type>:N; empty when untyped
    std::vector<std::string> features;
    int weight = 1;
    // Why slurmctld drains the node at registration because its gres.conf reports fewer GPUs
    // than Gres= (applyGresConf() in gres_conf.h); empty when it registers cleanly.
    std::string gresInvalid;
};

struct PartitionConfig {
    std::string name;
    std::vector<std::string> nodes; // expanded from Nodes=
    bool isDefault = false;
    Seconds maxTime = kInfinite; // MaxTime=
    std::optional<Seconds> defaultTime; // DefaultTime=; unset means MaxTime
    PartitionState state = PartitionState::Up;
    int priorityTier = 1;
    bool exclusive = false; // OverSubscribe=EXCLUSIVE
    std::optional<int> maxNodes;
    std::vector<std::string> allowAccounts; // empty: all
    int minNodes = 1; // MinNodes=
    std::optional<PreemptMode> preemptMode; // PreemptMode= of the partition; unset: cluster's
    Seconds graceTime = 0; // GraceTime= (seconds) before a preempted job is ended
};

// A quality of service of the accounting database (sacctmgr show qos). minicluster keeps
// them in etc/minicluster.conf (`QOS=name [Priority=N]`); a cluster without such lines has
// Slurm's one default QOS, "normal", priority 0.
struct QosConfig {
    std::string name;
    int priority = 0; // Priority=: the QOS priority factor is this over the largest one
};

struct ClusterConfig {
    std::string clusterName = "cluster";
    std::string controlMachine = "localhost";
    std::optional<MiB> defMemPerCpu; // DefMemPerCPU=
    std::optional<MiB> defMemPerNode; // DefMemPerNode=
    Seconds killWait = 30; // KillWait= (seconds)
    // How long a requeued job waits (BeginTime) before it may run again: the launch
    // credential's lifetime (AuthInfo=cred_expire=, at least 5 s, 120 s by default) plus one.
    Seconds requeueDelay = 121;
    // MinJobAge= (seconds): how long a finished job stays in the controller's memory (squeue,
    // scontrol show job); its record stays in the store for good. 0: never forgotten.
    Seconds minJobAge = 300;
    // OverTimeLimit= (minutes in the file, seconds here): how long past its time limit a job
    // may run before it is ended; nullopt: UNLIMITED.
    std::optional<Seconds> overTimeLimit = Seconds{0};
    // InactiveLimit= (seconds of the cluster clock; 0: unlimited): an salloc or srun
    // allocation whose command stops responding this long ends TIMEOUT, reason InactiveLimit.
    Seconds inactiveLimit = 0;
    // BatchStartTimeout= (seconds): a batch job its node has not reported started this long
    // (plus min(10, MessageTimeout)) after its launch is lost with the node (requeued or
    // NODE_FAIL). Measured on the wall clock: a launch is process work, like a message.
    Seconds batchStartTimeout = 10;
    Seconds messageTimeout = 10; // MessageTimeout= (seconds): part of both limits above
    // SchedulerParameters= as written ("" when absent); kill_invalid_depend cancels a job whose
    // dependency can never be satisfied instead of leaving it DependencyNeverSatisfied.
    std::string schedulerParameters;
    bool killInvalidDepend = false;
    SchedulerKind scheduler = SchedulerKind::Backfill; // SchedulerType=
    PriorityConfig priority;
    bool preemptPartitionPrio = false; // PreemptType=preempt/partition_prio
    PreemptMode preemptMode = PreemptMode::Off; // PreemptMode= (cluster-wide)
    // SlurmctldParameters=preempt_send_user_signal: a preempted job gets its --signal at once
    // (when not sent yet) instead of SIGTERM.
    bool preemptSendUserSignal = false;
    // LaunchParameters=use_interactive_step (the Alliance's clusters): salloc without a
    // command opens its shell as an interactive step on the first allocated node.
    bool useInteractiveStep = false;
    // AccountingStoreFlags=job_comment (or the older AccountingStoreJobComment=YES): sacct
    // shows the jobs' Comment; without it the Comment column stays empty, as in Slurm.
    bool storeJobComment = false;
    // AccountingStoreFlags=job_script / job_env: a job's script / environment outlive its
    // record in the controller (sacct --batch-script / --env-vars); otherwise they are dropped.
    bool storeJobScript = false;
    bool storeJobEnv = false;
    std::vector<NodeConfig> nodes;
    std::vector<PartitionConfig> partitions;
    std::vector<QosConfig> qos{QosConfig{"normal", 0}}; // the first is the default QOS

    const NodeConfig *node(std::string_view name) const;
    const PartitionConfig *partition(std::string_view name) const;
    const PartitionConfig *defaultPartition() const;
    const QosConfig *findQos(std::string_view name) const;
};

struct ConfigProblem {
    int line = 0;
    std::string message; // e.g. "unknown key Foo=", "bad value for CPUs="
};

struct ParsedConfig {
    ClusterConfig config;
    std::vector<ConfigProblem> problems; // unknown keys and bad values; empty when clean
    // Keys of the file that Slurm knows and minicluster accepts without acting on them (said
    // at `minicluster up`), as written, in file order.
    std::vector<std::string> notImplemented;
};

// Parses slurm.conf text: `Key=Value` pairs (one per line outside NodeName=/PartitionName=
// lines), `#` comments, line continuations with '\', case-insensitive keys,
// NodeName=/PartitionName= lines (NodeName=DEFAULT and PartitionName=DEFAULT set defaults),
// with hostlist expressions in NodeName= and Nodes= (Nodes=ALL too). Keys real Slurm 22.05
// knows but minicluster does not act on (SlurmctldPort, AuthType, ...) are accepted without a
// problem; unknown keys, bad values and `Include` are reported. As in slurmctld, ClusterName is
// lowercased and the last Default=YES partition is the default.
ParsedConfig parseSlurmConf(std::string_view text);

} // namespace mc::sched
