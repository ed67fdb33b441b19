#include "../foreign/foreign_submit.h"
#include "mc/cmd/pbs.h"

#include <ostream>

namespace mc::cmd {

int Qdel::run()
{
    std::vector<std::int64_t> ids;
    const std::string server = foreign::serverName(m_ctx);
    for (const std::string &word : m_ctx.args) {
        if (!word.empty() && word[0] == '-') {
            *m_ctx.err << "qdel: " << word << " is not supported by minicluster\n";
            return 1;
        }
        auto id = foreign::jobIdOf(word);
        if (!id) {
            *m_ctx.err << "qdel: illegally formed job identifier: " << word << '\n';
            return 1;
        }
        ids.push_back(*id);
    }
    if (ids.empty()) {
        *m_ctx.err << "usage: qdel [-W force|suppress_email=X] [-x] job_identifier...\n"
                      "       qdel --version\n";
        return 2;
    }
    const auto results = foreign::actOnJobs(m_ctx, ids);
    if (!results) {
        *m_ctx.err << "Connection refused\nqdel: cannot connect to server " << server << '\n';
        return 1;
    }
    int code = 0;
    for (const auto &[id, error] : *results) {
        if (error.empty()) {
            continue;
        }
        // OpenPBS's words and exit status (its error number, modulo 256).
        const std::string name = std::to_string(id) + "." + server;
        if (error == "Invalid job id specified") {
            *m_ctx.err << "qdel: Unknown Job Id " << name << '\n';
            code = 153;
        } else if (error == "Job/step already completing or completed") {
            *m_ctx.err << "qdel: Job has finished " << name << '\n';
            code = 35;
        } else if (error == "Access/permission denied") {
            *m_ctx.err << "qdel: Unauthorized Request  " << name << '\n';
            code = 159;
        } else {
            *m_ctx.err << "qdel: " << error << " " << name << '\n';
            code = 1;
        }
    }
    return code;
}

} // namespace mc::cmd
