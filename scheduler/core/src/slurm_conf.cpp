#include "mc/sched/slurm_conf.h"

#include "mc/base/text.h"
#include "mc/sched/gres.h"
#include "mc/sched/hostlist.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <unordered_set>

namespace mc::sched {
namespace {

using base::equalsIgnoreCase;
using base::splitList;
using base::startsWithIgnoreCase;

// Slurm 22.05 slurm.conf keys (read_config.c) that minicluster accepts without acting on them.
// ClusterName, SlurmctldHost, ControlMachine, DefMemPerCPU, DefMemPerNode, the timing keys and the
// NodeName/PartitionName lines are read; DownNodes, FrontendName and NodeSet lines are accepted.
constexpr std::array<std::string_view, 210> kAcceptedKeys{"AccountingStorageTRES",
    "AccountingStorageEnforce", "AccountingStorageExternalHost", "AccountingStorageHost",
    "AccountingStorageBackupHost", "AccountingStorageLoc", "AccountingStorageParameters",
    "AccountingStoragePass", "AccountingStoragePort", "AccountingStorageType",
    "AccountingStorageUser", "AccountingStoreFlags", "AccountingStoreJobComment",
    "AcctGatherEnergyType", "AcctGatherNodeFreq", "AcctGatherProfileType",
    "AcctGatherInterconnectType", "AcctGatherInfinibandType", "AcctGatherFilesystemType",
    "AllowSpecResourcesUsage", "AuthAltTypes", "AuthAltParameters", "AuthType", "BackupAddr",
    "BackupController", "BcastExclude", "BcastParameters", "BurstBufferParameters",
    "BurstBufferType", "CoreSpecPlugin", "CliFilterPlugins", "CommunicationParameters",
    "CompleteWait", "ControlAddr", "CpuFreqDef", "CpuFreqGovernors", "CredType", "CryptoType",
    "DebugFlags", "DefCPUPerGPU", "DefMemPerGPU", "DependencyParameters", "DisableRootJobs",
    "EioTimeout", "EnforcePartLimits", "Epilog", "EpilogMsgTime", "EpilogSlurmctld",
    "ExtSensorsType", "ExtSensorsFreq", "FairShareDampeningFactor", "FastSchedule",
    "FederationParameters", "FirstJobId", "GetEnvTimeout", "GresTypes", "GroupUpdateForce",
    "GroupUpdateTime", "GpuFreqDef", "HealthCheckInterval", "HealthCheckNodeState",
    "HealthCheckProgram", "InteractiveStepOptions", "JobAcctGatherType", "JobAcctGatherFrequency",
    "JobAcctGatherParams", "JobCompHost", "JobCompLoc", "JobCompParams", "JobCompPass",
    "JobCompPort", "JobCompType", "JobContainerType", "JobCompUser", "JobCredentialPrivateKey",
    "JobCredentialPublicCertificate", "JobFileAppend", "JobRequeue", "JobSubmitPlugins",
    "KeepAliveTime", "KillOnBadExit", "LaunchParameters", "LaunchType", "Licenses", "LogTimeFormat",
    "MailDomain", "MailProg", "MaxArraySize", "MaxDBDMsgs", "MaxJobCount", "MaxNodeCount",
    "MaxJobId", "MaxMemPerCPU", "MaxMemPerNode", "MaxStepCount", "MaxTasksPerNode", "MCSParameters",
    "MCSPlugin", "MessageTimeout", "MpiDefault", "MpiParams", "NodeFeaturesPlugins", "PluginDir",
    "PlugStackConfig", "PowerParameters", "PowerPlugin", "PreemptMode", "PreemptType",
    "PreemptExemptTime", "PrEpParameters", "PrEpPlugins", "PriorityDecayHalfLife",
    "PriorityCalcPeriod", "PriorityFavorSmall", "PriorityMaxAge", "PriorityParameters",
    "PriorityUsageResetPeriod", "PriorityType", "PriorityFlags", "PrioritySiteFactorParameters",
    "PrioritySiteFactorPlugin", "PriorityWeightAge", "PriorityWeightAssoc",
    "PriorityWeightFairshare", "PriorityWeightJobSize", "PriorityWeightPartition",
    "PriorityWeightQOS", "PriorityWeightTRES", "PrivateData", "ProctrackType", "Prolog",
    "PrologSlurmctld", "PrologEpilogTimeout", "PrologFlags", "PropagatePrioProcess",
    "PropagateResourceLimitsExcept", "PropagateResourceLimits", "RebootProgram", "ReconfigFlags",
    "RequeueExit", "RequeueExitHold", "ResumeFailProgram", "ResumeProgram", "ResumeRate",
    "ResumeTimeout", "ResvEpilog", "ResvOverRun", "ResvProlog", "ReturnToService", "RoutePlugin",
    "SallocDefaultCommand", "SbcastParameters", "SchedulerTimeSlice", "SchedulerType",
    "ScronParameters", "SelectType", "SelectTypeParameters", "SlurmUser", "SlurmdUser",
    "SlurmctldAddr", "SlurmctldDebug", "SlurmctldLogFile", "SlurmctldPidFile", "SlurmctldPlugstack",
    "SlurmctldPort", "SlurmctldPrimaryOffProg", "SlurmctldPrimaryOnProg", "SlurmctldSyslogDebug",
    "SlurmctldTimeout", "SlurmctldParameters", "SlurmdDebug", "SlurmdLogFile", "SlurmdParameters",
    "SlurmdPidFile", "SlurmdPort", "SlurmdSpoolDir", "SlurmdSyslogDebug", "SlurmdTimeout",
    "SlurmSchedLogFile", "SlurmSchedLogLevel", "SrunEpilog", "SrunProlog", "SrunPortRange",
    "StateSaveLocation", "SuspendExcNodes", "SuspendExcParts", "SuspendProgram", "SuspendRate",
    "SuspendTime", "SuspendTimeout", "SwitchParameters", "SwitchType", "TaskEpilog", "TaskProlog",
    "TaskPlugin", "TaskPluginParam", "TCPTimeout", "TmpFS", "TopologyParam", "TopologyPlugin",
    "TrackWCKey", "TreeWidth", "UnkillableStepProgram", "UnkillableStepTimeout", "UsePAM",
    "VSizeFactor", "WaitTime", "X11Parameters"};

constexpr std::array<std::string_view, 24> kNodeKeys{"BcastAddr", "Boards", "CoreSpecCount",
    "CoresPerSocket", "CPUs", "CPUSpecList", "CpuBind", "Feature", "Features", "Gres",
    "MemSpecLimit", "NodeAddr", "NodeHostname", "Port", "Procs", "RealMemory", "Reason", "Sockets",
    "SocketsPerBoard", "State", "ThreadsPerCore", "TmpDisk", "TRESWeights", "Weight"};

constexpr std::array<std::string_view, 42> kPartitionKeys{"AllocNodes", "AllowAccounts",
    "AllowGroups", "AllowQos", "Alternate", "CpuBind", "DefCPUPerGPU", "DefMemPerCPU",
    "DefMemPerGPU", "DefMemPerNode", "Default", "DefaultTime", "DenyAccounts", "DenyQos",
    "DisableRootJobs", "ExclusiveUser", "GraceTime", "Hidden", "LLN", "MaxCPUsPerNode",
    "MaxMemPerCPU", "MaxMemPerNode", "MaxTime", "MaxNodes", "MinNodes", "Nodes", "OverSubscribe",
    "OverTimeLimit", "PreemptMode", "Priority", "PriorityJobFactor", "PriorityTier", "QOS",
    "RootOnly", "ReqResv", "ResumeTimeout", "SelectTypeParameters", "Shared", "State",
    "SuspendTime", "SuspendTimeout", "TRESBillingWeights"};

constexpr std::array<std::string_view, 2> kDownNodesKeys{"Reason", "State"};
constexpr std::array<std::string_view, 2> kNodeSetKeys{"Feature", "Nodes"};
constexpr std::array<std::string_view, 8> kFrontendKeys{"AllowGroups", "AllowUsers", "DenyGroups",
    "DenyUsers", "FrontendAddr", "Port", "Reason", "State"};

constexpr std::uint64_t kMax16 = std::numeric_limits<std::uint16_t>::max();
constexpr std::uint64_t kMax32 = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kMax64 = std::numeric_limits<std::uint64_t>::max();

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// Whether a comma-separated slurm.conf list (SlurmctldParameters=a,b) holds `word`, in any case.
bool listHas(std::string_view list, std::string_view word)
{
    std::size_t from = 0;
    while (from <= list.size()) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        if (equalsIgnoreCase(list.substr(from, comma - from), word)) {
            return true;
        }
        from = comma + 1;
    }
    return false;
}

template <std::size_t N>
bool contains(const std::array<std::string_view, N> &keys, std::string_view key)
{
    return std::any_of(keys.begin(), keys.end(),
        [&](std::string_view known) { return equalsIgnoreCase(known, key); });
}

// Slurm's s_p_handle_uint*(): decimal digits with an optional K (x1024), or UNLIMITED/INFINITE,
// which read as `max` (Slurm's INFINITE of that width).
std::optional<std::uint64_t> parseCount(std::string_view text, std::uint64_t max)
{
    if (equalsIgnoreCase(text, "UNLIMITED") || equalsIgnoreCase(text, "INFINITE")) {
        return max;
    }
    std::uint64_t value = 0;
    const auto *end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr == text.data()) {
        return std::nullopt;
    }
    if (ptr != end && (*ptr == 'k' || *ptr == 'K')) {
        if (value > max / 1024) {
            return std::nullopt;
        }
        value *= 1024;
        ++ptr;
    }
    if (ptr != end || value > max) {
        return std::nullopt;
    }
    return value;
}

