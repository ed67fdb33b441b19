#include "scontrol_records.h"

#include "../shared/text.h"
#include "mc/sched/gres.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_state.h"
#include "mc/sched/memory.h"
#include "mc/sched/slurm_version.h"
#include "mc/sched/time_format.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <sys/utsname.h>

namespace mc::cmd::scontrol {
namespace {

using proto::Json;
using record::JobObject;

std::string str(std::int64_t n)
{
    return std::to_string(n);
}

std::string stamp(std::int64_t epoch)
{
    return sched::formatTimestamp(epoch); // "Unknown" for 0
}

std::string orNull(const std::string &text)
{
    return text.empty() ? std::string("(null)") : text;
}

std::string cpuList(int cpus)
{
    return cpus <= 1 ? std::string("0") : "0-" + str(cpus - 1);
}

std::string osText()
{
    utsname u{};
    if (uname(&u) != 0) {
        return "Linux";
    }
    return std::string(u.sysname) + " " + u.release + " " + u.version;
}

std::string archText()
{
    utsname u{};
    return uname(&u) == 0 ? std::string(u.machine) : std::string("x86_64");
}

// ",gres/gpu=N" of a GPU job's TRES (N for the whole job: held, or asked for while pending).
std::string gpuTres(const JobObject &job)
{
    return job.gpusReq > 0 ? ",gres/gpu=" + str(job.gpusReq) : std::string();
}

// scontrol -d's GRES of one node of the job, "gpu:a100:2(IDX:0-1)"; "" without GPUs there.
std::string nodeGres(const JobObject &job, std::size_t node)
{
    if (node >= job.gpuIds.size() || job.gpuIds[node].empty()) {
        return {};
    }
    const std::vector<int> &ids = job.gpuIds[node];
    return "gpu:" + sched::gpuCountText(job.gpuAllocType, static_cast<int>(ids.size()))
        + "(IDX:" + sched::gpuIndexRanges(ids) + ")";
}

// JOB_GRES=: the GPUs of the whole job, "gpu:a100:2"; (null) without.
std::string jobGres(const JobObject &job)
{
    return job.gpusReq > 0
        ? "gpu:" + sched::gpuCountText(job.gpuAllocType, static_cast<int>(job.gpusReq))
        : std::string("(null)");
}

} // namespace

std::string stdioPath(const JobObject &job, const std::string &pattern, bool isInput)
{
    if (pattern.empty()) {
        return isInput ? std::string("/dev/null") : stdioPath(job, "slurm-%j.out", false);
    }
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%' || i + 1 >= pattern.size()) {
            out += pattern[i];
            continue;
        }
        const char c = pattern[++i];
        if (c == 'j' || c == 'J') {
            out += str(job.jobId);
        } else if (c == 'A') { // the array's id (the job's own out of an array)
            out += str(job.arrayJobId > 0 ? job.arrayJobId : job.jobId);
        } else if (c == 'x') {
            out += job.name;
        } else if (c == 'u') {
            out += job.user;
        } else if (c == 'a') { // NO_VAL - 1 out of an array and for an array's pending tasks
            out += job.arrayTaskId ? str(*job.arrayTaskId) : std::string("4294967294");
        } else if (c == '%') {
            out += '%';
        } else {
            out += '%';
            out += c;
        }
    }
    return absolutePath(out, job.workDir);
}

std::string render(const Record &record, bool oneLiner)
{
    std::string text;
    for (std::size_t i = 0; i < record.size(); ++i) {
        if (oneLiner) {
            text += (i ? " " : "") + record[i];
        } else {
            text += (i ? "   " : "") + record[i] + "\n";
        }
    }
    text += "\n";
    return text;
}

