#include "squeue_fields.h"

#include "../scontrol/scontrol_records.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_state.h"
#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <array>
#include <charconv>
#include <cstdio>

namespace mc::cmd::squeue {
namespace {

using sched::JobState;

constexpr std::int64_t kYear = 365 * 86400;

using record::JobObject;

// An optional member as squeue prints it when absent: 0, or the empty string.
std::string number(std::optional<std::int64_t> value)
{
    return std::to_string(value.value_or(0));
}

std::string text(const std::optional<std::string> &value)
{
    return value.value_or(std::string());
}

std::optional<JobState> stateOf(const JobRow &r)
{
    return jobState(*r.job);
}

Cell timestamp(std::int64_t epoch)
{
    return {epoch > 0 ? sched::formatTimestamp(epoch) : std::string("N/A")};
}

Cell nodeList(const JobRow &r)
{
    return {sched::compressHostlist(r.job->nodes), false};
}

Cell reasonList(const JobRow &r)
{
    auto state = stateOf(r);
    const bool showsReason = state
        && (*state == JobState::Pending || *state == JobState::Timeout
            || *state == JobState::OutOfMemory || *state == JobState::Deadline
            || *state == JobState::Failed);
    if (showsReason) {
        std::string reason = "(";
        reason += r.job->reason;
        reason += ')';
        return {reason};
    }
    return nodeList(r);
}

bool isArray(const JobRow &r)
{
    return r.job->arrayJobId > 0;
}

// %i: "12" for a job, "12_1" for an array task, "12_[3-10%2]" for an array's pending record.
Cell jobId(const JobRow &r)
{
    const JobObject &job = *r.job;
    if (isArray(r) && job.arrayTaskId) {
        return {std::to_string(job.arrayJobId) + "_" + std::to_string(*job.arrayTaskId)};
    }
    if (isArray(r)) {
        return {std::to_string(job.arrayJobId) + "_[" + job.arrayTaskStr + "]"};
    }
    return {std::to_string(job.jobId)};
}

Cell hostsOrEmpty(const std::vector<std::string> &hosts)
{
    return {sched::compressHostlist(hosts)};
}

Cell timeLimit(const JobRow &r)
{
    const std::int64_t limit = r.job->timeLimit.value_or(sched::kInfinite);
    if (limit == sched::kInfinite) {
        return {"UNLIMITED"};
    }
    return {formatSeconds(limit), false};
}

Cell timeLeft(const JobRow &r)
{
    const std::int64_t limit = r.job->timeLimit.value_or(sched::kInfinite);
    if (limit == sched::kInfinite) {
        return {"UNLIMITED"};
    }
    return {formatSeconds(limit - timeUsed(r)), false};
}

Cell endTime(const JobRow &r)
{
    const JobObject &job = *r.job;
    const std::int64_t limit = job.timeLimit.value_or(sched::kInfinite);
    std::int64_t end = job.endTime;
    auto state = stateOf(r);
    if (end == 0 && state == JobState::Running && job.startTime > 0) {
        if (limit == sched::kInfinite) {
            return {"NONE"};
        }
        end = job.startTime + job.suspended + limit; // suspensions wait
    }
    return timestamp(end);
}

Cell minMemory(const JobRow &r)
{
    const std::int64_t mib = r.job->minMemory;
    if (r.noConvert && mib > 0) {
        return {std::to_string(mib) + "M"};
    }
    return {sched::formatMemory(mib)};
}

Cell priorityFraction(const JobRow &r)
{
    char buffer[64];
    std::snprintf(
        buffer, sizeof buffer, "%16.14f", static_cast<double>(r.job->priority) / 4294967295.0);
    return {buffer};
}

Cell orNull(const std::string &value)
{
    return {value.empty() ? std::string("(null)") : value};
}

// sbatch's filename pattern as squeue prints it: expanded, under the working directory, the
// default slurm-%j.out when none was given (as scontrol's StdOut).
std::string stdioPath(const JobRow &r, const std::string &pattern)
{
    return scontrol::stdioPath(*r.job, pattern, false);
}

// TRES_ALLOC: what the job holds, or asks for while pending, as scontrol's TRES.
Cell tresAlloc(const JobRow &r)
{
    const std::int64_t cpus = r.job->numCpus.value_or(1);
    const std::int64_t nodes = r.job->numNodes.value_or(1);
    const std::int64_t mem = r.job->minMemory;
    const std::int64_t total = r.job->memPerCpu ? mem * cpus : mem * nodes;
    const std::int64_t gpus = r.job->gpusReq;
    return {"cpu=" + std::to_string(cpus) + ",mem=" + sched::formatMemory(total)
        + ",node=" + std::to_string(nodes) + ",billing=" + std::to_string(cpus)
        + (gpus > 0 ? ",gres/gpu=" + std::to_string(gpus) : std::string())};
}

const std::array kFields{
    Field{'a', "account", "ACCOUNT", true,
        [](const JobRow &r) {
            return Cell{r.job->account};
        }},
    Field{'A', "jobid", "JOBID", true,
        [](const JobRow &r) {
            return Cell{std::to_string(r.job->jobId)};
        }},
    Field{'b', "tres-per-node", "TRES_PER_NODE", true,
        [](const JobRow &r) {
            const std::string &gres = r.job->gres;
            return Cell{gres.empty() ? std::string("N/A") : "gres:" + gres};
        }},
    Field{'B', "batchhost", "EXEC_HOST", true,
        [](const JobRow &r) {
            std::string host = text(r.job->batchHost);
            return Cell{host.empty() ? std::string("n/a") : host};
        }},
    Field{'c', "mincpus", "MIN_CPUS", true,
        [](const JobRow &r) {
            return Cell{number(r.job->cpusPerTask)};
        }},
    Field{'C', "numcpus", "CPUS", true,
        [](const JobRow &r) {
            return Cell{number(r.job->numCpus)};
        }},
    Field{'d', "mintmpdisk", "MIN_TMP_DISK", true,
        [](const JobRow &) {
            return Cell{"0"};
        }},
    Field{'D', "numnodes", "NODES", true,
        [](const JobRow &r) {
            return Cell{number(r.job->numNodes)};
        }},
    Field{'e', "endtime", "END_TIME", true, endTime},
    Field{'E', "dependency", "DEPENDENCY", true,
        [](const JobRow &r) {
            return orNull(r.job->dependency);
        }},
    Field{'f', "feature", "FEATURES", true,
        [](const JobRow &r) {
            return orNull(r.job->constraint);
        }},
    Field{'F', "arrayjobid", "ARRAY_JOB_ID", true,
        [](const JobRow &r) {
            return Cell{std::to_string(isArray(r) ? r.job->arrayJobId : r.job->jobId)};
        }},
    Field{'g', "groupname", "GROUP", true,
        [](const JobRow &r) {
            std::string group = text(r.job->group);
            if (group.empty() && r.site && r.site->groupName) {
                group = r.site->groupName(*r.job);
            }
            if (group.empty()) {
                group = number(r.job->gid); // a gid without a name, as Slurm prints it
            }
            return Cell{group};
        }},
    Field{'G', "groupid", "GROUP", true,
        [](const JobRow &r) {
            return Cell{number(r.job->gid)};
        }},
    Field{'h', "oversubscribe", "OVER_SUBSCRIBE", true,
        [](const JobRow &r) {
            return Cell{r.job->exclusive ? "NO" : "OK"};
        }},
    Field{'H', "sockets", "SOCKETS_PER_NODE", true,
        [](const JobRow &) {
            return Cell{"*"};
        }},
    Field{'i', "jobarrayid", "JOBID", true, jobId},
    Field{'I', "cores", "CORES_PER_SOCKET", true,
        [](const JobRow &) {
            return Cell{"*"};
        }},
    Field{'j', "name", "NAME", true,
        [](const JobRow &r) {
            return Cell{r.job->name};
        }},
    Field{'J', "threads", "THREADS_PER_CORE", true,
        [](const JobRow &) {
            return Cell{"*"};
        }},
    Field{'k', "comment", "COMMENT", true,
        [](const JobRow &r) {
            return Cell{r.job->comment.value_or("(null)")};
        }},
    Field{'K', "arraytaskid", "ARRAY_TASK_ID", true,
        [](const JobRow &r) {
            if (r.job->arrayTaskId) {
                return Cell{std::to_string(*r.job->arrayTaskId)};
            }
            return Cell{isArray(r) ? r.job->arrayTaskStr : std::string("N/A")};
        }},
    Field{'l', "timelimit", "TIME_LIMIT", true, timeLimit},
    Field{'L', "timeleft", "TIME_LEFT", true, timeLeft},
    Field{'m', "minmemory", "MIN_MEMORY", true, minMemory},
    Field{'M', "timeused", "TIME", true,
        [](const JobRow &r) {
            return Cell{formatSeconds(timeUsed(r)), false};
        }},
    Field{'n', "reqnodes", "REQ_NODES", true,
        [](const JobRow &r) {
            return hostsOrEmpty(r.job->reqNodes);
        }},
    Field{'N', "nodelist", "NODELIST", false, nodeList},
    Field{'o', "command", "COMMAND", true,
        [](const JobRow &r) {
            return orNull(r.job->command);
        }},
    Field{'O', "contiguous", "CONTIGUOUS", true,
        [](const JobRow &) {
            return Cell{"0"};
        }},
    Field{'p', "priority", "PRIORITY", true, priorityFraction},
    Field{'P', "partition", "PARTITION", true,
        [](const JobRow &r) {
            return Cell{r.job->partition};
        }},
    Field{'q', "qos", "QOS", true,
        [](const JobRow &r) {
            return Cell{text(r.job->qos)};
        }},
    Field{'Q', "prioritylong", "PRIORITY", true,
        [](const JobRow &r) {
            return Cell{std::to_string(r.job->priority)};
        }},
    Field{'r', "reason", "REASON", true,
        [](const JobRow &r) {
            return Cell{r.job->reason};
        }},
    Field{'R', "reasonlist", "NODELIST(REASON)", false, reasonList},
    Field{'s', "selectjobinfo", "", true, nullptr}, // Slurm 22.05 prints nothing, header included
    Field{'S', "starttime", "START_TIME", true,
        [](const JobRow &r) {
            return timestamp(startTime(r));
        }},
    Field{'t', "statecompact", "ST", true,
        [](const JobRow &r) {
            return Cell{r.job->stateShort};
        }},
    Field{'T', "state", "STATE", true,
        [](const JobRow &r) {
            return Cell{r.job->state};
        }},
    Field{'u', "username", "USER", true,
        [](const JobRow &r) {
            return Cell{r.job->user};
        }},
    Field{'U', "userid", "UID", true,
        [](const JobRow &r) {
            return Cell{std::to_string(r.job->uid)};
        }},
    Field{'v', "reservation", "RESERVATION", true,
        [](const JobRow &) {
            return Cell{"(null)"};
        }},
    Field{'V', "submittime", "SUBMIT_TIME", true,
        [](const JobRow &r) {
            return timestamp(r.job->submitTime);
        }},
    Field{'w', "wckey", "WCKEY", true,
        [](const JobRow &) {
            return Cell{"(null)"};
        }},
    Field{'W', "licenses", "LICENSES", true,
        [](const JobRow &) {
            return Cell{"(null)"};
        }},
    Field{'x', "excnodes", "EXC_NODES", true,
        [](const JobRow &r) {
            return hostsOrEmpty(r.job->excNodes);
        }},
    Field{'X', "corespec", "CORE_SPEC", true,
        [](const JobRow &) {
            return Cell{"N/A"};
        }},
    Field{'y', "nice", "NICE", true,
        [](const JobRow &r) {
            return Cell{std::to_string(r.job->nice)};
        }},
    Field{'Y', "schednodes", "SCHEDNODES", false,
        [](const JobRow &) {
            return Cell{"(null)", false};
        }},
    Field{'z', "sct", "S:C:T", true,
        [](const JobRow &) {
            return Cell{"*:*:*"};
        }},
    Field{'Z', "workdir", "WORK_DIR", true,
        [](const JobRow &r) {
            return Cell{r.job->workDir};
        }},
    Field{0, "numtasks", "TASKS", true,
        [](const JobRow &r) {
            return Cell{number(r.job->numTasks)};
        }},
    Field{0, "cpus-per-task", "CPUS_PER_TASK", true,
        [](const JobRow &r) {
            return Cell{number(r.job->cpusPerTask)};
        }},
    Field{0, "cpuspertask", "CPUS_PER_TASK", true,
        [](const JobRow &r) {
            return Cell{number(r.job->cpusPerTask)};
        }},
    Field{0, "eligibletime", "ELIGIBLE_TIME", true,
        [](const JobRow &r) {
            // held or waiting on a dependency: never eligible yet (Slurm prints N/A)
            const std::string &reason = r.job->reason;
            if (r.job->state == "PENDING"
                && (reason.rfind("JobHeld", 0) == 0 || reason == "Dependency")) {
                return Cell{"N/A"};
            }
            return timestamp(r.job->eligibleTime.value_or(0));
        }},
    Field{0, "exit_code", "EXIT_CODE", true,
        [](const JobRow &r) {
            // the raw wait status, as Slurm stores it: the code in the high byte, the signal low
            return Cell{std::to_string(r.job->exitCode * 256 + r.job->exitSignal)};
        }},
    Field{0, "stdout", "STDOUT", true,
        [](const JobRow &r) {
            return Cell{stdioPath(r, r.job->stdOut)};
        }},
    Field{0, "stderr", "STDERR", true,
        [](const JobRow &r) {
            // without --error, standard error goes where standard output goes
            const std::string &err = r.job->stdErr;
            return Cell{stdioPath(r, err.empty() ? r.job->stdOut : err)};
        }},
    Field{0, "stdin", "STDIN", true,
        [](const JobRow &r) {
            return Cell{r.job->stdIn};
        }},
    Field{0, "batchflag", "BATCH_FLAG", true,
        [](const JobRow &) {
            return Cell{"1"};
        }},
    Field{0, "accruetime", "ACCRUE_TIME", true,
        [](const JobRow &r) {
            // Slurm counts a job's age for priority from when it may run: never while held or
            // waiting on a dependency or its begin time.
            const std::string &reason = r.job->reason;
            if (r.job->state == "PENDING"
                && (reason.rfind("JobHeld", 0) == 0 || reason == "Dependency"
                    || reason == "BeginTime")) {
                return Cell{"N/A"};
            }
            return timestamp(r.job->eligibleTime.value_or(r.job->submitTime));
        }},
    Field{0, "allocnodes", "ALLOC_NODES", true,
        [](const JobRow &r) {
            return Cell{r.job->submitHost.value_or("localhost")};
        }},
    Field{0, "cluster", "CLUSTER", true,
        [](const JobRow &r) {
            return Cell{r.site ? r.site->clusterName : std::string()};
        }},
    Field{0, "lastschedeval", "LAST_SCHED_EVAL", true,
        [](const JobRow &r) {
            // the controller weighs a pending job at its submission and starts it at an
            // evaluation: as scontrol's LastSchedEval
            const bool pending = r.job->state == "PENDING";
            return timestamp(
                r.job->lastSchedEval.value_or(pending ? r.job->submitTime : r.job->startTime));
        }},
    Field{0, "maxcpus", "MAX_CPUS", true,
        [](const JobRow &r) {
            return Cell{number(r.job->numCpus)};
        }},
    Field{0, "maxnodes", "MAX_NODES", true,
        [](const JobRow &r) {
            return Cell{number(r.job->numNodes)};
        }},
    Field{0, "mintime", "TIME_MIN", true,
        [](const JobRow &r) {
            return Cell{formatSeconds(r.job->timeMin), false};
        }},
    Field{0, "ntpernode", "NTASKS_PER_NODE", true,
        [](const JobRow &r) {
            return Cell{std::to_string(r.job->ntasksPerNode)};
        }},
    Field{0, "restartcnt", "RESTART_COUNT", true,
        [](const JobRow &r) {
            return Cell{std::to_string(r.job->restarts)};
        }},
    Field{0, "tres-alloc", "TRES_ALLOC", true, tresAlloc},
    Field{0, "tres-per-job", "TRES_PER_JOB", true,
        [](const JobRow &r) {
            const std::string &tres = r.job->tresPerJob;
            return Cell{tres.empty() ? std::string("N/A") : tres};
        }},
    // Every job may be requeued (JobRequeue=1, no --no-requeue) and none is preempted.
    Field{0, "requeue", "REQUEUE", true, nullptr, "1"},
    Field{0, "preempttime", "PREEMPT_TIME", true, nullptr, "N/A"},
    // The highest exit code of the job's steps, which squeue's jobs never have.
    Field{0, "derivedec", "DERIVED_EC", true, nullptr, "0"},
    // Features minicluster does not have; Slurm prints these for every job without them
    // ("VIALBLE" is Slurm 22.05's own spelling).
    Field{0, "burstbuffer", "BURST_BUFFER", true, nullptr, "(null)"},
    Field{0, "burstbufferstate", "BURST_BUFFER_STATE", true, nullptr, "(null)"},
    Field{0, "clusterfeature", "CLUSTER_FEATURES", true, nullptr, "(null)"},
    Field{0, "deadline", "DEADLINE", true, nullptr, "N/A"},
    Field{0, "delayboot", "DELAY_BOOT", true, nullptr, "0:00"},
    Field{0, "hetjobid", "HET_JOB_ID", true, nullptr, "N/A"},
    Field{0, "hetjobidset", "HET_JOB_ID_SET", true, nullptr, "N/A"},
    Field{0, "hetjoboffset", "HET_JOB_OFFSET", true, nullptr, "N/A"},
    Field{0, "mcslabel", "MCSLABEL", true, nullptr, "(null)"},
    Field{0, "boardspernode", "BOARDS_PER_NODE", true, nullptr, "0"},
    Field{0, "ntperboard", "NTASKS_PER_BOARD", true, nullptr, "0"},
    Field{0, "sperboard", "SOCKETS_PER_BOARD", true, nullptr, "0"},
    Field{0, "ntpercore", "NTASKS_PER_CORE", true, nullptr, "N/A"},
    Field{0, "ntpersocket", "NTASKS_PER_SOCKET", true, nullptr, "N/A"},
    Field{0, "network", "NETWORK", true, nullptr, "(null)"},
    Field{0, "origin", "ORIGIN", true, nullptr, "NA"},
    Field{0, "originraw", "ORIGIN_RAW", true, nullptr, "NA"},
    Field{0, "siblingsactive", "ACTIVE_SIBLINGS", true, nullptr, "NA"},
    Field{0, "siblingsactiveraw", "ACTIVE_SIBLINGS_RAW", true, nullptr, "NA"},
    Field{0, "siblingsviable", "VIABLE_SIBLINGS", true, nullptr, "NA"},
    Field{0, "siblingsviableraw", "VIALBLE_SIBLINGS_RAW", true, nullptr, "NA"},
    Field{0, "prefer", "PREFER", true, nullptr, "(null)"},
    Field{0, "profile", "PROFILE", true, nullptr, "NotSet"},
    Field{0, "reboot", "REBOOT", true, nullptr, "0"},
    Field{0, "reqswitch", "REQ_SWITCH", true, nullptr, "0"},
    Field{0, "wait4switch", "WAIT4SWITCH", true, nullptr, "0:00"},
    Field{0, "resizetime", "RESIZE_TIME", true, nullptr, "N/A"},
    Field{0, "admin_comment", "ADMIN_COMMENT", true, nullptr, "(null)"},
    Field{0, "system_comment", "SYSTEM_COMMENT", true, nullptr, "(null)"},
    Field{0, "cpus-per-tres", "CPUS_PER_TRES", true, nullptr, "N/A"},
    Field{0, "mem-per-tres", "MEM_PER_TRES", true, nullptr, "N/A"},
    Field{0, "tres-bind", "TRES_BIND", true, nullptr, "N/A"},
    Field{0, "tres-freq", "TRES_FREQ", true, nullptr, "N/A"},
    Field{0, "tres-per-socket", "TRES_PER_SOCKET", true, nullptr, "N/A"},
    Field{0, "tres-per-task", "TRES_PER_TASK", true, nullptr, "N/A"},
};

} // namespace

std::span<const Field> fieldTable()
{
    return kFields;
}

std::string formatSeconds(std::int64_t seconds)
{
    if (seconds < 0 || seconds > kYear) {
        return "INVALID";
    }
    const std::int64_t days = seconds / 86400;
    const std::int64_t hours = seconds / 3600 % 24;
    const std::int64_t minutes = seconds / 60 % 60;
    const std::int64_t secs = seconds % 60;
    // As printf's "%lld-%02lld:%02lld:%02lld", "%lld:%02lld:%02lld", "%lld:%02lld" (without
    // printf: squeue prints a time for every job).
    char buffer[32];
    char *end = buffer;
    auto number = [&end, &buffer](std::int64_t value) {
        end = std::to_chars(end, buffer + sizeof buffer, value).ptr;
    };
    auto twoDigits = [&end](char separator, std::int64_t value) {
        *end++ = separator;
        *end++ = static_cast<char>('0' + value / 10);
        *end++ = static_cast<char>('0' + value % 10);
    };
    if (days > 0) {
        number(days);
        twoDigits('-', hours);
        twoDigits(':', minutes);
    } else if (hours > 0) {
        number(hours);
        twoDigits(':', minutes);
    } else {
        number(minutes);
    }
    twoDigits(':', secs);
    return std::string(buffer, end);
}

std::int64_t startTime(const JobRow &row)
{
    const JobObject &job = *row.job;
    return job.startTime > 0 ? job.startTime : job.plannedStart;
}

std::int64_t timeUsed(const JobRow &row)
{
    const JobObject &job = *row.job;
    const std::int64_t start = job.startTime;
    auto state = stateOf(row);
    if (start == 0 || state == JobState::Pending) {
        return 0;
    }
    // Suspensions do not count (Slurm's run time): those over, and the current one.
    std::int64_t suspended = job.suspended;
    if (state == JobState::Suspended) {
        suspended += std::max<std::int64_t>(0, row.now - job.suspendTime);
    }
    const std::int64_t end = job.endTime;
    if (state == JobState::Running || state == JobState::Suspended || end == 0) {
        return std::max<std::int64_t>(0, row.now - start - suspended);
    }
    return std::max<std::int64_t>(0, end - start - suspended);
}

} // namespace mc::cmd::squeue
