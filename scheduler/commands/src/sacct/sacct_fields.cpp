#include "sacct_fields.h"

#include "../shared/text.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace mc::cmd::sacct {
namespace {

using record::JobObject;
using record::StepObject;

const JobObject &job(const AcctRow &r)
{
    return *r.job;
}

bool isStep(const AcctRow &r)
{
    return r.step != nullptr;
}

// The job's value on job rows, nothing on step rows.
Value jobText(const AcctRow &r, const std::string &text)
{
    return isStep(r) ? Value() : Value(text);
}

Value jobNumber(const AcctRow &r, std::int64_t number)
{
    return isStep(r) ? Value() : Value(std::to_string(number));
}

// The row's own times: the step's on a step row, else the job's.
std::int64_t startOf(const AcctRow &r)
{
    return isStep(r) ? r.step->startTime : job(r).startTime;
}

std::int64_t endOf(const AcctRow &r)
{
    return isStep(r) ? r.step->endTime : job(r).endTime;
}

// Seconds the job was suspended (scontrol suspend), the current suspension included; its
// steps show the job's, as Slurm's do.
std::int64_t suspendedOf(const AcctRow &r)
{
    const std::int64_t over = job(r).suspended;
    if (job(r).state != "SUSPENDED") {
        return over;
    }
    return over + std::max<std::int64_t>(0, r.now - job(r).suspendTime);
}

// Run time: from start to end (or now), suspensions left out.
std::int64_t elapsed(const AcctRow &r)
{
    const std::int64_t start = startOf(r);
    const std::int64_t end = endOf(r);
    if (start <= 0) {
        return 0;
    }
    return std::max<std::int64_t>(0, (end > 0 ? end : r.now) - start - suspendedOf(r));
}

std::int64_t cpus(const AcctRow &r)
{
    return (isStep(r) ? r.step->numCpus : job(r).numCpus).value_or(0);
}

std::int64_t nodeCount(const AcctRow &r)
{
    return isStep(r) ? static_cast<std::int64_t>(r.step->nodes.size())
                     : job(r).numNodes.value_or(0);
}

std::string jobIdText(const JobObject &j)
{
    const std::int64_t arrayJob = j.arrayJobId;
    if (arrayJob > 0 && j.arrayTaskId) {
        return std::to_string(arrayJob) + "_" + std::to_string(*j.arrayTaskId);
    }
    if (arrayJob > 0 && !j.arrayTaskStr.empty()) {
        return std::to_string(arrayJob) + "_[" + j.arrayTaskStr + "]";
    }
    return std::to_string(j.jobId);
}

const std::string &stepId(const AcctRow &r)
{
    return r.step->stepId;
}

// Slurm 22.05's sacct takes 128 off an exit status of 128 or more (`exit 137` shows 9:0, `exit
// 200` 72:0), where scontrol shows it whole: checked on the reference cluster.
std::string exitText(std::int64_t code, std::int64_t signal)
{
    if (code >= 128) {
        code -= 128;
    }
    return std::to_string(code) + ":" + std::to_string(signal);
}

// A size in KiB in the unit --units asks for, as Slurm's convert_num_unit2(): a whole number
// as it is, anything else with two decimals ("512000K", "0.49G").
std::string inUnit(std::int64_t kib, char unit)
{
    constexpr std::string_view kUnits = "KMGTP";
    double value = static_cast<double>(kib);
    for (std::size_t i = 0; kUnits[i] != unit; ++i) {
        value /= 1024;
    }
    char buffer[64];
    if (value == static_cast<double>(static_cast<std::int64_t>(value))) {
        std::snprintf(buffer, sizeof buffer, "%lld%c", static_cast<long long>(value), unit);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.2f%c", value, unit);
    }
    return buffer;
}

std::string memory(const AcctRow &r, std::int64_t mib)
{
    return r.noConvert ? std::to_string(mib) + "M" : sched::formatMemory(mib);
}

// Memory the job asked for in total (MiB): per CPU times CPUs, or per node times nodes.
std::int64_t jobMemory(const AcctRow &r)
{
    const JobObject &j = job(r);
    const std::int64_t mib = j.minMemory;
    return j.memPerCpu ? mib * j.numCpus.value_or(0) : mib * j.numNodes.value_or(0);
}

std::string tres(const AcctRow &r, bool billing)
{
    std::string text = billing ? "billing=" + std::to_string(cpus(r)) + "," : std::string();
    text += "cpu=" + std::to_string(cpus(r));
    // A step holds its nodes' GPUs; the job, all it was given (or asks for).
    const std::int64_t gpus = isStep(r) ? job(r).gpus * nodeCount(r) : job(r).gpusReq;
    if (gpus > 0) {
        text += ",gres/gpu=" + std::to_string(gpus);
    }
    if (const std::int64_t mem = jobMemory(r); mem > 0) {
        text += ",mem=" + memory(r, mem);
    }
    text += ",node=" + std::to_string(std::max<std::int64_t>(nodeCount(r), 1));
    return text;
}

Value blank(const AcctRow &)
{
    return std::nullopt;
}

Value jobId(const AcctRow &r)
{
    return isStep(r) ? jobIdText(job(r)) + "." + stepId(r) : jobIdText(job(r));
}

Value jobIdRaw(const AcctRow &r)
{
    const std::string id = std::to_string(job(r).jobId);
    return isStep(r) ? id + "." + stepId(r) : id;
}

Value jobName(const AcctRow &r)
{
    return isStep(r) ? r.step->name.value_or(stepId(r)) : job(r).name;
}

Value state(const AcctRow &r)
{
    std::string name = isStep(r) ? r.step->state.value_or("") : job(r).state;
    if (!isStep(r) && name == "CANCELLED" && job(r).cancelledBy) {
        name += " by " + std::to_string(*job(r).cancelledBy);
    }
    return name;
}

Value nodeList(const AcctRow &r)
{
    const auto &nodes = isStep(r) ? r.step->nodes : job(r).nodes;
    return nodes.empty() ? std::string("None assigned") : sched::compressHostlist(nodes);
}

Value timelimit(const AcctRow &r)
{
    if (isStep(r)) {
        return std::nullopt;
    }
    const std::int64_t limit = job(r).timeLimit.value_or(sched::kInfinite);
    return limit == sched::kInfinite ? std::string("UNLIMITED") : sched::formatHms(limit);
}

Value derivedExit(const AcctRow &r)
{
    if (isStep(r)) {
        return std::nullopt;
    }
    std::string worst = "0:0";
    std::int64_t worstCode = 0;
    for (const StepObject &step : job(r).steps) {
        if (step.stepId != "batch" && step.exitCode > worstCode) {
            worstCode = step.exitCode;
            worst = exitText(step.exitCode, step.exitSignal);
        }
    }
    return worst;
}

// Slurm's sacct _elapsed_time(): [DD-]HH:MM:SS, MM:SS.mmm under an hour with a fraction.
std::string cpuTime(std::int64_t ms)
{
    const std::int64_t secs = ms / 1000;
    const std::int64_t subsec = ms % 1000;
    const std::int64_t days = secs / 86400;
    const std::int64_t hours = secs / 3600 % 24;
    char buffer[48];
    if (days > 0) {
        std::snprintf(buffer, sizeof buffer, "%02lld-%02lld:%02lld:%02lld",
            static_cast<long long>(days), static_cast<long long>(hours),
            static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
    } else if (hours > 0) {
        std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld", static_cast<long long>(hours),
            static_cast<long long>(secs / 60 % 60), static_cast<long long>(secs % 60));
    } else if (subsec > 0) {
        std::snprintf(buffer, sizeof buffer, "%02lld:%02lld.%03lld",
            static_cast<long long>(secs / 60), static_cast<long long>(secs % 60),
            static_cast<long long>(subsec));
    } else {
        std::snprintf(buffer, sizeof buffer, "00:%02lld:%02lld", static_cast<long long>(secs / 60),
            static_cast<long long>(secs % 60));
    }
    return buffer;
}

// TotalCPU: the step's CPU time, or the sum over the job's steps on the job row.
Value totalCpu(const AcctRow &r)
{
    if (isStep(r)) {
        return cpuTime(r.step->totalCpuMs);
    }
    std::int64_t ms = 0;
    for (const StepObject &step : job(r).steps) {
        ms += step.totalCpuMs;
    }
    return cpuTime(ms);
}

// MaxRSS/AveRSS of a step in KiB, as Slurm's convert_num_unit() with CONVERT_NUM_UNIT_EXACT
// prints them: "0", "3764K", "40M" (a larger unit only when it divides exactly). Job rows and
// steps still running (Slurm records their usage when they end): blank.
Value rss(const AcctRow &r, std::int64_t StepObject::*kib)
{
    if (!isStep(r) || r.step->endTime == 0) {
        return std::nullopt;
    }
    std::int64_t value = r.step->*kib;
    if (r.unit) {
        return inUnit(std::max<std::int64_t>(value, 0), r.unit);
    }
    if (value <= 0) {
        return std::string("0");
    }
    constexpr std::string_view kUnits = "KMGTP";
    std::size_t unit = 0;
    while (value % 1024 == 0 && unit + 1 < kUnits.size()) {
        value /= 1024;
        ++unit;
    }
    return std::to_string(value) + kUnits[unit];
}

Value seconds(std::int64_t value)
{
    return std::to_string(value);
}

// A step's usage figures exist once it has ended (Slurm records them then); job rows have none.
bool ended(const AcctRow &r)
{
    return isStep(r) && r.step->endTime > 0;
}

// AveCPU/MinCPU: a task's CPU time in whole seconds. minicluster measures the step as a whole,
// so every task is given the average.
Value taskCpu(const AcctRow &r)
{
    if (!ended(r)) {
        return std::nullopt;
    }
    const std::int64_t tasks = std::max<std::int64_t>(1, r.step->ntasks.value_or(1));
    return cpuTime(r.step->totalCpuMs / tasks / 1000 * 1000);
}

// MaxRSSNode, MaxDiskReadNode...: where the step's largest task ran, its first node (the
// batch step has only that one).
Value usageNode(const AcctRow &r)
{
    if (!ended(r) || r.step->nodes.empty()) {
        return std::nullopt;
    }
    return r.step->nodes.front();
}

// MaxRSSTask, MaxDiskReadTask...: the step's first task, the one minicluster measures.
Value usageTask(const AcctRow &r)
{
    return ended(r) ? Value("0") : Value();
}

// ConsumedEnergy: 0 on a cluster without an energy plugin (AcctGatherEnergyType=none), as
// Slurm records for every ended step.
Value energy(const AcctRow &r)
{
    return ended(r) ? Value("0") : Value();
}

// TRESUsageInAve: the figures minicluster has (CPU time, energy, memory), in Slurm's order.
Value tresUsage(const AcctRow &r)
{
    const Value cpu = taskCpu(r);
    if (!cpu) {
        return std::nullopt;
    }
    return "cpu=" + *cpu + ",energy=0,mem=" + rss(r, &StepObject::aveRssKb).value_or("0");
}

// Slurm 22.05's fields[], in its order, with its widths.
const std::array kFields{
    Field{"Account", 10, Kind::Text,
        [](const AcctRow &r) -> Value {
            return job(r).account;
        }},
    Field{"AdminComment", 15, Kind::Text, blank},
    Field{"AllocCPUS", 10, Kind::Number,
        [](const AcctRow &r) -> Value {
            return std::to_string(cpus(r));
        }},
    Field{"AllocNodes", 10, Kind::Text,
        [](const AcctRow &r) -> Value {
            return std::to_string(startOf(r) > 0 ? nodeCount(r) : 0);
        }},
    Field{"AllocTRES", 10, Kind::Text,
        [](const AcctRow &r) -> Value {
            return startOf(r) > 0 ? Value(tres(r, !isStep(r))) : Value();
        }},
    Field{"AssocID", 7, Kind::Number, blank},
    Field{"AveCPU", 10, Kind::Text, taskCpu},
    Field{"AveCPUFreq", 10, Kind::Text, blank},
    Field{"AveDiskRead", 14, Kind::Text, blank},
    Field{"AveDiskWrite", 14, Kind::Text, blank},
    Field{"AvePages", 10, Kind::Text, blank},
    Field{"AveRSS", 10, Kind::Text,
        [](const AcctRow &r) {
            return rss(r, &StepObject::aveRssKb);
        }},
    Field{"AveVMSize", 10, Kind::Text, blank},
    Field{"BlockID", 16, Kind::Text, blank},
    Field{"Cluster", 10, Kind::Text,
        [](const AcctRow &r) -> Value {
            return r.site && !r.site->clusterName.empty() ? Value(r.site->clusterName) : Value();
        }},
    Field{"Comment", 14, Kind::Text,
        [](const AcctRow &r) -> Value {
            // The job's comment on its own line (the controller sends it only with
            // AccountingStoreFlags=job_comment); steps have none.
            return isStep(r) ? Value() : job(r).comment;
        }},
    Field{"Constraints", 19, Kind::Text, blank},
    Field{"ConsumedEnergy", 14, Kind::Text, energy},
    Field{"ConsumedEnergyRaw", 17, Kind::Number, energy},
    Field{"Container", 19, Kind::Text, blank},
    Field{"CPUTime", 10, Kind::Seconds,
        [](const AcctRow &r) {
            return seconds(elapsed(r) * cpus(r));
        }},
    Field{"CPUTimeRAW", 10, Kind::Number,
        [](const AcctRow &r) {
            return seconds(elapsed(r) * cpus(r));
        }},
    Field{"DBIndex", -10, Kind::Number, blank},
    Field{"DerivedExitCode", 15, Kind::Text, derivedExit},
    Field{"Elapsed", 10, Kind::Seconds,
        [](const AcctRow &r) {
            return seconds(elapsed(r));
        }},
    Field{"ElapsedRaw", 10, Kind::Number,
        [](const AcctRow &r) {
            return seconds(elapsed(r));
        }},
    Field{"Eligible", 19, Kind::Date,
        [](const AcctRow &r) {
            return seconds(isStep(r) ? startOf(r) : job(r).eligibleTime.value_or(0));
        }},
    Field{"End", 19, Kind::Date,
        [](const AcctRow &r) {
            return seconds(endOf(r));
        }},
    Field{"ExitCode", 8, Kind::Text,
        [](const AcctRow &r) -> Value {
            return isStep(r) ? exitText(r.step->exitCode, r.step->exitSignal)
                             : exitText(job(r).exitCode, job(r).exitSignal);
        }},
    Field{"Flags", 19, Kind::Text, blank},
    Field{"GID", 6, Kind::Number,
        [](const AcctRow &r) {
            return jobNumber(r, job(r).gid.value_or(0));
        }},
    Field{"Group", 9, Kind::Text,
        [](const AcctRow &r) -> Value {
            if (isStep(r)) {
                return std::nullopt;
            }
            if (job(r).group) {
                return job(r).group;
            }
            const std::string group = r.site && r.site->groupName ? r.site->groupName(job(r)) : "";
            return group.empty() ? Value() : Value(group);
        }},
    Field{"JobID", -12, Kind::Text, jobId},
    Field{"JobIDRaw", -12, Kind::Text, jobIdRaw},
    Field{"JobName", 10, Kind::Text, jobName},
    Field{"Layout", 9, Kind::Text,
        [](const AcctRow &r) -> Value {
            // the batch step's task layout is not chosen by a --distribution
            return isStep(r) ? Value("Unknown") : Value();
        }},
    Field{"MaxDiskRead", 12, Kind::Text, blank},
    Field{"MaxDiskReadNode", 15, Kind::Text, usageNode},
    Field{"MaxDiskReadTask", 15, Kind::Number, usageTask},
    Field{"MaxDiskWrite", 12, Kind::Text, blank},
    Field{"MaxDiskWriteNode", 16, Kind::Text, usageNode},
    Field{"MaxDiskWriteTask", 16, Kind::Number, usageTask},
    Field{"MaxPages", 8, Kind::Text, blank},
    Field{"MaxPagesNode", 12, Kind::Text, usageNode},
    Field{"MaxPagesTask", 14, Kind::Number, usageTask},
    Field{"MaxRSS", 10, Kind::Text,
        [](const AcctRow &r) {
            return rss(r, &StepObject::maxRssKb);
        }},
    Field{"MaxRSSNode", 10, Kind::Text, usageNode},
    Field{"MaxRSSTask", 10, Kind::Number, usageTask},
    Field{"MaxVMSize", 10, Kind::Text, blank},
    Field{"MaxVMSizeNode", 14, Kind::Text, blank},
    Field{"MaxVMSizeTask", 14, Kind::Number, blank},
    Field{"McsLabel", 12, Kind::Text, blank},
    Field{"MinCPU", 10, Kind::Text, taskCpu},
    Field{"MinCPUNode", 10, Kind::Text, usageNode},
    Field{"MinCPUTask", 10, Kind::Number, usageTask},
    Field{"NCPUS", 10, Kind::Number,
        [](const AcctRow &r) -> Value {
            return std::to_string(cpus(r));
        }},
    Field{"NNodes", 8, Kind::Number,
        [](const AcctRow &r) -> Value {
            return std::to_string(nodeCount(r));
        }},
    Field{"NodeList", 15, Kind::Text, nodeList},
    Field{"NTasks", 8, Kind::Number,
        [](const AcctRow &r) -> Value {
            return isStep(r) && r.step->ntasks ? Value(std::to_string(*r.step->ntasks)) : Value();
        }},
    Field{"Partition", 10, Kind::Text,
        [](const AcctRow &r) {
            return jobText(r, job(r).partition);
        }},
    Field{"Priority", 10, Kind::Number,
        [](const AcctRow &r) {
            return jobNumber(r, job(r).priority);
        }},
    Field{"QOS", 10, Kind::Text,
        [](const AcctRow &r) {
            return jobText(r, job(r).qos.value_or(""));
        }},
    // minicluster's only QOS, normal, is the first slurmdbd creates: id 1.
    Field{"QOSRAW", 6, Kind::Number,
        [](const AcctRow &r) -> Value {
            return isStep(r) || job(r).qos.value_or("") != "normal" ? Value() : Value("1");
        }},
    Field{"Reason", 22, Kind::Text,
        [](const AcctRow &r) -> Value {
            // slurmdbd keeps the reason the job last waited for; why it ended (squeue's
            // NonZeroExitCode...) is never recorded there.
            const Value reason = jobText(r, job(r).reason);
            if (reason && (*reason == "NonZeroExitCode" || *reason == "RaisedSignal")) {
                return std::string("None");
            }
            return reason;
        }},
    Field{"ReqCPUFreq", 10, Kind::Text,
        [](const AcctRow &r) -> Value {
            // no --cpu-freq: the job says Unknown, its steps 0
            return std::string(isStep(r) ? "0" : "Unknown");
        }},
    Field{"ReqCPUFreqGov", 13, Kind::Text,
        [](const AcctRow &) -> Value {
            return std::string("Unknown");
        }},
    Field{"ReqCPUFreqMax", 13, Kind::Text,
        [](const AcctRow &) -> Value {
            return std::string("Unknown");
        }},
    Field{"ReqCPUFreqMin", 13, Kind::Text,
        [](const AcctRow &) -> Value {
            return std::string("Unknown");
        }},
    Field{"ReqCPUS", 8, Kind::Number,
        [](const AcctRow &r) -> Value {
            return std::to_string(cpus(r));
        }},
    Field{"ReqMem", 10, Kind::Text,
        [](const AcctRow &r) -> Value {
            if (isStep(r)) {
                return std::nullopt;
            }
            return r.unit ? inUnit(jobMemory(r) * 1024, r.unit) : memory(r, jobMemory(r));
        }},
    Field{"ReqNodes", 8, Kind::Text,
        [](const AcctRow &r) -> Value {
            return std::to_string(nodeCount(r));
        }},
    Field{"ReqTRES", 10, Kind::Text,
        [](const AcctRow &r) -> Value {
            return isStep(r) ? Value() : Value(tres(r, true));
        }},
    Field{"Reservation", 20, Kind::Text, blank},
    Field{"ReservationId", 8, Kind::Number, blank},
    Field{"Reserved", 10, Kind::Seconds,
        [](const AcctRow &r) -> Value {
            const std::int64_t start = job(r).startTime;
            const std::int64_t eligible = job(r).eligibleTime.value_or(0);
            return isStep(r) ? Value() : seconds(start > 0 && eligible > 0 ? start - eligible : 0);
        }},
    Field{"ResvCPU", 10, Kind::Seconds, blank},
    Field{"ResvCPURAW", 10, Kind::Number, blank},
    Field{"Start", 19, Kind::Date,
        [](const AcctRow &r) {
            return seconds(startOf(r));
        }},
    Field{"State", 10, Kind::Text, state},
    Field{"Submit", 19, Kind::Date,
        [](const AcctRow &r) {
            return seconds(isStep(r) ? startOf(r) : job(r).submitTime);
        }},
    Field{"SubmitLine", 20, Kind::Text, blank},
    Field{"Suspended", 10, Kind::Seconds,
        [](const AcctRow &r) {
            return seconds(suspendedOf(r));
        }},
    Field{"SystemComment", 15, Kind::Text, blank},
    Field{"SystemCPU", 10, Kind::Text, blank},
    Field{"Timelimit", 10, Kind::Text, timelimit},
    Field{"TimelimitRaw", 10, Kind::Text,
        [](const AcctRow &r) -> Value {
            if (isStep(r)) {
                return std::nullopt;
            }
            const std::int64_t limit = job(r).timeLimit.value_or(sched::kInfinite);
            return limit == sched::kInfinite ? std::string("UNLIMITED")
                                             : std::to_string(limit / 60);
        }},
    Field{"TotalCPU", 10, Kind::Text, totalCpu},
    Field{"TRESUsageInAve", 14, Kind::Text, tresUsage},
    Field{"TRESUsageInMax", 14, Kind::Text, blank},
    Field{"TRESUsageInMaxNode", 18, Kind::Text, blank},
    Field{"TRESUsageInMaxTask", 18, Kind::Text, blank},
    Field{"TRESUsageInMin", 14, Kind::Text, blank},
    Field{"TRESUsageInMinNode", 18, Kind::Text, blank},
    Field{"TRESUsageInMinTask", 18, Kind::Text, blank},
    Field{"TRESUsageInTot", 14, Kind::Text, blank},
    Field{"TRESUsageOutAve", 15, Kind::Text, blank},
    Field{"TRESUsageOutMax", 15, Kind::Text, blank},
    Field{"TRESUsageOutMaxNode", 19, Kind::Text, blank},
    Field{"TRESUsageOutMaxTask", 19, Kind::Text, blank},
    Field{"TRESUsageOutMin", 15, Kind::Text, blank},
    Field{"TRESUsageOutMinNode", 19, Kind::Text, blank},
    Field{"TRESUsageOutMinTask", 19, Kind::Text, blank},
    Field{"TRESUsageOutTot", 15, Kind::Text, blank},
    Field{"UID", 6, Kind::Number,
        [](const AcctRow &r) {
            return jobNumber(r, job(r).uid);
        }},
    Field{"User", 9, Kind::Text,
        [](const AcctRow &r) {
            return jobText(r, job(r).user);
        }},
    Field{"UserCPU", 10, Kind::Text, blank},
    Field{"WCKey", 10, Kind::Text, blank},
    Field{"WCKeyID", 10, Kind::Number,
        [](const AcctRow &r) -> Value {
            return isStep(r) ? Value() : Value("0"); // no WCKey: id 0
        }},
    Field{"WorkDir", 20, Kind::Text,
        [](const AcctRow &r) {
            return jobText(r, job(r).workDir);
        }},
};

} // namespace

std::span<const Field> fieldTable()
{
    return kFields;
}

} // namespace mc::cmd::sacct
