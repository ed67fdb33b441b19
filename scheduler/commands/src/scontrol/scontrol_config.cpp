#include "scontrol_config.h"

#include "../shared/cluster_view.h"
#include "../shared/text.h"
#include "mc/sched/slurm_conf.h"
#include "mc/sched/slurm_version.h"
#include "mc/sched/time_format.h"

#include <array>
#include <cctype>
#include <map>
#include <sstream>

namespace mc::cmd::scontrol {
namespace {

// One line of Slurm 22.05's `scontrol show config`, in its order: the key, Slurm's default and
// the unit printed after a number ("sec", "min", ...). An empty default is computed below.
struct ConfigKey {
    const char *key;
    const char *fallback;
    const char *unit;
};

// Recorded from Slurm 22.05.8 (../shared/refslurm); the defaults of the keys that cluster's
// slurm.conf sets are those of slurm.conf(5).
constexpr ConfigKey kConfigKeys[] = {
    {"AccountingStorageBackupHost", "(null)", ""},
    {"AccountingStorageEnforce", "none", ""},
    {"AccountingStorageHost", "(null)", ""},
    {"AccountingStorageExternalHost", "(null)", ""},
    {"AccountingStorageParameters", "(null)", ""},
    {"AccountingStoragePort", "0", ""},
    {"AccountingStorageTRES", "cpu,mem,energy,node,billing,fs/disk,vmem,pages", ""},
    {"AccountingStorageType", "accounting_storage/none", ""},
    {"AccountingStorageUser", "root", ""},
    {"AccountingStoreFlags", "(null)", ""},
    {"AcctGatherEnergyType", "acct_gather_energy/none", ""},
    {"AcctGatherFilesystemType", "acct_gather_filesystem/none", ""},
    {"AcctGatherInterconnectType", "acct_gather_interconnect/none", ""},
    {"AcctGatherNodeFreq", "0", "sec"},
    {"AcctGatherProfileType", "acct_gather_profile/none", ""},
    {"AllowSpecResourcesUsage", "No", ""},
    {"AuthAltTypes", "(null)", ""},
    {"AuthAltParameters", "(null)", ""},
    {"AuthInfo", "(null)", ""},
    {"AuthType", "auth/munge", ""},
    {"BatchStartTimeout", "10", "sec"},
    {"BcastExclude", "/lib,/usr/lib,/lib64,/usr/lib64", ""},
    {"BcastParameters", "(null)", ""},
    {"BOOT_TIME", "", ""},
    {"BurstBufferType", "(null)", ""},
    {"CliFilterPlugins", "(null)", ""},
    {"ClusterName", "", ""},
    {"CommunicationParameters", "(null)", ""},
    {"CompleteWait", "0", "sec"},
    {"CoreSpecPlugin", "core_spec/none", ""},
    {"CpuFreqDef", "Unknown", ""},
    {"CpuFreqGovernors", "OnDemand,Performance,UserSpace", ""},
    {"CredType", "cred/munge", ""},
    {"DebugFlags", "(null)", ""},
    {"DefMemPerCPU", "", ""},
    {"DependencyParameters", "(null)", ""},
    {"DisableRootJobs", "No", ""},
    {"EioTimeout", "60", ""},
    {"EnforcePartLimits", "NO", ""},
    {"Epilog", "(null)", ""},
    {"EpilogMsgTime", "2000", "usec"},
    {"EpilogSlurmctld", "(null)", ""},
    {"ExtSensorsType", "ext_sensors/none", ""},
    {"ExtSensorsFreq", "0", "sec"},
    {"FederationParameters", "(null)", ""},
    {"FirstJobId", "1", ""},
    {"GetEnvTimeout", "2", "sec"},
    {"GresTypes", "(null)", ""},
    {"GpuFreqDef", "high,memory=high", ""},
    {"GroupUpdateForce", "1", ""},
    {"GroupUpdateTime", "600", "sec"},
    {"HASH_VAL", "Match", ""},
    {"HealthCheckInterval", "0", "sec"},
    {"HealthCheckNodeState", "ANY", ""},
    {"HealthCheckProgram", "(null)", ""},
    {"InactiveLimit", "0", "sec"},
    {"InteractiveStepOptions", "--interactive --preserve-env --pty $SHELL", ""},
    {"JobAcctGatherFrequency", "30", ""},
    {"JobAcctGatherType", "jobacct_gather/none", ""},
    {"JobAcctGatherParams", "(null)", ""},
    {"JobCompHost", "localhost", ""},
    {"JobCompLoc", "/var/log/slurm_jobcomp.log", ""},
    {"JobCompPort", "0", ""},
    {"JobCompType", "jobcomp/none", ""},
    {"JobCompUser", "root", ""},
    {"JobContainerType", "job_container/none", ""},
    {"JobCredentialPrivateKey", "(null)", ""},
    {"JobCredentialPublicCertificate", "(null)", ""},
    {"JobDefaults", "(null)", ""},
    {"JobFileAppend", "0", ""},
    {"JobRequeue", "1", ""},
    {"JobSubmitPlugins", "(null)", ""},
    {"KillOnBadExit", "0", ""},
    {"KillWait", "30", "sec"},
    {"LaunchParameters", "(null)", ""},
    {"LaunchType", "launch/slurm", ""},
    {"Licenses", "(null)", ""},
    {"LogTimeFormat", "iso8601_ms", ""},
    {"MailDomain", "(null)", ""},
    {"MailProg", "/bin/mail", ""},
    {"MaxArraySize", "1001", ""},
    {"MaxDBDMsgs", "20016", ""},
    {"MaxJobCount", "10000", ""},
    {"MaxJobId", "67043328", ""},
    {"MaxMemPerNode", "UNLIMITED", ""},
    {"MaxNodeCount", "", ""},
    {"MaxStepCount", "40000", ""},
    {"MaxTasksPerNode", "512", ""},
    {"MCSPlugin", "mcs/none", ""},
    {"MCSParameters", "(null)", ""},
    {"MessageTimeout", "10", "sec"},
    {"MinJobAge", "300", "sec"},
    {"MpiDefault", "none", ""},
    {"MpiParams", "(null)", ""},
    {"MULTIPLE_SLURMD", "Yes", ""},
    {"NEXT_JOB_ID", "", ""},
    {"NodeFeaturesPlugins", "(null)", ""},
    {"OverTimeLimit", "0", "min"},
    {"PluginDir", "/usr/lib/x86_64-linux-gnu/slurm-wlm", ""},
    {"PlugStackConfig", "(null)", ""},
    {"PowerParameters", "(null)", ""},
    {"PowerPlugin", "", ""},
    {"PreemptMode", "OFF", ""},
    {"PreemptType", "preempt/none", ""},
    {"PreemptExemptTime", "00:00:00", ""},
    {"PrEpParameters", "(null)", ""},
    {"PrEpPlugins", "prep/script", ""},
    {"PriorityParameters", "(null)", ""},
    {"PrioritySiteFactorParameters", "(null)", ""},
    {"PrioritySiteFactorPlugin", "(null)", ""},
    {"PriorityType", "priority/basic", ""},
    {"PrivateData", "none", ""},
    {"ProctrackType", "proctrack/cgroup", ""},
    {"Prolog", "(null)", ""},
    {"PrologEpilogTimeout", "65534", ""},
    {"PrologSlurmctld", "(null)", ""},
    {"PrologFlags", "(null)", ""},
    {"PropagatePrioProcess", "0", ""},
    {"PropagateResourceLimits", "ALL", ""},
    {"PropagateResourceLimitsExcept", "(null)", ""},
    {"RebootProgram", "(null)", ""},
    {"ReconfigFlags", "(null)", ""},
    {"RequeueExit", "(null)", ""},
    {"RequeueExitHold", "(null)", ""},
    {"ResumeFailProgram", "(null)", ""},
    {"ResumeProgram", "(null)", ""},
    {"ResumeRate", "300", "nodes/min"},
    {"ResumeTimeout", "60", "sec"},
    {"ResvEpilog", "(null)", ""},
    {"ResvOverRun", "0", "min"},
    {"ResvProlog", "(null)", ""},
    {"ReturnToService", "0", ""},
    {"RoutePlugin", "route/default", ""},
    {"SchedulerParameters", "(null)", ""},
    {"SchedulerTimeSlice", "30", "sec"},
    {"SchedulerType", "sched/backfill", ""},
    {"ScronParameters", "(null)", ""},
    {"SelectType", "select/cons_tres", ""},
    {"SelectTypeParameters", "(null)", ""},
    {"SlurmUser", "root", ""},
    {"SlurmctldAddr", "(null)", ""},
    {"SlurmctldDebug", "info", ""},
    {"SlurmctldHost[0]", "", ""},
    {"SlurmctldLogFile", "(null)", ""},
    {"SlurmctldPort", "6817", ""},
    {"SlurmctldSyslogDebug", "(null)", ""},
    {"SlurmctldPrimaryOffProg", "(null)", ""},
    {"SlurmctldPrimaryOnProg", "(null)", ""},
    {"SlurmctldTimeout", "120", "sec"},
    {"SlurmctldParameters", "(null)", ""},
    {"SlurmdDebug", "info", ""},
    {"SlurmdLogFile", "(null)", ""},
    {"SlurmdParameters", "(null)", ""},
    {"SlurmdPidFile", "/var/run/slurmd.pid", ""},
    {"SlurmdPort", "6818", ""},
    {"SlurmdSpoolDir", "/var/spool/slurmd", ""},
    {"SlurmdSyslogDebug", "(null)", ""},
    {"SlurmdTimeout", "300", "sec"},
    {"SlurmdUser", "root", ""},
    {"SlurmSchedLogFile", "(null)", ""},
    {"SlurmSchedLogLevel", "0", ""},
    {"SlurmctldPidFile", "/var/run/slurmctld.pid", ""},
    {"SlurmctldPlugstack", "(null)", ""},
    {"SLURM_CONF", "", ""},
    {"SLURM_VERSION", "", ""},
    {"SrunEpilog", "(null)", ""},
    {"SrunPortRange", "0-0", ""},
    {"SrunProlog", "(null)", ""},
    {"StateSaveLocation", "/var/spool", ""},
    {"SuspendExcNodes", "(null)", ""},
    {"SuspendExcParts", "(null)", ""},
    {"SuspendProgram", "(null)", ""},
    {"SuspendRate", "60", "nodes/min"},
    {"SuspendTime", "INFINITE", ""},
    {"SuspendTimeout", "30", "sec"},
    {"SwitchParameters", "(null)", ""},
    {"SwitchType", "switch/none", ""},
    {"TaskEpilog", "(null)", ""},
    {"TaskPlugin", "(null)", ""},
    {"TaskPluginParam", "(null type)", ""},
    {"TaskProlog", "(null)", ""},
    {"TCPTimeout", "2", "sec"},
    {"TmpFS", "/tmp", ""},
    {"TopologyParam", "(null)", ""},
    {"TopologyPlugin", "topology/none", ""},
    {"TrackWCKey", "No", ""},
    {"TreeWidth", "50", ""},
    {"UsePam", "No", ""},
    {"UnkillableStepProgram", "(null)", ""},
    {"UnkillableStepTimeout", "60", "sec"},
    {"VSizeFactor", "0", "percent"},
    {"WaitTime", "0", "sec"},
    {"X11Parameters", "(null)", ""},
};

// cgroup.conf's section. minicluster reads no cgroup.conf: these are cgroup.conf(5)'s defaults,
// except ConstrainRAMSpace, since minicluster always holds a job to its memory.
constexpr std::array<std::pair<const char *, const char *>, 19> kCgroupKeys{{
    {"AllowedKmemSpace", "(null)"},
    {"AllowedRAMSpace", "100.0%"},
    {"AllowedSwapSpace", "0.0%"},
    {"CgroupAutomount", "no"},
    {"CgroupMountpoint", "/sys/fs/cgroup"},
    {"CgroupPlugin", "autodetect"},
    {"ConstrainCores", "no"},
    {"ConstrainDevices", "no"},
    {"ConstrainKmemSpace", "no"},
    {"ConstrainRAMSpace", "yes"},
    {"ConstrainSwapSpace", "no"},
    {"IgnoreSystemd", "no"},
    {"IgnoreSystemdOnFailure", "no"},
    {"MaxKmemPercent", "100.0%"},
    {"MaxRAMPercent", "100.0%"},
    {"MaxSwapPercent", "100.0%"},
    {"MemorySwappiness", "(null)"},
    {"MinKmemSpace", "30 MB"},
    {"MinRAMSpace", "30 MB"},
}};

std::string line(std::string_view key, std::string_view value)
{
    return padRight(key, 23) + " = " + std::string(value) + "\n";
}

} // namespace

std::string configText(const ConfigFacts &facts)
{
    const auto keys = slurmConfKeys(facts.slurmConf);
    auto given = [&keys](std::string_view key) -> std::optional<std::string> {
        auto it = keys.find(toLower(key));
        return it == keys.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    auto withUid = [&facts](const std::string &name) {
        auto user = facts.lookupUser ? facts.lookupUser(name) : std::nullopt;
        return user ? name + "(" + std::to_string(user->uid) + ")" : name;
    };
    const auto parsed = sched::parseSlurmConf(facts.slurmConf);
    std::string text = "Configuration data as of " + sched::formatTimestamp(facts.now) + "\n";
    for (const ConfigKey &k : kConfigKeys) {
        const std::string key = k.key;
        std::string value = given(key).value_or(k.fallback);
        if ((key == "BOOT_TIME" && facts.bootTime <= 0)
            || (key == "NEXT_JOB_ID" && facts.nextJobId <= 0)) {
            continue; // a controller that does not tell them
        }
        if (key == "BOOT_TIME") {
            value = sched::formatTimestamp(facts.bootTime);
        } else if (key == "NEXT_JOB_ID") {
            value = std::to_string(facts.nextJobId);
        } else if (key == "ClusterName") {
            value = facts.clusterName;
        } else if (key == "SLURM_CONF") {
            value = facts.confPath;
        } else if (key == "SLURM_VERSION") {
            value = sched::kSlurmRelease;
        } else if (key == "MaxNodeCount") {
            value = std::to_string(parsed.config.nodes.size());
        } else if (key == "SlurmctldHost[0]") {
            value = facts.hostname + "(" + given("SlurmctldHost").value_or("localhost") + ")";
        } else if (key == "AccountingStorageUser"
            && given("AccountingStorageType") == "accounting_storage/slurmdbd") {
            value = "N/A"; // slurmdbd's own user is in slurmdbd.conf
        } else if (key == "SlurmUser" || key == "SlurmdUser") {
            value = withUid(value);
        } else if (key == "SelectTypeParameters") {
            for (char &c : value) {
                c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            }
        } else if (key == "DefMemPerCPU") {
            text += given(key)
                ? line(key, value)
                : line("DefMemPerNode", given("DefMemPerNode").value_or("UNLIMITED"));
            continue;
        } else if (key == "MaxMemPerNode" && given("MaxMemPerCPU")) {
            text += line("MaxMemPerCPU", *given("MaxMemPerCPU"));
            continue;
        }
        if (*k.unit != '\0' && !value.empty()
            && std::isdigit(static_cast<unsigned char>(value.back()))) {
            value += std::string(" ") + k.unit;
        }
        text += line(key, value);
    }
    text += "\nCgroup Support Configuration:\n";
    for (const auto &[key, value] : kCgroupKeys) {
        text += line(key, value);
    }
    text += "\nSlurmctld(primary) at " + facts.hostname + " is UP\n";
    return text;
}

} // namespace mc::cmd::scontrol
