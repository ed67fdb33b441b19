#include "mc/cmd/seff.h"

#include "../shared/outcome.h"
#include "../shared/text.h"
#include "seff_report.h"

#include <grp.h>

namespace mc::cmd {
namespace {

constexpr std::string_view kUsage = "Usage: seff [Options] <Jobid>\n"
                                    "       Options:\n"
                                    "       -h    Help menu\n"
                                    "       -v    Version\n"
                                    "       -d    Debug mode: display raw Slurm data\n";

// The group's name, as seff's getgrgid(); the number when the group database has none.
std::string groupName(std::int64_t gid)
{
    const group *entry = ::getgrgid(static_cast<gid_t>(gid));
    return entry ? entry->gr_name : std::to_string(gid);
}

} // namespace

int Seff::run()
{
    // seff reads its words by hand (Getopt::Std's "hvd" in the Perl script): the last word that
    // is not an option is the job id.
    std::string jobArg;
    for (const std::string &arg : m_ctx.args) {
        if (arg == "-h") {
            return deliver(m_ctx, Outcome{std::string(kUsage), {}, 1});
        }
        if (arg == "-v") {
            return deliver(m_ctx, Outcome{"seff Version 2.1\n", {}, 0});
        }
        if (arg == "-d") {
            return deliver(m_ctx, notSupported("seff", "-d (raw Slurm data)"));
        }
        jobArg = arg;
    }
    if (jobArg.empty()) {
        return deliver(m_ctx, Outcome{std::string(kUsage), {}, 1});
    }
    auto id = parseInteger(jobArg);
    const Outcome notFound{{}, "Job not found.\n", 2};
    if (!id || *id <= 0) {
        return deliver(m_ctx, notFound);
    }
    proto::Json ping = proto::Json::object();
    ping.set("op", "ping");
    auto pong = m_ctx.controller(ping);
    if (!pong) {
        return deliver(m_ctx,
            Outcome{
                {}, errorLine("seff", "Unable to contact slurm controller (connect failure)"), 1});
    }
    proto::Json request = proto::Json::object();
    request.set("op", "acct");
    proto::Json ids = proto::Json::array();
    ids.push(*id);
    request.set("job_ids", std::move(ids));
    auto reply = m_ctx.controller(request);
    if (!reply || !(*reply)["ok"].toBool() || (*reply)["jobs"].size() == 0) {
        return deliver(m_ctx, notFound);
    }
    const record::JobObject job = record::jobObjectFromJson((*reply)["jobs"].items().front());
    const std::int64_t now = (*pong)["now"].toInt(m_ctx.now);
    return deliver(m_ctx,
        Outcome{seff::report(
                    job, (*pong)["cluster_name"].toString(), groupName(job.gid.value_or(0)), now),
            {}, 0});
}

} // namespace mc::cmd