std::optional<bool> parseBoolean(std::string_view text)
{
    for (const std::string_view yes : {"yes", "up", "true", "1"}) {
        if (equalsIgnoreCase(text, yes)) {
            return true;
        }
    }
    for (const std::string_view no : {"no", "down", "false", "0"}) {
        if (equalsIgnoreCase(text, no)) {
            return false;
        }
    }
    return std::nullopt;
}

// "REQUEUE", "CANCEL", "OFF" (optionally followed by ",GANG" or ",WITHIN", not modelled).
std::optional<PreemptMode> parsePreemptMode(std::string_view text)
{
    const auto comma = text.find(',');
    const std::string_view mode = text.substr(0, comma);
    if (equalsIgnoreCase(mode, "REQUEUE")) {
        return PreemptMode::Requeue;
    }
    if (equalsIgnoreCase(mode, "CANCEL")) {
        return PreemptMode::Cancel;
    }
    if (equalsIgnoreCase(mode, "OFF")) {
        return PreemptMode::Off;
    }
    return std::nullopt;
}

struct Pair {
    std::string key;
    std::string value;
};

// One `Key=Value` from the front of `rest`, consumed, as Slurm's key=value regex reads it:
// the value is "quoted" (may hold blanks) or runs to the next blank. nullopt leaves `rest`.
std::optional<Pair> nextPair(std::string_view &rest)
{
    std::size_t i = 0;
    const auto at = [&](std::size_t k) {
        return k < rest.size() ? rest[k] : '\0';
    };
    while (isSpace(at(i))) {
        ++i;
    }
    const std::size_t keyStart = i;
    while (std::isalnum(static_cast<unsigned char>(at(i))) != 0 || at(i) == '_' || at(i) == '.') {
        ++i;
    }
    const std::size_t keyEnd = i;
    while (isSpace(at(i))) {
        ++i;
    }
    if (at(i) == '+' || at(i) == '-' || at(i) == '*' || at(i) == '/') {
        ++i;
    }
    if (keyEnd == keyStart || at(i) != '=') {
        return std::nullopt;
    }
    ++i;
    while (isSpace(at(i))) {
        ++i;
    }
    Pair pair{std::string(rest.substr(keyStart, keyEnd - keyStart)), {}};
    const auto closing = at(i) == '"' ? rest.find('"', i + 1) : std::string_view::npos;
    if (closing != std::string_view::npos
        && (closing + 1 == rest.size() || isSpace(rest[closing + 1]))) {
        pair.value = rest.substr(i + 1, closing - i - 1);
        i = closing + 1;
    } else {
        const std::size_t valueStart = i;
        while (i < rest.size() && !isSpace(rest[i])) {
            ++i;
        }
        if (i == valueStart) {
            return std::nullopt;
        }
        pair.value = rest.substr(valueStart, i - valueStart);
    }
    rest.remove_prefix(i);
    return pair;
}

