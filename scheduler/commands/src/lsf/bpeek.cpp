#include "../foreign/foreign_submit.h"
#include "mc/cmd/lsf.h"

#include <fstream>
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
    std::vector<std::int64_t> pending;
    int code = 0;
    for (const std::int64_t id : ids) {
        std::string state;
        for (const auto &job : jobs) {
            state = job.jobId == id ? job.state : state;
        }
        if (state == "RUNNING") {
            *m_ctx.err << "Job <" << id << ">: " << program
                       << " of a running job is not supported by minicluster\n";
            code = 255;
        } else {
            pending.push_back(id);
        }
    }
    const auto results = foreign::actOnJobs(m_ctx, pending, m_resume ? "release" : "hold");
    for (const auto &[id, error] :
        results.value_or(std::vector<std::pair<std::int64_t, std::string>>{})) {
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
