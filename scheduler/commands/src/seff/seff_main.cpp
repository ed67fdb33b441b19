// seff JOBID: the efficiency report of a job (Slurm's contribs/seff), from the controller's
// accounting records: CPU time against core-walltime, MaxRSS against the memory requested.

#include "../shared/text.h"
#include "mc/proto/client.h"
#include "seff_report.h"

#include <cstdio>
#include <ctime>
#include <grp.h>
#include <string>

namespace {

constexpr const char *kUsage = "Usage: seff [Options] <Jobid>\n"
                               "       Options:\n"
                               "       -h    Help menu\n"
                               "       -v    Version\n"
                               "       -d    Debug mode: display raw Slurm data\n";

} // namespace

int main(int argc, char **argv)
{
    std::string jobArg;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "-h") {
            std::fputs(kUsage, stdout);
            return 1;
        }
        if (arg == "-v") {
            std::puts("seff Version 2.1");
            return 0;
        }
        if (arg == "-d") {
            std::fputs(
                "seff: error: -d (raw Slurm data) is not supported by minicluster\n", stderr);
            return 1;
        }
        jobArg = arg;
    }
    auto id = mc::cmd::parseInteger(jobArg);
    if (jobArg.empty()) {
        std::fputs(kUsage, stdout);
        return 1;
    }
    if (!id || *id <= 0) {
        std::fputs("Job not found.\n", stderr);
        return 2;
    }
    mc::proto::Client client;
    std::string error;
    if (!client.connect(mc::proto::controllerSocketPath(), error)) {
        std::fprintf(stderr, "seff: error: Unable to contact slurm controller (connect failure)\n");
        return 1;
    }
    mc::proto::Json ping = mc::proto::Json::object();
    ping.set("op", "ping");
    auto pong = client.call(ping, error);
    mc::proto::Json request = mc::proto::Json::object();
    request.set("op", "acct");
    mc::proto::Json ids = mc::proto::Json::array();
    ids.push(*id);
    request.set("job_ids", std::move(ids));
    auto reply = client.call(request, error);
    if (!pong || !reply || !(*reply)["ok"].toBool() || (*reply)["jobs"].size() == 0) {
        std::fputs("Job not found.\n", stderr);
        return 2;
    }
    const mc::proto::Json &job = (*reply)["jobs"].items().front();
    auto gid = static_cast<gid_t>(job["gid"].toInt());
    const group *gr = ::getgrgid(gid);
    std::string groupName = gr ? gr->gr_name : std::to_string(gid);
    std::int64_t now = (*pong)["now"].toInt(static_cast<std::int64_t>(std::time(nullptr)));
    std::fputs(
        mc::cmd::seff::report(job, (*pong)["cluster_name"].toString(), groupName, now).c_str(),
        stdout);
    return 0;
}