bool isBlank(std::string_view text)
{
    return std::all_of(text.begin(), text.end(), isSpace);
}

struct LogicalLine {
    int number = 0; // of its first physical line
    std::string text;
};

// Physical lines joined at a trailing odd run of '\', with '#' comments removed (unless
// escaped) and then every '\' escape resolved, as Slurm's _get_next_line() does.
std::vector<LogicalLine> logicalLines(std::string_view text)
{
    std::vector<LogicalLine> lines;
    std::string pending;
    int number = 0;
    int first = 1;
    const auto flush = [&] {
        std::string resolved;
        for (std::size_t i = 0; i < pending.size(); ++i) {
            if (pending[i] == '\\') {
                ++i;
            }
            if (i < pending.size()) {
                resolved += pending[i];
            }
        }
        lines.push_back({first, std::move(resolved)});
        pending.clear();
        first = number + 1;
    };
    while (!text.empty()) {
        const auto newline = text.find('\n');
        std::string line(text.substr(0, newline));
        text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
        ++number;

        std::size_t backslashes = 0;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (line[i] == '#' && backslashes % 2 == 0) {
                line.resize(i);
                break;
            }
            backslashes = line[i] == '\\' ? backslashes + 1 : 0;
        }
        auto end = line.find_last_not_of(" \t\r\f\v");
        std::size_t run = 0;
        while (end != std::string::npos && end >= run && line[end - run] == '\\') {
            ++run;
        }
        if (run % 2 == 1) {
            pending += line.substr(0, end);
            continue;
        }
        pending += line;
        flush();
    }
    if (first <= number) { // the text ended inside a continued line
        flush();
    }
    return lines;
}

using Table = std::vector<Pair>;

// The last value given for `key` in `table`, or nullptr.
const std::string *lookup(const Table &table, std::string_view key)
{
    for (auto it = table.rbegin(); it != table.rend(); ++it) {
        if (equalsIgnoreCase(it->key, key)) {
            return &it->value;
        }
    }
    return nullptr;
}

