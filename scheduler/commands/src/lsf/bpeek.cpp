#include "../foreign/foreign_submit.h"
#include "mc/cmd/lsf.h"

#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

namespace mc::cmd {

int Bpeek::run()
{
    std::optional<std::int64_t> id;
    for (const std::string &word : m_ctx.args) {
        if (!word.empty() && word[0] == '-') {
            *m_ctx.err << "bpeek: " << word << " is not supported by minicluster\n";
            return 255;
        }
        id = foreign::jobIdOf(word);
        if (!id) {
            *m_ctx.err << word << ": Illegal job ID.\n";
            return 255;
        }
    }
    auto jobs = foreign::listJobs(
        m_ctx, id ? std::vector<std::int64_t>{*id} : std::vector<std::int64_t>{});
    if (!jobs) {
        *m_ctx.err << "LSF is down. Please wait ...\n";
        return 255;
    }
    const record::JobObject *chosen = nullptr;
    for (const auto &job : *jobs) {
        const bool mine = job.user == m_ctx.user.name;
        if ((id && job.jobId == *id)
            || (!id && mine && job.state == "RUNNING" && (!chosen || job.jobId > chosen->jobId))) {
            chosen = &job;
        }
    }
    if (!chosen) {
        *m_ctx.err << (id ? "Job <" + std::to_string(*id) + "> is not found\n"
                          : std::string("No unfinished job found\n"));
        return 255;
    }
    if (chosen->state != "RUNNING") {
        *m_ctx.err << "Job <" << chosen->jobId << ">: Not a running job\n";
        return 255;
    }
    std::ifstream file(foreign::jobFile(*chosen), std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    *m_ctx.out << "<< output from stdout >>\n" << text.str();
    return 0;
}

int Bstop::run()
{
    const std::string program = m_resume ? "bresume" : "bstop";
    std::vector<std::int64_t> ids;
    for (const std::string &word : m_ctx.args) {
        auto id = foreign::jobIdOf(word);
        if (!id) {
            *m_ctx.err << (word[0] == '-'
                    ? program + ": " + word + " is not supported by minicluster"
                    : word + ": Illegal job ID.")
                       << '\n';
            return 255;
        }
        ids.push_back(*id);
    }
    if (ids.empty()) {
        *m_ctx.err << program << ": Job ID or one of '-m' '-u' '-q' and '-J' must be specified\n";
        return 255;
    }
    const auto jobs = foreign::listJobs(m_ctx, ids).value_or(std::vector<record::JobObject>{});
    // A started job is suspended (USUSP: its processes stopped), a pending one held (PSUSP).
    std::vector<std::int64_t> pending;
    std::vector<std::int64_t> started;
    int code = 0;
    for (const std::int64_t id : ids) {
        std::string state;
        for (const auto &job : jobs) {
            state = job.jobId == id ? job.state : state;
        }
        (state == "RUNNING" || state == "SUSPENDED" ? started : pending).push_back(id);
    }
    // Each id's error ("" when done), told in the order the ids were given.
    std::map<std::int64_t, std::string> results;
    auto act = [&](const std::vector<std::int64_t> &list, std::string_view op) {
        if (list.empty()) {
            return;
        }
        for (const auto &[id, error] :
            foreign::actOnJobs(m_ctx, list, op)
                .value_or(std::vector<std::pair<std::int64_t, std::string>>{})) {
            results[id] = error;
        }
    };
    act(pending, m_resume ? "release" : "hold");
    act(started, m_resume ? "resume" : "suspend");
    for (const std::int64_t id : ids) {
        auto result = results.find(id);
        if (result == results.end()) {
            continue; // the controller did not answer
        }
        const std::string &error = result->second;
        if (error.empty()) {
            *m_ctx.out << "Job <" << id << "> is being " << (m_resume ? "resumed" : "stopped")
                       << '\n';
        } else {
            *m_ctx.err << "Job <" << id << ">: "
                       << (error == "Invalid job id specified" ? "No matching job found" : error)
                       << '\n';
            code = 255;
        }
    }
    return code;
}

} // namespace mc::cmd