Record jobRecord(const JobObject &job, std::int64_t now, int detail)
{
    const std::string &state = job.state;
    const std::int64_t submit = job.submitTime;
    // A job held from its submission has never been eligible: Slurm prints Unknown.
    const std::string &reason = job.reason;
    const bool heldPending = sched::heldPending(state, reason);
    const std::int64_t eligible = heldPending ? 0 : job.eligibleTime.value_or(submit);
    const std::int64_t start = job.startTime;
    const std::int64_t end = job.endTime;
    const std::int64_t limit = job.timeLimit.value_or(sched::kInfinite);
    const bool pending = state == "PENDING";
    const bool running = state == "RUNNING" || state == "SUSPENDED" || state == "COMPLETING";
    // scontrol suspend: the last suspension or resumption, and the seconds of the suspensions
    // that are over. RunTime leaves them out, and the end waits for them.
    const std::int64_t suspendTime = job.suspendTime;
    const std::int64_t suspended = job.suspended;
    const std::int64_t preSuspend = suspendTime > 0 ? suspendTime - start - suspended : 0;
    std::int64_t runTime = 0;
    if (state == "SUSPENDED") {
        runTime = std::max<std::int64_t>(0, preSuspend);
    } else if (running && start > 0) {
        runTime = std::max<std::int64_t>(0, now - start - suspended);
    } else if (!pending && start > 0 && end >= start) {
        runTime = std::max<std::int64_t>(0, end - start - suspended);
    }
    std::int64_t endTime = end;
    if ((running || pending) && limit != sched::kInfinite && start > 0) {
        endTime = start + suspended + limit; // pending: the expected end, as Slurm shows it
    }
    const bool accrues = !pending
        || (reason != "BeginTime" && reason != "Dependency" && reason.rfind("JobHeld", 0) != 0);
    const std::string &user = job.user;
    const std::vector<std::string> &nodes = job.nodes;
    const std::string nodeList = sched::compressHostlist(nodes);
    const int numNodes = static_cast<int>(job.numNodes.value_or(1));
    const int numCpus = static_cast<int>(job.numCpus.value_or(1));
    const std::int64_t mem = job.minMemory;
    const bool perCpu = job.memPerCpu;
    const std::int64_t totalMem = perCpu ? mem * numCpus : mem * numNodes;
    const std::string &command = job.command;

    Record r;
    std::string array;
    if (const std::int64_t arrayJob = job.arrayJobId; arrayJob > 0) {
        // The tasks, and the array's %N limit when it has one (on its pending record and on
        // each task alike).
        array = "ArrayJobId=" + str(arrayJob) + " ArrayTaskId=";
        const std::string &tasks = job.arrayTaskStr;
        const std::size_t percent = tasks.find('%');
        std::int64_t throttle = job.arrayMaxTasks.value_or(0);
        if (job.arrayTaskId) {
            array += str(*job.arrayTaskId) + " ";
        } else {
            array += tasks + " ";
            if (percent != std::string::npos) {
                throttle = parseLeadingInteger(tasks.substr(percent + 1));
            }
        }
        if (throttle > 0) {
            array += "ArrayTaskThrottle=" + str(throttle) + " ";
        }
    }
    r.push_back("JobId=" + str(job.jobId) + " " + array + "JobName=" + job.name);
    r.push_back("UserId=" + user + "(" + str(job.uid) + ") GroupId=" + user + "("
        + str(job.gid.value_or(job.uid)) + ") MCS_label=N/A");
    r.push_back("Priority=" + str(job.priority) + " Nice=" + str(job.nice)
        + " Account=" + job.account + " QOS=" + job.qos.value_or("normal"));
    r.push_back(
        "JobState=" + state + " Reason=" + reason + " Dependency=" + orNull(job.dependency));
    r.push_back("Requeue=1 Restarts=" + str(job.restarts)
        + " BatchFlag=1 Reboot=0 ExitCode=" + str(job.exitCode) + ":" + str(job.exitSignal));
    if (detail > 0) {
        r.push_back("DerivedExitCode=0:0");
    }
    r.push_back("RunTime=" + sched::formatHms(runTime) + " TimeLimit=" + sched::formatHms(limit)
        + " TimeMin=" + (job.timeMin > 0 ? sched::formatHms(job.timeMin) : std::string("N/A")));
    r.push_back("SubmitTime=" + stamp(submit) + " EligibleTime=" + stamp(eligible));
    r.push_back("AccrueTime=" + (accrues ? stamp(eligible) : std::string("Unknown")));
    r.push_back("StartTime=" + stamp(start) + " EndTime=" + stamp(endTime) + " Deadline=N/A");
    const std::int64_t lastEval = job.lastSchedEval.value_or(pending ? submit : start);
    r.push_back("SuspendTime=" + (suspendTime > 0 ? stamp(suspendTime) : std::string("None"))
        + " SecsPreSuspend=" + str(std::max<std::int64_t>(0, preSuspend))
        + " LastSchedEval=" + stamp(lastEval) + " Scheduler=Main");
    r.push_back("Partition=" + job.partition
        + " AllocNode:Sid=" + job.submitHost.value_or("localhost") + ":" + str(job.submitSid));
    r.push_back("ReqNodeList=" + orNull(sched::compressHostlist(job.reqNodes))
        + " ExcNodeList=" + orNull(sched::compressHostlist(job.excNodes)));
    r.push_back("NodeList=" + nodeList);
    if (!nodes.empty()) {
        r.push_back("BatchHost=" + job.batchHost.value_or(nodes.front()));
    }
    r.push_back("NumNodes=" + str(numNodes) + " NumCPUs=" + str(numCpus)
        + " NumTasks=" + str(job.numTasks.value_or(1))
        + " CPUs/Task=" + str(job.cpusPerTask.value_or(1)) + " ReqB:S:C:T=0:0:*:*");
    r.push_back("TRES=cpu=" + str(numCpus) + ",mem=" + sched::formatMemory(totalMem)
        + ",node=" + str(numNodes) + ",billing=" + str(numCpus) + gpuTres(job));
    r.push_back("Socks/Node=* NtasksPerN:B:S:C=" + str(job.ntasksPerNode) + ":0:*:* CoreSpec=*");
    if (detail > 0 && !nodes.empty()) {
        r.push_back("JOB_GRES=" + jobGres(job));
        const int perNode = numCpus / std::max(1, static_cast<int>(nodes.size()));
        const std::int64_t memPerNode = perCpu ? mem * perNode : mem;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            r.push_back("  Nodes=" + nodes[i] + " CPU_IDs=" + cpuList(perNode)
                + " Mem=" + str(memPerNode) + " GRES=" + nodeGres(job, i));
        }
    }
    r.push_back("MinCPUsNode=" + str(job.cpusPerTask.value_or(1))
        + (perCpu ? " MinMemoryCPU=" : " MinMemoryNode=") + sched::formatMemory(mem)
        + " MinTmpDiskNode=0");
    r.push_back("Features=" + orNull(job.constraint) + " DelayBoot=00:00:00");
    r.push_back(std::string("OverSubscribe=") + (job.exclusive ? "NO" : "OK")
        + " Contiguous=0 Licenses=(null) Network=(null)");
    r.push_back("Command=" + orNull(command));
    r.push_back("WorkDir=" + job.workDir);
    if (job.comment) {
        r.push_back("Comment=" + *job.comment + " "); // Slurm's trailing space
    }
    const std::string &errPattern = job.stdErr;
    r.push_back("StdErr=" + stdioPath(job, errPattern.empty() ? job.stdOut : errPattern, false));
    r.push_back("StdIn=" + stdioPath(job, job.stdIn, true));
    r.push_back("StdOut=" + stdioPath(job, job.stdOut, false));
    r.push_back("Power=");
    // The GPU requests, each in the field of the option that asked (slurm_sprint_job_info()).
    const std::string &gres = job.gres;
    const std::pair<const char *, std::string> perTres[] = {
        {"CpusPerTres=", job.cpusPerTres},
        {"MemPerTres=", job.memPerTres},
        {"TresPerJob=", job.tresPerJob},
        {"TresPerNode=", gres.empty() ? gres : "gres:" + gres},
        {"TresPerTask=", job.tresPerTask},
    };
    for (const auto &[field, value] : perTres) {
        if (!value.empty()) {
            r.push_back(field + value);
        }
    }
    if (!job.mailType.empty()) {
        r.push_back("MailUser=" + job.mailUser + " MailType=" + job.mailType);
    }
    r.push_back("");
    return r;
}