class ConfParser {
public:
    ParsedConfig parse(std::string_view text);

private:
    void problem(std::string message) { m_result.problems.push_back({m_line, std::move(message)}); }
    void badValue(std::string_view key, std::string_view value)
    {
        problem("bad value for " + std::string(key) + "=" + std::string(value));
    }
    void parseError(std::string_view rest)
    {
        problem(
            "parse error at \"" + std::string(rest.substr(rest.find_first_not_of(" \t"))) + "\"");
    }
    template <std::size_t N>
    Table options(std::string_view rest, const std::array<std::string_view, N> &known);
    const std::string *get(const Table &line, const Table &defaults, std::string_view key) const;
    std::optional<std::uint64_t> count(
        const Table &line, const Table &defaults, std::string_view key, std::uint64_t max);
    void globalKey(const Pair &pair);
    bool schedulingKey(const Pair &pair);
    void slurmctldHost(const Pair &pair);
    bool timingKey(const Pair &pair);
    void nodeLine(const std::string &names, const Table &line);
    void nodeCpus(NodeConfig &node, const Table &line);
    void partitionLine(const std::string &name, const Table &line);
    void finish();

    ParsedConfig m_result;
    ClusterConfig &m_config = m_result.config;
    int m_line = 0;
    std::unordered_set<std::string> m_nodeNames;
    Table m_nodeDefaults;
    Table m_partitionDefaults;
    std::vector<std::pair<int, std::string>> m_partitionNodes; // line and Nodes= per partition
    std::optional<std::string> m_slurmctldHost;
    std::optional<std::string> m_controlMachine;
    std::optional<std::pair<int, MiB>> m_defMemPerCpu;
    bool m_defMemPerNodeSet = false;
};

template <std::size_t N>
Table ConfParser::options(std::string_view rest, const std::array<std::string_view, N> &known)
{
    Table table;
    while (auto pair = nextPair(rest)) {
        if (contains(known, pair->key)) {
            table.push_back(std::move(*pair));
        } else {
            problem("unknown key " + pair->key + "=");
        }
    }
    if (!isBlank(rest)) {
        parseError(rest);
    }
    return table;
}

const std::string *ConfParser::get(
    const Table &line, const Table &defaults, std::string_view key) const
{
    const std::string *value = lookup(line, key);
    return value != nullptr ? value : lookup(defaults, key);
}

std::optional<std::uint64_t> ConfParser::count(
    const Table &line, const Table &defaults, std::string_view key, std::uint64_t max)
{
    const std::string *text = get(line, defaults, key);
    if (text == nullptr) {
        return std::nullopt;
    }
    const auto value = parseCount(*text, max);
    if (!value) {
        badValue(key, *text);
    }
    return value;
}

void ConfParser::globalKey(const Pair &pair)
{
    const std::string &key = pair.key;
    const std::string &value = pair.value;
    if (equalsIgnoreCase(key, "ClusterName")) {
        m_config.clusterName = base::toLower(value); // Slurm lowercases it
    } else if (equalsIgnoreCase(key, "ControlMachine")) {
        m_controlMachine = value;
    } else if (timingKey(pair)) {
        return;
    } else if (equalsIgnoreCase(key, "DefMemPerCPU") || equalsIgnoreCase(key, "DefMemPerNode")) {
        const auto mib = parseCount(value, kMax64);
        const bool perNode = equalsIgnoreCase(key, "DefMemPerNode");
        if (!mib) {
            badValue(key, value);
            return;
        }
        // UNLIMITED (or a value past MiB's range) means no default.
        const auto set = *mib <= static_cast<std::uint64_t>(std::numeric_limits<MiB>::max())
            ? std::optional<MiB>(static_cast<MiB>(*mib))
            : std::nullopt;
        if (perNode) {
            m_config.defMemPerNode = set;
            m_defMemPerNodeSet = true;
        } else {
            m_defMemPerCpu = set ? std::optional(std::pair{m_line, *set}) : std::nullopt;
        }
    } else if (schedulingKey(pair)) {
        return;
    } else if (contains(kAcceptedKeys, key)) {
        // Read by others (commands, controller, node set-up) or what minicluster does anyway.
        constexpr std::array<std::string_view, 5> kReadElsewhere{
            "PrologFlags", "SelectType", "SelectTypeParameters", "GresTypes", "SlurmUser"};
        if (!contains(kReadElsewhere, key)) {
            m_result.notImplemented.push_back(key);
        }
        return;
    } else {
        problem("unknown key " + key + "=");
    }
}

