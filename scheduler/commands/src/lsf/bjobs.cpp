#include "../foreign/foreign_submit.h"
#include "../shared/text.h"
#include "mc/cmd/lsf.h"
#include "mc/sched/job_state.h"

#include <algorithm>
#include <ostream>

namespace mc::cmd {
namespace {

using record::JobObject;

// LSF's job status for a Slurm state (and hold).
std::string lsfStatus(const JobObject &job)
{
    const std::string &state = job.state;
    if (state == "PENDING") {
        return job.hold.empty() ? "PEND" : "PSUSP";
    }
    if (state == "RUNNING" || state == "COMPLETING" || state == "CONFIGURING") {
        return "RUN";
    }
    if (state == "SUSPENDED") {
        return "USUSP";
    }
    return state == "COMPLETED" ? "DONE" : "EXIT";
}

bool isFinished(const std::string &status)
{
    return status == "DONE" || status == "EXIT";
}

// A value in a column of `width`: LSF keeps the end of a longer one behind a '*'.
std::string column(const std::string &text, std::size_t width)
{
    if (text.size() <= width) {
        return padRight(text, width);
    }
    return "*" + text.substr(text.size() - (width - 1));
}

// Why a job waits, in LSF's words (bjobs -p).
std::string pendingReason(const JobObject &job)
{
    const std::string &reason = job.reason;
    if (reason == "Dependency") {
        return "Job dependency condition not satisfied;";
    }
    if (reason == "DependencyNeverSatisfied") {
        return "Dependency condition invalid or never satisfied;";
    }
    if (reason == "JobHeldUser") {
        return "The job was suspended by the user while pending;";
    }
    if (reason == "JobHeldAdmin") {
        return "The job was suspended by LSF admin or root while pending;";
    }
    if (reason == "BeginTime") {
        return "The job has a specified start time;";
    }
    if (reason == "Resources" || reason == "Priority") {
        return "Not enough job slot(s);";
    }
    if (reason == "None") {
        return "New job is waiting for scheduling;";
    }
    return reason + ";";
}

// EXEC_HOST: "4*cn01" per node of the job.
std::vector<std::string> execHosts(const JobObject &job)
{
    const std::vector<std::string> &nodes = job.nodes;
    std::vector<std::string> hosts;
    const std::int64_t perNode = job.numCpus.value_or(1)
        / std::max<std::int64_t>(1, static_cast<std::int64_t>(nodes.size()));
    for (const std::string &node : nodes) {
        hosts.push_back(perNode > 1 ? std::to_string(perNode) + "*" + node : node);
    }
    return hosts;
}

// bjobs -l: the job's story, one dated line per event (LSF 10.1's long form, in part).
void printLong(std::ostream &out, const JobObject &j, const std::string &host)
{
    const std::string status = lsfStatus(j);
    out << "\nJob <" << j.jobId << ">, Job Name <" << j.name << ">, User <" << j.user
        << ">, Project <default>, Status <" << status << ">, Queue <" << j.partition
        << ">, Command <" << j.command << ">\n"
        << foreign::lsfLongTime(j.submitTime) << ": Submitted from host <"
        << j.submitHost.value_or(host) << ">, CWD <" << j.workDir << ">, " << j.numTasks.value_or(1)
        << " Task(s);\n";
    if (j.timeLimit.value_or(0) > 0) {
        out << "\n RUNLIMIT                \n " << *j.timeLimit / 60 << ".0 min\n\n";
    }
    if (j.startTime > 0) {
        std::string hosts;
        for (const std::string &h : execHosts(j)) {
            hosts += " <" + h + ">";
        }
        out << foreign::lsfLongTime(j.startTime) << ": Started " << j.numCpus.value_or(1)
            << " Task(s) on Host(s)" << hosts << ", Execution CWD <" << j.workDir << ">;\n";
    }
    if (isFinished(status)) {
        out << foreign::lsfLongTime(j.endTime)
            << (status == "DONE" ? std::string(": Done successfully.\n")
                                 : ": Exited with exit code " + std::to_string(j.exitCode) + ".\n");
    }
    if (status == "PEND" || status == "PSUSP") {
        out << " PENDING REASONS:\n " << pendingReason(j) << '\n';
    }
}

} // namespace

int Bjobs::run()
{
    bool all = false;
    bool pendingOnly = false;
    bool longForm = false;
    std::optional<std::string> user = m_ctx.user.name;
    std::vector<std::int64_t> ids;
    const auto &args = m_ctx.args;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &word = args[i];
        if (word == "-a") {
            all = true;
        } else if (word == "-p") {
            pendingOnly = true;
        } else if (word == "-l") {
            longForm = true;
        } else if (word == "-u" && i + 1 < args.size()) {
            user = args[++i] == "all" ? std::nullopt : std::optional(args[i]);
        } else if (word == "-w" || word == "-r" || word == "-d" || word == "-s" || word == "-o"
            || word == "-q" || word == "-m" || word == "-J" || word == "-W" || word == "-X") {
            *m_ctx.err << "bjobs: " << word << " is not supported by minicluster\n";
            return 255;
        } else if (!word.empty() && word[0] == '-') {
            *m_ctx.err << "bjobs: illegal option -- " << word.substr(1) << '\n';
            return 255;
        } else if (auto id = foreign::jobIdOf(word)) {
            ids.push_back(*id);
        } else {
            *m_ctx.err << word << ": Illegal job ID.\n";
            return 255;
        }
    }
    auto jobs = foreign::listJobs(m_ctx, ids);
    if (!jobs) {
        *m_ctx.err << "LSF is down. Please wait ...\n";
        return 255;
    }
    std::vector<const JobObject *> shown;
    for (const auto &job : *jobs) {
        const std::string status = lsfStatus(job);
        const bool named = !ids.empty();
        if ((!named && user && job.user != *user) || (!named && !all && isFinished(status))
            || (pendingOnly && status != "PEND" && status != "PSUSP")) {
            continue;
        }
        shown.push_back(&job);
    }
    for (const std::int64_t id : ids) {
        if (std::none_of(shown.begin(), shown.end(),
                [id](const JobObject *job) { return job->jobId == id; })) {
            *m_ctx.err << "Job <" << id << "> is not found\n";
        }
    }
    if (shown.empty()) {
        if (ids.empty()) {
            *m_ctx.err << (pendingOnly ? "No pending job found\n"
                    : all              ? "No job found\n"
                                       : "No unfinished job found\n");
        }
        return ids.empty() ? 0 : 255;
    }
    if (longForm) {
        for (const JobObject *job : shown) {
            printLong(*m_ctx.out, *job, m_ctx.hostname);
        }
        return 0;
    }
    *m_ctx.out << (pendingOnly
            ? "JOBID   USER    STAT  QUEUE      FROM_HOST   JOB_NAME   SUBMIT_TIME\n"
            : "JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME\n");
    for (const JobObject *job : shown) {
        const JobObject &j = *job;
        const auto hosts = execHosts(j);
        *m_ctx.out << column(std::to_string(j.jobId), 7) << ' ' << column(j.user, 7) << ' '
                   << column(lsfStatus(j), 5) << ' ' << column(j.partition, 10) << ' '
                   << column(j.submitHost.value_or(m_ctx.hostname), 11) << ' ';
        if (!pendingOnly) {
            *m_ctx.out << column(hosts.empty() ? "" : hosts.front(), 11) << ' ';
        }
        *m_ctx.out << column(j.name, 10) << ' ' << foreign::lsfTime(j.submitTime) << '\n';
        for (std::size_t h = 1; !pendingOnly && h < hosts.size(); ++h) {
            *m_ctx.out << std::string(45, ' ') << hosts[h] << '\n';
        }
        if (pendingOnly) {
            *m_ctx.out << " " << pendingReason(j) << '\n';
        }
    }
    return 0;
}

} // namespace mc::cmd