Record jobRecord(const Json &job, std::int64_t now, int detail)
{
    return jobRecord(record::jobObjectFromJson(job), now, detail);
}

Record nodeRecord(const NodeView &n, const ClusterView &)
{
    std::string partitions;
    for (const auto &p : n.partitions) {
        partitions += (partitions.empty() ? "" : ",") + p;
    }
    std::string features;
    for (const auto &f : n.features) {
        features += (features.empty() ? "" : ",") + f;
    }
    char load[32];
    std::snprintf(load, sizeof load, "%.2f", static_cast<double>(n.allocCpus));
    const std::string gres = nodeGres(n);
    std::string allocTres;
    if (n.allocCpus > 0 || n.allocMemory > 0) {
        allocTres = "cpu=" + str(n.allocCpus) + ",mem=" + sched::formatMemory(n.allocMemory);
    }
    if (!n.gpuIds.empty()) {
        allocTres += ",gres/gpu=" + str(static_cast<std::int64_t>(n.gpuIds.size()));
    }

    Record r;
    r.push_back(
        "NodeName=" + n.name + " Arch=" + archText() + " CoresPerSocket=" + str(n.cpus) + " ");
    r.push_back("CPUAlloc=" + str(n.allocCpus) + " CPUEfctv=" + str(n.cpus)
        + " CPUTot=" + str(n.cpus) + " CPULoad=" + load);
    r.push_back("AvailableFeatures=" + orNull(features));
    r.push_back("ActiveFeatures=" + orNull(features));
    r.push_back("Gres=" + orNull(gres));
    r.push_back("NodeAddr=" + n.name + " NodeHostName=" + n.name
        + " Version=" + std::string(sched::kSlurmRelease));
    r.push_back("OS=" + osText() + " ");
    r.push_back("RealMemory=" + str(n.memory) + " AllocMem=" + str(n.allocMemory)
        + " FreeMem=" + str(n.memory - n.allocMemory) + " Sockets=1 Boards=1");
    r.push_back("State=" + scontrolNodeState(n)
        + " ThreadsPerCore=1 TmpDisk=0 Weight=" + str(n.weight) + " Owner=N/A MCS_label=N/A");
    r.push_back("Partitions=" + partitions + " ");
    r.push_back("BootTime=None SlurmdStartTime=None");
    r.push_back("LastBusyTime=Unknown");
    r.push_back("CfgTRES=cpu=" + str(n.cpus) + ",mem=" + sched::formatMemory(n.memory)
        + ",billing=" + str(n.cpus) + (n.gpus > 0 ? ",gres/gpu=" + str(n.gpus) : ""));
    r.push_back("AllocTRES=" + allocTres);
    r.push_back("CapWatts=n/a");
    r.push_back("CurrentWatts=0 AveWatts=0");
    r.push_back("ExtSensorsJoules=n/s ExtSensorsWatts=0 ExtSensorsTemp=n/s");
    if (!n.reason.empty()) {
        r.push_back("Reason=" + n.reason + " [" + (n.reasonUser.empty() ? "slurm" : n.reasonUser)
            + "@" + stamp(n.reasonTime) + "]");
    }
    return r;
}