// KillWait, MinJobAge, InactiveLimit, BatchStartTimeout, MessageTimeout (seconds) and
// OverTimeLimit (minutes, or UNLIMITED), each of Slurm's width. False when `pair` is none of them.
bool ConfParser::timingKey(const Pair &pair)
{
    const std::string &key = pair.key;
    const std::string &value = pair.value;
    if (equalsIgnoreCase(key, "OverTimeLimit")) {
        if (equalsIgnoreCase(value, "UNLIMITED") || equalsIgnoreCase(value, "INFINITE")) {
            m_config.overTimeLimit.reset();
        } else if (const auto minutes = parseCount(value, kMax16 - 1)) {
            m_config.overTimeLimit = static_cast<Seconds>(*minutes) * 60;
        } else {
            badValue(key, value);
        }
        return true;
    }
    const struct {
        std::string_view name;
        Seconds *field;
        std::uint64_t max;
    } keys[]
        = {{"KillWait", &m_config.killWait, kMax16}, {"MinJobAge", &m_config.minJobAge, kMax32},
            {"InactiveLimit", &m_config.inactiveLimit, kMax16},
            {"BatchStartTimeout", &m_config.batchStartTimeout, kMax16},
            {"MessageTimeout", &m_config.messageTimeout, kMax16}};
    for (const auto &k : keys) {
        if (!equalsIgnoreCase(key, k.name)) {
            continue;
        }
        if (const auto seconds = parseCount(value, k.max)) {
            *k.field = static_cast<Seconds>(*seconds);
        } else {
            badValue(key, value);
        }
        return true;
    }
    return false;
}

// SchedulerType, PriorityType, PriorityWeight*, PriorityMaxAge, PriorityDecayHalfLife,
// PriorityFavorSmall, PriorityCalcPeriod, PriorityFlags (reported: ignored), PreemptType,
// PreemptMode, SlurmctldParameters, AccountingStoreFlags. False when `pair` is none
// of them.
bool ConfParser::schedulingKey(const Pair &pair)
{
    const std::string &key = pair.key;
    const std::string &value = pair.value;
    PriorityConfig &prio = m_config.priority;
    const std::pair<std::string_view, std::int64_t *> weights[] = {
        {"PriorityWeightAge", &prio.weightAge}, {"PriorityWeightFairshare", &prio.weightFairshare},
        {"PriorityWeightJobSize", &prio.weightJobSize},
        {"PriorityWeightPartition", &prio.weightPartition}, {"PriorityWeightQOS", &prio.weightQos}};
    for (const auto &[name, field] : weights) {
        if (equalsIgnoreCase(key, name)) {
            if (const auto weight = parseCount(value, kMax32)) {
                *field = static_cast<std::int64_t>(*weight);
            } else {
                badValue(key, value);
            }
            return true;
        }
    }
    if (equalsIgnoreCase(key, "SchedulerType")) {
        if (equalsIgnoreCase(value, "sched/backfill")) {
            m_config.scheduler = SchedulerKind::Backfill;
        } else if (equalsIgnoreCase(value, "sched/builtin")) {
            m_config.scheduler = SchedulerKind::Builtin;
        } else {
            badValue(key, value);
        }
    } else if (equalsIgnoreCase(key, "PriorityType")) {
        if (equalsIgnoreCase(value, "priority/multifactor")) {
            prio.kind = PriorityKind::Multifactor;
        } else if (equalsIgnoreCase(value, "priority/basic")) {
            prio.kind = PriorityKind::Basic;
        } else {
            badValue(key, value);
        }
    } else if (equalsIgnoreCase(key, "PriorityMaxAge")
        || equalsIgnoreCase(key, "PriorityDecayHalfLife")) {
        const auto limit = parseTimeLimit(value);
        if (!limit || *limit == kInfinite) {
            badValue(key, value);
        } else if (equalsIgnoreCase(key, "PriorityMaxAge")) {
            prio.maxAge = *limit;
        } else {
            prio.decayHalfLife = *limit;
        }
    } else if (equalsIgnoreCase(key, "PriorityCalcPeriod")) {
        // Slurm reads it with time_str2mins(): "5" is five minutes.
        const auto period = parseTimeLimit(value);
        if (!period || *period == kInfinite || *period <= 0) {
            badValue(key, value);
        } else {
            prio.calcPeriod = *period;
        }
    } else if (equalsIgnoreCase(key, "PriorityFlags")) {
        // Said, not silently dropped: the fairshare here is Slurm's classic formula.
        problem("PriorityFlags=" + value
            + " is accepted but ignored by minicluster (no FAIR_TREE or other flags; fairshare "
              "is the classic 2^(-usage/shares))");
    } else if (equalsIgnoreCase(key, "AccountingStoreFlags")) {
        m_config.storeJobComment = m_config.storeJobComment || listHas(value, "job_comment");
        m_config.storeJobScript = listHas(value, "job_script");
        m_config.storeJobEnv = listHas(value, "job_env");
    } else if (equalsIgnoreCase(key, "AccountingStoreJobComment")) {
        m_config.storeJobComment = parseBoolean(value).value_or(false);
    } else if (equalsIgnoreCase(key, "PriorityFavorSmall")) {
        const auto flag = parseBoolean(value);
        prio.favorSmall = flag.value_or(false);
        if (!flag) {
            badValue(key, value);
        }
    } else if (equalsIgnoreCase(key, "PreemptType")) {
        if (equalsIgnoreCase(value, "preempt/partition_prio")) {
            m_config.preemptPartitionPrio = true;
        } else if (equalsIgnoreCase(value, "preempt/none")) {
            m_config.preemptPartitionPrio = false;
        } else {
            problem("PreemptType=" + value + " is not supported by minicluster");
        }
    } else if (equalsIgnoreCase(key, "PreemptMode")) {
        if (const auto mode = parsePreemptMode(value)) {
            m_config.preemptMode = *mode;
        } else {
            badValue(key, value);
        }
    } else if (equalsIgnoreCase(key, "LaunchParameters")) {
        // A comma-separated list; only use_interactive_step changes what minicluster does.
        if (listHas(value, "use_interactive_step")) {
            m_config.useInteractiveStep = true;
        }
    } else if (equalsIgnoreCase(key, "SlurmctldParameters")) {
        // A comma-separated list; only preempt_send_user_signal changes what minicluster does.
        m_config.preemptSendUserSignal
            = m_config.preemptSendUserSignal || listHas(value, "preempt_send_user_signal");
    } else if (equalsIgnoreCase(key, "AuthInfo")) {
        // Only cred_expire= matters here (Slurm's slurm_cred.c: below 5 is an error).
        const auto at = base::toLower(value).find("cred_expire=");
        if (at != std::string::npos) {
            const std::string rest = value.substr(at + 12, value.find(',', at) - at - 12);
            const auto seconds = parseCount(rest, kMax32);
            if (!seconds || *seconds < 5) {
                badValue(key, value);
            } else {
                m_config.requeueDelay = static_cast<Seconds>(*seconds) + 1;
            }
        }
    } else if (equalsIgnoreCase(key, "SchedulerParameters")) {
        // Only kill_invalid_depend changes what minicluster does; the rest tune Slurm's
        // scheduler threads.
        m_config.schedulerParameters = value;
        m_config.killInvalidDepend = listHas(value, "kill_invalid_depend");
    } else {
        return false;
    }
    return true;
}

