#include "../foreign/foreign_submit.h"
#include "../shared/text.h"
#include "mc/cmd/lsf.h"

#include <ostream>

namespace mc::cmd {

int Bkill::run()
{
    std::vector<std::int64_t> ids;
    bool everyJob = false;
    for (const std::string &word : m_ctx.args) {
        if (word == "0") {
            everyJob = true;
        } else if (!word.empty() && word[0] == '-') {
            *m_ctx.err << "bkill: " << word << " is not supported by minicluster\n";
            return 255;
        } else if (auto id = foreign::jobIdOf(word)) {
            ids.push_back(*id);
        } else {
            *m_ctx.err << word << ": Illegal job ID.\n";
            return 255;
        }
    }
    if (ids.empty() && !everyJob) {
        *m_ctx.err << "bkill: Job ID or one of '-m' '-u' '-q' and '-J' must be specified\n";
        return 255;
    }
    if (everyJob) { // bkill 0: every unfinished job of the caller
        auto jobs = foreign::listJobs(m_ctx);
        for (const auto &job : jobs.value_or(std::vector<record::JobObject>{})) {
            const std::string &state = job.state;
            if (job.user == m_ctx.user.name
                && (state == "PENDING" || state == "RUNNING" || state == "SUSPENDED")) {
                ids.push_back(job.jobId);
            }
        }
        if (ids.empty()) {
            *m_ctx.err << "No unfinished job found\n";
            return 255;
        }
    }
    const auto results = foreign::actOnJobs(m_ctx, ids);
    if (!results) {
        *m_ctx.err << "LSF is down. Please wait ...\n";
        return 255;
    }
    int code = 0;
    for (const auto &[id, error] : *results) {
        if (error.empty()) {
            *m_ctx.out << "Job <" << id << "> is being terminated\n";
            continue;
        }
        code = 255;
        *m_ctx.err << "Job <" << id << ">: "
                   << (error == "Invalid job id specified" ? "No matching job found"
                              : error == "Job/step already completing or completed"
                              ? "Job has already finished"
                              : error == "Access/permission denied" ? "User permission denied"
                                                                    : error)
                   << '\n';
    }
    return code;
}

} // namespace mc::cmd