Record partitionRecord(const PartitionView &p, const ClusterView &view)
{
    int cpus = 0;
    int gpus = 0;
    std::int64_t memory = 0;
    for (const auto &name : p.nodes) {
        if (const NodeView *n = view.node(name)) {
            cpus += n->cpus;
            gpus += n->gpus;
            memory += n->memory;
        }
    }
    std::string accounts;
    for (const auto &a : p.allowAccounts) {
        accounts += (accounts.empty() ? "" : ",") + a;
    }
    std::string state = p.state;
    std::transform(state.begin(), state.end(), state.begin(),
        [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    const std::string nodes = str(static_cast<std::int64_t>(p.nodes.size()));

    Record r;
    r.push_back("PartitionName=" + p.name);
    r.push_back("AllowGroups=ALL AllowAccounts="
        + (accounts.empty() ? std::string("ALL") : accounts) + " AllowQos=ALL");
    r.push_back(std::string("AllocNodes=ALL Default=") + (p.isDefault ? "YES" : "NO") + " QoS=N/A");
    r.push_back(
        "DefaultTime=" + (p.defaultTime ? sched::formatHms(*p.defaultTime) : std::string("NONE"))
        + " DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO");
    r.push_back("MaxNodes=" + (p.maxNodes ? str(*p.maxNodes) : std::string("UNLIMITED"))
        + " MaxTime=" + sched::formatHms(p.maxTime)
        + " MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED");
    r.push_back("Nodes=" + sched::compressHostlist(p.nodes));
    r.push_back("PriorityJobFactor=1 PriorityTier=" + str(p.priorityTier)
        + " RootOnly=NO ReqResv=NO OverSubscribe=" + (p.exclusive ? "EXCLUSIVE" : "NO"));
    r.push_back("OverTimeLimit=NONE PreemptMode=OFF");
    r.push_back("State=" + state + " TotalCPUs=" + str(cpus) + " TotalNodes=" + nodes
        + " SelectTypeParameters=NONE");
    r.push_back("JobDefaults=(null)");
    r.push_back("DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED");
    r.push_back("TRES=cpu=" + str(cpus) + ",mem=" + sched::formatMemory(memory) + ",node=" + nodes
        + ",billing=" + str(cpus) + (gpus > 0 ? ",gres/gpu=" + str(gpus) : ""));
    return r;
}

} // namespace mc::cmd::scontrol