// "name" or "name(address)"; the first SlurmctldHost line names the primary controller.
void ConfParser::slurmctldHost(const Pair &pair)
{
    const auto paren = pair.value.find('(');
    const auto close = pair.value.find(')');
    const bool valid
        = paren == std::string::npos ? close == std::string::npos : close == pair.value.size() - 1;
    if (!valid) {
        badValue(pair.key, pair.value);
    } else if (!m_slurmctldHost) {
        m_slurmctldHost = pair.value.substr(0, paren);
    }
}

void ConfParser::nodeCpus(NodeConfig &node, const Table &line)
{
    // Slurm's _parse_nodename(): CPUs default to Sockets x CoresPerSocket x ThreadsPerCore,
    // and a CPUs= matching none of the products is reset to it.
    const Table &dflt = m_nodeDefaults;
    const auto positive = [&](std::string_view key) -> std::optional<std::uint64_t> {
        auto value = count(line, dflt, key, kMax16);
        if (value && *value == 0) {
            problem(std::string(key) + "=0 is invalid, reset to 1");
            value = 1;
        }
        return value;
    };
    auto cpus = positive("CPUs");
    if (!cpus) {
        cpus = positive("Procs");
    }
    const std::uint64_t boards = positive("Boards").value_or(1);
    const std::uint64_t cores = positive("CoresPerSocket").value_or(1);
    const std::uint64_t threads = positive("ThreadsPerCore").value_or(1);
    auto sockets = positive("Sockets");
    const auto socketsPerBoard = positive("SocketsPerBoard");
    if (sockets && socketsPerBoard) {
        problem("Sockets=# and SocketsPerBoard=# is invalid, using SocketsPerBoard");
        sockets.reset();
    }
    if (!sockets) {
        if (socketsPerBoard) {
            sockets = boards * *socketsPerBoard;
        } else if (cpus && *cpus >= cores * threads && *cpus % (cores * threads) == 0) {
            sockets = *cpus / (cores * threads);
        } else {
            sockets = boards;
        }
    }
    const std::uint64_t product = *sockets * cores * threads;
    if (cpus && *cpus != *sockets && *cpus != *sockets * cores && *cpus != product) {
        problem("CPUs=" + std::to_string(*cpus)
            + " match no Sockets, Sockets*CoresPerSocket or "
              "Sockets*CoresPerSocket*ThreadsPerCore, reset to "
            + std::to_string(product));
        cpus = product;
    }
    node.cpus = static_cast<int>(std::min<std::uint64_t>(cpus.value_or(product), kMax16));
}

