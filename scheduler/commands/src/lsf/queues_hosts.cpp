#include "../foreign/foreign_submit.h"
#include "../shared/cluster_view.h"
#include "../shared/text.h"
#include "mc/cmd/lsf.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace mc::cmd {
namespace {

std::string number(std::int64_t value, int width)
{
    return padLeft(std::to_string(value), static_cast<std::size_t>(width));
}

bool wanted(const std::vector<std::string> &names, const std::string &name)
{
    return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
}

// The names on the command line; an option is refused.
std::optional<std::vector<std::string>> operands(Context &ctx, std::string_view program)
{
    std::vector<std::string> names;
    for (const std::string &word : ctx.args) {
        if (!word.empty() && word[0] == '-') {
            *ctx.err << program << ": " << word << " is not supported by minicluster\n";
            return std::nullopt;
        }
        names.push_back(word);
    }
    return names;
}

std::optional<ClusterView> cluster(Context &ctx)
{
    std::string error;
    auto view = loadClusterView(ctx, error);
    if (!view) {
        *ctx.err << "LSF is down. Please wait ...\n";
    }
    return view;
}

} // namespace

int Bqueues::run()
{
    const auto names = operands(m_ctx, "bqueues");
    const auto view = names ? cluster(m_ctx) : std::nullopt;
    if (!view) {
        return 255;
    }
    const auto jobs = foreign::listJobs(m_ctx).value_or(std::vector<record::JobObject>{});
    int code = 0;
    for (const std::string &name : *names) {
        if (!view->partition(name)) {
            *m_ctx.err << name << ": No such queue\n";
            code = 255;
        }
    }
    std::string rows;
    for (const PartitionView &p : view->partitions) {
        if (!wanted(*names, p.name)) {
            continue;
        }
        std::int64_t pend = 0;
        std::int64_t run = 0;
        for (const auto &job : jobs) {
            if (job.partition == p.name) {
                const std::string &state = job.state;
                const std::int64_t slots = job.numCpus.value_or(1);
                pend += state == "PENDING" ? slots : 0;
                run += state == "RUNNING" ? slots : 0;
            }
        }
        const std::string status = p.state == "up" ? "Open:Active"
            : p.state == "drain"                   ? "Closed:Active"
                                                   : "Closed:Inact";
        rows += padRight(p.name, 15) + " " + number(p.priorityTier, 4) + "  " + padRight(status, 15)
            + "   -    -    -    -  " + number(pend + run, 5) + " " + number(pend, 5) + " "
            + number(run, 5) + "     0\n";
    }
    if (!rows.empty()) {
        *m_ctx.out << "QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  "
                      "SUSP \n"
                   << rows;
    }
    return code;
}

int Bhosts::run()
{
    const auto names = operands(m_ctx, "bhosts");
    const auto view = names ? cluster(m_ctx) : std::nullopt;
    if (!view) {
        return 255;
    }
    int code = 0;
    for (const std::string &name : *names) {
        if (!view->node(name)) {
            *m_ctx.err << name
                       << ": Host name, host group name or cluster name is not used by "
                          "the queue\n";
            code = 255;
        }
    }
    std::string rows;
    for (const NodeView &node : view->nodes) {
        if (node.partitions.empty() || !wanted(*names, node.name)) {
            continue; // login and storage nodes run no jobs
        }
        const bool down = node.state.find("down") != std::string::npos || !node.responding;
        const bool drained = node.state.find("drain") != std::string::npos;
        const std::string status = down   ? "unavail"
            : drained                     ? "closed_Adm"
            : node.allocCpus >= node.cpus ? "closed"
                                          : "ok";
        rows += padRight(node.name, 18) + " " + padRight(status, 12) + "    -" + " "
            + number(node.cpus, 6) + " " + number(node.allocCpus, 6) + " "
            + number(node.allocCpus, 6) + "      0      0      0\n";
    }
    if (!rows.empty()) {
        *m_ctx.out << "HOST_NAME          STATUS       JL/U    MAX  NJOBS    RUN  SSUSP  USUSP    "
                      "RSV \n"
                   << rows;
    }
    return code;
}

} // namespace mc::cmd
