#include "../foreign/foreign_submit.h"
#include "../shared/cluster_view.h"
#include "../shared/text.h"
#include "mc/cmd/pbs.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace mc::cmd {
namespace {

using record::JobObject;

// PBS's one-letter job state.
char pbsState(const JobObject &job)
{
    const std::string &state = job.state;
    if (state == "PENDING") {
        if (!job.hold.empty()) {
            return 'H';
        }
        return job.reason == "BeginTime" ? 'W' : 'Q';
    }
    if (state == "RUNNING" || state == "CONFIGURING") {
        return 'R';
    }
    if (state == "COMPLETING") {
        return 'E';
    }
    if (state == "SUSPENDED") {
        return 'S';
    }
    return 'F';
}

std::string clock(long long seconds, bool withSeconds = true)
{
    char text[32];
    if (withSeconds) {
        std::snprintf(text, sizeof text, "%02lld:%02lld:%02lld", seconds / 3600, seconds / 60 % 60,
            seconds % 60);
    } else {
        std::snprintf(text, sizeof text, "%02lld:%02lld", seconds / 3600, seconds / 60 % 60);
    }
    return text;
}

// Text cut to `width` and padded to `pad`.
std::string cell(const std::string &text, std::size_t width, std::size_t pad)
{
    return padRight(text.substr(0, width), pad);
}

std::string jobId(const JobObject &job, const std::string &server)
{
    const std::int64_t id = job.jobId;
    if (job.arrayTaskId) {
        return std::to_string(job.arrayJobId) + "[" + std::to_string(*job.arrayTaskId) + "]."
            + server;
    }
    if (!job.arrayTaskStr.empty()) {
        return std::to_string(id) + "[]." + server;
    }
    return std::to_string(id) + "." + server;
}

long long elapsed(const JobObject &job, std::int64_t now)
{
    const std::int64_t start = job.startTime;
    if (start <= 0) {
        return -1;
    }
    const std::int64_t end = job.endTime > 0 ? job.endTime : now;
    return std::max<std::int64_t>(0, end - start);
}

void printDefault(std::ostream &out, const std::vector<const JobObject *> &jobs,
    const std::string &server, std::int64_t now)
{
    out << "Job id            Name             User              Time Use S Queue\n"
           "----------------  ---------------- ----------------  -------- - -----\n";
    for (const JobObject *j : jobs) {
        const long long used = elapsed(*j, now);
        out << cell(jobId(*j, server), 17, 17) << ' ' << cell(j->name, 15, 16) << ' '
            << cell(j->user, 16, 17) << ' ' << padLeft(used < 0 ? "0" : clock(used), 8) << ' '
            << pbsState(*j) << ' ' << cell(j->partition, 16, 16) << '\n';
    }
}

void printAlternate(std::ostream &out, const std::vector<const JobObject *> &jobs,
    const std::string &server, std::int64_t now)
{
    out << "\n"
        << server
        << ": \n"
           "                                                            Req'd  Req'd   Elap\n"
           "Job ID          Username Queue    Jobname    SessID NDS TSK Memory Time  S Time\n"
           "--------------- -------- -------- ---------- ------ --- --- ------ ----- - -----\n";
    for (const JobObject *j : jobs) {
        const long long used = elapsed(*j, now);
        const std::int64_t limit = j->timeLimit.value_or(0);
        const std::int64_t mem = j->minMemory;
        out << cell(jobId(*j, server), 15, 15) << ' ' << cell(j->user, 8, 8) << ' '
            << cell(j->partition, 8, 8) << ' ' << cell(j->name, 10, 10) << ' ' << padLeft("--", 6)
            << ' ' << padLeft(std::to_string(j->numNodes.value_or(1)), 3) << ' '
            << padLeft(std::to_string(j->numCpus.value_or(1)), 3) << ' '
            << padLeft(mem > 0 ? std::to_string(mem) + "mb" : "--", 6) << ' '
            << padLeft(limit > 0 ? clock(limit, false) : "--", 5) << ' ' << pbsState(*j) << ' '
            << padLeft(used < 0 ? "--" : clock(used, false), 5) << '\n';
    }
}

void printFull(std::ostream &out, const std::vector<const JobObject *> &jobs,
    const std::string &server, std::int64_t now)
{
    for (const JobObject *job : jobs) {
        const JobObject &j = *job;
        const long long used = elapsed(j, now);
        const std::vector<std::string> &nodes = j.nodes;
        const std::int64_t cpus = j.numCpus.value_or(1);
        const std::int64_t perNode
            = cpus / std::max<std::int64_t>(1, static_cast<std::int64_t>(nodes.size()));
        out << "Job Id: " << jobId(j, server) << '\n';
        auto line = [&out](const std::string &key, const std::string &value) {
            out << "    " << key << " = " << value << '\n';
        };
        line("Job_Name", j.name);
        line("Job_Owner", j.user + "@" + j.submitHost.value_or("login1"));
        if (used >= 0) {
            line("resources_used.walltime", clock(used));
        }
        line("job_state", std::string(1, pbsState(j)));
        line("queue", j.partition);
        line("server", server);
        line("ctime", foreign::pbsTime(j.submitTime));
        const std::string submitHost = j.submitHost.value_or("login1");
        // PBS's paths name the host they are on.
        line("Error_Path", submitHost + ":" + foreign::jobFile(j, true));
        if (!nodes.empty()) {
            std::string hosts;
            std::string vnodes;
            for (const std::string &node : nodes) {
                hosts += (hosts.empty() ? "" : "+") + node + "/0*" + std::to_string(perNode);
                vnodes += std::string(vnodes.empty() ? "" : "+") + "(" + node
                    + ":ncpus=" + std::to_string(perNode) + ")";
            }
            line("exec_host", hosts);
            line("exec_vnode", vnodes);
        }
        line("Hold_Types", j.hold.empty() ? "n" : "u");
        line("Output_Path", submitHost + ":" + foreign::jobFile(j));
        if (j.minMemory > 0) {
            line("Resource_List.mem", std::to_string(j.minMemory) + "mb");
        }
        line("Resource_List.ncpus", std::to_string(cpus));
        line("Resource_List.nodect", std::to_string(j.numNodes.value_or(1)));
        if (j.timeLimit.value_or(0) > 0) {
            line("Resource_List.walltime", clock(*j.timeLimit));
        }
        if (j.startTime > 0) {
            line("stime", foreign::pbsTime(j.startTime));
        }
        line("jobdir", j.workDir);
        if (pbsState(j) == 'F') {
            line("Exit_status", std::to_string(j.exitCode));
        }
        out << '\n';
    }
}

// qstat -q: the queues (partitions) and their running and queued jobs.
int printQueues(Context &ctx, const std::vector<JobObject> &jobs, const std::string &server)
{
    std::string error;
    const auto cluster = loadClusterView(ctx, error);
    if (!cluster) {
        *ctx.err << "Connection refused\nqstat: cannot connect to server " << server << '\n';
        return 1;
    }
    std::ostream &out = *ctx.out;
    out << "\nserver: " << server
        << "\n\n"
           "Queue            Memory CPU Time Walltime Node   Run   Que   Lm  State\n"
           "---------------- ------ -------- -------- ---- ----- ----- ----  -----\n";
    int runTotal = 0;
    int queTotal = 0;
    for (const PartitionView &p : cluster->partitions) {
        int run = 0;
        int que = 0;
        for (const JobObject &j : jobs) {
            if (j.partition == p.name) {
                run += pbsState(j) == 'R' ? 1 : 0;
                que += pbsState(j) == 'Q' || pbsState(j) == 'H' ? 1 : 0;
            }
        }
        runTotal += run;
        queTotal += que;
        out << cell(p.name, 16, 16) << "   --      --  "
            << padLeft(p.maxTime > 0 ? clock(p.maxTime) : "--", 8) << ' '
            << padLeft(std::to_string(p.nodes.size()), 4) << ' ' << padLeft(std::to_string(run), 5)
            << ' ' << padLeft(std::to_string(que), 5) << "   --   "
            << (p.state == "up" ? "E R" : "D S") << '\n';
    }
    out << "                                               ----- -----\n"
        << std::string(47, ' ') << padLeft(std::to_string(runTotal), 5) << ' '
        << padLeft(std::to_string(queTotal), 5) << '\n';
    return 0;
}

} // namespace