void ConfParser::nodeLine(const std::string &names, const Table &line)
{
    if (equalsIgnoreCase(names, "DEFAULT")) {
        m_nodeDefaults.insert(m_nodeDefaults.end(), line.begin(), line.end());
        return;
    }
    const auto hosts = expandHostlist(names);
    if (equalsIgnoreCase(names, "ALL") || !hosts || hosts->empty()) {
        badValue("NodeName", names);
        return;
    }
    const Table &dflt = m_nodeDefaults;
    NodeConfig node;
    nodeCpus(node, line);
    const auto memory = count(line, dflt, "RealMemory", kMax64);
    node.realMemory = static_cast<MiB>(
        std::min<std::uint64_t>(memory.value_or(1), std::numeric_limits<MiB>::max()));
    if (const std::string *gres = get(line, dflt, "Gres")) {
        const auto gpus = parseNodeGpus(*gres);
        node.gpus = gpus ? gpus->count : 0;
        node.gpuType = gpus ? gpus->type : std::string();
        if (!gpus) {
            badValue("Gres", *gres);
        }
    }
    // Feature and Features are synonyms; the line's own value wins over NodeName=DEFAULT's.
    const std::string *features = lookup(line, "Feature");
    features = features != nullptr ? features : lookup(line, "Features");
    features = features != nullptr ? features : lookup(dflt, "Feature");
    features = features != nullptr ? features : lookup(dflt, "Features");
    if (features != nullptr) {
        node.features = splitList(*features, ',');
    }
    if (const auto weight = count(line, dflt, "Weight", kMax32)) {
        const auto finite = *weight == kMax32 ? kMax32 - 1 : *weight; // Slurm: INFINITE - 1
        node.weight
            = static_cast<int>(std::min<std::uint64_t>(finite, std::numeric_limits<int>::max()));
    }
    for (const auto &host : *hosts) {
        if (!m_nodeNames.insert(host).second) {
            problem("duplicate node name " + host);
            continue;
        }
        node.name = host;
        m_config.nodes.push_back(node);
    }
}

void ConfParser::partitionLine(const std::string &name, const Table &line)
{
    if (equalsIgnoreCase(name, "DEFAULT")) {
        m_partitionDefaults.insert(m_partitionDefaults.end(), line.begin(), line.end());
        return;
    }
    if (m_config.partition(name) != nullptr) {
        problem("duplicate partition name " + name);
        return;
    }
    const Table &dflt = m_partitionDefaults;
    PartitionConfig part;
    part.name = name;
    if (const std::string *accounts = get(line, dflt, "AllowAccounts")) {
        if (!equalsIgnoreCase(*accounts, "ALL")) {
            part.allowAccounts = splitList(base::toLower(*accounts), ',');
        }
    }
    if (const std::string *flag = get(line, dflt, "Default")) {
        const auto isDefault = parseBoolean(*flag);
        part.isDefault = isDefault.value_or(false);
        if (!isDefault) {
            badValue("Default", *flag);
        }
    }
    for (const std::string_view key : {"MaxTime", "DefaultTime"}) {
        if (const std::string *text = get(line, dflt, key)) {
            const auto limit = parseTimeLimit(*text);
            if (!limit) {
                badValue(key, *text);
            } else if (key == "MaxTime") {
                part.maxTime = *limit;
            } else {
                part.defaultTime = *limit;
            }
        }
    }
    if (const auto maxNodes = count(line, dflt, "MaxNodes", kMax32);
        maxNodes && *maxNodes != kMax32) {
        part.maxNodes
            = static_cast<int>(std::min<std::uint64_t>(*maxNodes, std::numeric_limits<int>::max()));
    }
    if (const auto minNodes = count(line, dflt, "MinNodes", kMax32)) {
        part.minNodes
            = static_cast<int>(std::min<std::uint64_t>(*minNodes, std::numeric_limits<int>::max()));
    }
    if (const std::string *mode = get(line, dflt, "PreemptMode")) {
        part.preemptMode = parsePreemptMode(*mode);
        if (!part.preemptMode) {
            badValue("PreemptMode", *mode);
        }
    }
    if (const auto grace = count(line, dflt, "GraceTime", kMax32)) {
        part.graceTime = static_cast<Seconds>(*grace);
    }
    auto tier = count(line, dflt, "PriorityTier", kMax16);
    if (const auto priority = count(line, dflt, "Priority", kMax16)) { // sets the tier too
        tier = priority;
    }
    part.priorityTier = static_cast<int>(tier.value_or(1));
    const std::string *share = get(line, dflt, "OverSubscribe");
    share = share != nullptr ? share : get(line, dflt, "Shared");
    if (share != nullptr) {
        const bool valid = equalsIgnoreCase(*share, "NO") || equalsIgnoreCase(*share, "EXCLUSIVE")
            || equalsIgnoreCase(*share, "YES") || equalsIgnoreCase(*share, "FORCE")
            || startsWithIgnoreCase(*share, "YES:") || startsWithIgnoreCase(*share, "FORCE:");
        part.exclusive = equalsIgnoreCase(*share, "EXCLUSIVE");
        if (!valid) {
            badValue("OverSubscribe", *share);
        }
    }
    if (const std::string *state = get(line, dflt, "State")) {
        if (startsWithIgnoreCase(*state, "DOWN")) { // Slurm compares prefixes only
            part.state = PartitionState::Down;
        } else if (startsWithIgnoreCase(*state, "UP")) {
            part.state = PartitionState::Up;
        } else if (startsWithIgnoreCase(*state, "DRAIN")) {
            part.state = PartitionState::Drain;
        } else if (startsWithIgnoreCase(*state, "INACTIVE")) {
            part.state = PartitionState::Inactive;
        } else {
            badValue("State", *state);
        }
    }
    if (part.isDefault) { // the last Default=YES wins, as in slurmctld
        for (auto &other : m_config.partitions) {
            other.isDefault = false;
        }
    }
    const std::string *nodes = get(line, dflt, "Nodes");
    m_partitionNodes.emplace_back(m_line, nodes != nullptr ? *nodes : std::string());
    m_config.partitions.push_back(std::move(part));
}

