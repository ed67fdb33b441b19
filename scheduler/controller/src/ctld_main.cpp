// minicluster-ctld --dir CLUSTER_DIR: the controller of one cluster directory.
#include "mc/base/file.h"
#include "mc/ctl/server.h"
#include "mc/proto/event_loop.h"
#include "mc/sched/gres_conf.h"
#include "mc/sched/minicluster_conf.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/slurm_conf.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace {

void periodic(
    mc::proto::EventLoop &loop, mc::ctl::Controller &controller, const mc::ctl::Server &server)
{
    // Every second of wall time, or sooner when a time limit or a --signal warning falls
    // before then on the cluster clock (which may run thousands of times faster).
    auto delay = std::chrono::milliseconds(1000);
    const auto before = server.now();
    if (auto next = controller.nextTimeEvent(before)) {
        const double ms = static_cast<double>(*next - before) * 1000.0 / controller.clockSpeed();
        delay = std::clamp(std::chrono::milliseconds(static_cast<std::int64_t>(ms)),
            std::chrono::milliseconds(10), delay);
    }
    loop.addTimer(delay, [&loop, &controller, &server] {
        auto now = server.now();
        controller.purgeOldJobs(now);
        controller.enforceTimeLimits(now);
        controller.enforceInactiveLimit(
            now, [&server](mc::sched::JobId job) { return server.allocationResponds(job); });
        controller.enforceBatchStartTimeout(now);
        controller.schedule(now);
        periodic(loop, controller, server);
    });
}

} // namespace

int main(int argc, char **argv)
{
    std::string dir;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--dir") == 0 && i + 1 < argc) {
            dir = argv[++i];
        }
    }
    if (dir.empty()) {
        std::fprintf(stderr, "usage: minicluster-ctld --dir CLUSTER_DIR\n");
        return 2;
    }
    const auto slurmConf = mc::base::readFile(dir + "/etc/slurm.conf");
    if (!slurmConf) {
        std::fprintf(stderr, "minicluster-ctld: cannot read %s/etc/slurm.conf\n", dir.c_str());
        return 1;
    }
    const std::string &text = *slurmConf;
    auto parsed = mc::sched::parseSlurmConf(text);
    for (const auto &problem : parsed.problems) {
        std::fprintf(stderr, "minicluster-ctld: etc/slurm.conf line %d: %s\n", problem.line,
            problem.message.c_str());
    }
    // etc/gres.conf, when there is one: what each node's slurmd would register, checked
    // against Gres= as slurmctld does (a node short of GPUs is drained with Slurm's reason).
    if (const auto gresConf = mc::base::readFile(dir + "/etc/gres.conf")) {
        const auto gres = mc::sched::parseGresConf(*gresConf);
        for (const auto &problem : gres.problems) {
            std::fprintf(stderr, "minicluster-ctld: etc/gres.conf line %d: %s\n", problem.line,
                problem.message.c_str());
        }
        mc::sched::applyGresConf(parsed.config, gres);
        for (const auto &node : parsed.config.nodes) {
            if (!node.gresInvalid.empty()) {
                std::fprintf(stderr,
                    "minicluster-ctld: error: Setting node %s state to INVAL with reason:%s\n",
                    node.name.c_str(), node.gresInvalid.c_str());
            }
        }
    }
    // Nothing could ever run: refused, rather than a cluster of no nodes that says it is up.
    const auto &config = parsed.config;
    const bool anyPartitionNode
        = std::any_of(config.partitions.begin(), config.partitions.end(), [&](const auto &p) {
              return std::any_of(p.nodes.begin(), p.nodes.end(),
                  [&](const std::string &n) { return config.node(n) != nullptr; });
          });
    if (config.nodes.empty() || !anyPartitionNode) {
        std::fprintf(stderr,
            "minicluster-ctld: fatal: %s/etc/slurm.conf defines no usable %s (a NodeName= line "
            "and a PartitionName= line with Nodes= are needed)\n",
            dir.c_str(), config.nodes.empty() ? "node" : "partition");
        return 1;
    }
    // State files (every script and environment of the queue) and the socket: the owner's only.
    ::umask(077);
    for (const char *name : {"ctld.sqlite", "ctld.sqlite-wal", "ctld.sqlite-shm"}) {
        ::chmod((dir + "/state/" + name).c_str(), 0600); // made before this rule
    }
    const std::string site = mc::base::fileText(dir + "/etc/minicluster.conf");
    auto users = mc::sched::parseSiteUsers(site);
    parsed.config.qos = mc::sched::parseSiteQos(site, users.problems);
    auto problems = mc::sched::readSiteConf(site).problems;
    problems.insert(problems.end(), users.problems.begin(), users.problems.end());
    for (const auto &problem : problems) {
        std::fprintf(stderr, "minicluster-ctld: etc/%s\n", problem.c_str());
    }

    mc::acct::JobStore store;
    std::string error;
    if (!store.open(dir + "/state/ctld.sqlite", error)) {
        std::fprintf(
            stderr, "minicluster-ctld: %s/state/ctld.sqlite: %s\n", dir.c_str(), error.c_str());
        return 1;
    }
    mc::proto::EventLoop loop;
    loop.watchSignals({SIGTERM, SIGINT, SIGHUP}, [&loop](int) { loop.quit(); });
    std::signal(SIGPIPE, SIG_IGN);

    struct Gateway : mc::ctl::NodeGateway {
        mc::ctl::NodeGateway *target = nullptr;
        bool send(const std::string &node, const mc::proto::Json &order) override
        {
            return target && target->send(node, order);
        }
    } gateway;
    mc::ctl::Controller controller(parsed.config, users, store, gateway);
    controller.setExternSteps(mc::ctl::prologFlagsContain(text));
    if (!controller.restore(error)) {
        std::fprintf(stderr, "minicluster-ctld: restoring state: %s\n", error.c_str());
        return 1;
    }
    mc::ctl::Server server(loop, controller);
    controller.setBootTime(server.now());
    controller.endJobsOfVanishedConfig(server.now());
    gateway.target = &server;
    for (const char *socket : {"/state/nodes.sock", "/run/ctld.sock"}) {
        bool nodes = std::strcmp(socket, "/state/nodes.sock") == 0;
        if (!(nodes ? server.listenNodes(dir + socket, error)
                    : server.listen(dir + socket, error))) {
            std::fprintf(
                stderr, "minicluster-ctld: %s%s: %s\n", dir.c_str(), socket, error.c_str());
            return 1;
        }
    }
    {
        std::ofstream pid(dir + "/run/ctld.pid");
        pid << ::getpid() << '\n';
    }
    std::fprintf(stderr, "minicluster-ctld: cluster %s ready, %zu nodes\n",
        parsed.config.clusterName.c_str(), parsed.config.nodes.size());
    periodic(loop, controller, server);
    loop.run();
    ::unlink((dir + "/run/ctld.pid").c_str());
    return 0;
}