int Qstat::run()
{
    char form = 'd';
    bool finished = false;
    std::optional<std::string> user;
    std::vector<std::int64_t> ids;
    const auto &args = m_ctx.args;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &word = args[i];
        if (word == "-a" || word == "-f" || word == "-q") {
            form = word[1];
        } else if (word == "-x") {
            finished = true;
        } else if (word == "-u" && i + 1 < args.size()) {
            user = args[++i];
            form = form == 'd' ? 'a' : form; // -u shows the alternate format
        } else if (word == "-n" || word == "-s" || word == "-Q" || word == "-B" || word == "-t"
            || word == "-J" || word == "-H" || word == "-i" || word == "-r" || word == "-w"
            || word == "-F") {
            *m_ctx.err << "qstat: " << word << " is not supported by minicluster\n";
            return 1;
        } else if (!word.empty() && word[0] == '-') {
            *m_ctx.err << "qstat: invalid option -- '" << word.substr(1) << "'\nusage:\n"
                       << "qstat [-a|-f|-q] [-u user] [-x] [job_identifier...]\n";
            return 2;
        } else if (auto id = foreign::jobIdOf(word)) {
            ids.push_back(*id);
        } else {
            *m_ctx.err << "qstat: illegally formed job identifier: " << word << '\n';
            return 1;
        }
    }
    const std::string server = foreign::serverName(m_ctx);
    auto jobs = foreign::listJobs(m_ctx, ids);
    if (!jobs) {
        *m_ctx.err << "Connection refused\nqstat: cannot connect to server " << server << '\n';
        return 1;
    }
    if (form == 'q') {
        return printQueues(m_ctx, *jobs, server);
    }
    std::vector<const JobObject *> shown;
    for (const auto &job : *jobs) {
        if ((user && job.user != *user) || (ids.empty() && !finished && pbsState(job) == 'F')) {
            continue;
        }
        shown.push_back(&job);
    }
    int code = 0;
    for (const std::int64_t id : ids) {
        if (std::none_of(
                shown.begin(), shown.end(), [id](const JobObject *j) { return j->jobId == id; })) {
            *m_ctx.err << "qstat: Unknown Job Id " << id << "." << server << '\n';
            code = 153;
        }
    }
    if (shown.empty()) {
        return code;
    }
    const std::int64_t now = m_ctx.now;
    if (form == 'f') {
        printFull(*m_ctx.out, shown, server, now);
    } else if (form == 'a') {
        printAlternate(*m_ctx.out, shown, server, now);
    } else {
        printDefault(*m_ctx.out, shown, server, now);
    }
    return code;
}

} // namespace mc::cmd