void ConfParser::finish()
{
    for (std::size_t i = 0; i < m_config.partitions.size(); ++i) {
        auto &[line, text] = m_partitionNodes[i];
        m_line = line;
        auto &part = m_config.partitions[i];
        if (equalsIgnoreCase(text, "ALL")) {
            for (const auto &node : m_config.nodes) {
                part.nodes.push_back(node.name);
            }
            continue;
        }
        std::replace_if(text.begin(), text.end(), isSpace, ',');
        const auto hosts = expandHostlist(text);
        if (!hosts) {
            badValue("Nodes", text);
            continue;
        }
        for (const auto &host : *hosts) {
            if (m_nodeNames.count(host) == 0) {
                problem("unknown node " + host + " in Nodes=");
            } else {
                part.nodes.push_back(host);
            }
        }
    }
    if (m_defMemPerCpu && m_defMemPerNodeSet) {
        m_line = m_defMemPerCpu->first;
        problem("DefMemPerCPU ignored, since it's mutually exclusive with DefMemPerNode");
    } else if (m_defMemPerCpu) {
        m_config.defMemPerCpu = m_defMemPerCpu->second;
    }
    if (m_slurmctldHost) {
        m_config.controlMachine = *m_slurmctldHost;
    } else if (m_controlMachine) {
        m_config.controlMachine = *m_controlMachine;
    }
}

ParsedConfig ConfParser::parse(std::string_view text)
{
    for (const auto &logical : logicalLines(text)) {
        m_line = logical.number;
        std::string_view rest = logical.text;
        if (isBlank(rest)) {
            continue;
        }
        const auto first = rest.find_first_not_of(" \t");
        if (startsWithIgnoreCase(rest.substr(first), "include")
            && (rest.size() == first + 7 || isSpace(rest[first + 7]))) {
            problem("Include is not supported");
            continue;
        }
        const auto pair = nextPair(rest);
        if (!pair) {
            parseError(rest);
            continue;
        }
        const std::string &key = pair->key;
        if (equalsIgnoreCase(key, "NodeName")) {
            nodeLine(pair->value, options(rest, kNodeKeys));
        } else if (equalsIgnoreCase(key, "PartitionName")) {
            partitionLine(pair->value, options(rest, kPartitionKeys));
        } else if (equalsIgnoreCase(key, "DownNodes")) {
            options(rest, kDownNodesKeys);
        } else if (equalsIgnoreCase(key, "NodeSet")) {
            options(rest, kNodeSetKeys);
        } else if (equalsIgnoreCase(key, "FrontendName")) {
            options(rest, kFrontendKeys);
        } else if (equalsIgnoreCase(key, "SlurmctldHost")) {
            slurmctldHost(*pair);
            options(rest, std::array<std::string_view, 0>{});
        } else {
            globalKey(*pair);
            if (!isBlank(rest)) { // Slurm reads one global key per line
                parseError(rest);
            }
        }
    }
    finish();
    return std::move(m_result);
}

} // namespace

const NodeConfig *ClusterConfig::node(std::string_view name) const
{
    const auto it = std::find_if(
        nodes.begin(), nodes.end(), [&](const NodeConfig &n) { return n.name == name; });
    return it != nodes.end() ? &*it : nullptr;
}

const PartitionConfig *ClusterConfig::partition(std::string_view name) const
{
    const auto it = std::find_if(partitions.begin(), partitions.end(),
        [&](const PartitionConfig &p) { return p.name == name; });
    return it != partitions.end() ? &*it : nullptr;
}

const QosConfig *ClusterConfig::findQos(std::string_view name) const
{
    for (const auto &q : qos) {
        if (q.name == name) {
            return &q;
        }
    }
    return nullptr;
}

const PartitionConfig *ClusterConfig::defaultPartition() const
{
    const auto it = std::find_if(
        partitions.begin(), partitions.end(), [](const PartitionConfig &p) { return p.isDefault; });
    return it != partitions.end() ? &*it : nullptr;
}

ParsedConfig parseSlurmConf(std::string_view text)
{
    return ConfParser().parse(text);
}

} // namespace mc::sched
