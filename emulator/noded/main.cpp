// minicluster-noded --dir CLUSTER_DIR --node NAME [--sandbox bubblewrap|plain] [--kill-wait S]
//                   [--limits auto|cgroup-v2|cgroup-v1|rlimit] [--time-scale N]
#include "mc/base/file.h"
#include "mc/emu/node_daemon.h"
#include "mc/emu/process.h"
#include "memory_overrun.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv)
{
    mc::emu::NodeSettings settings;
    std::string limits = "auto";
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string key = argv[i];
        std::string value = argv[i + 1];
        if (key == "--dir") {
            settings.layout.dir = value;
        } else if (key == "--node") {
            settings.name = value;
        } else if (key == "--sandbox") {
            settings.mode = value == "bubblewrap" ? mc::emu::SandboxMode::Bubblewrap
                                                  : mc::emu::SandboxMode::Plain;
        } else if (key == "--limits") {
            limits = value;
        } else if (key == "--time-scale") {
            settings.timeScale = std::max(1, std::atoi(value.c_str()));
        } else if (key == "--kill-wait") {
            settings.killWait = std::atoi(value.c_str());
        }
    }
    if (settings.layout.dir.empty() || settings.name.empty()) {
        std::fprintf(stderr,
            "usage: minicluster-noded --dir CLUSTER_DIR --node NAME "
            "[--sandbox bubblewrap|plain] [--kill-wait SECONDS]\n"
            "       [--limits auto|cgroup-v2|cgroup-v1|rlimit] [--time-scale N]\n");
        return 2;
    }
    mc::emu::LimitProbe probe = mc::emu::probeLimits(limits);
    if (!probe.ok) {
        std::fprintf(
            stderr, "minicluster-noded: --limits %s: %s\n", limits.c_str(), probe.detail.c_str());
        return 2;
    }
    {
        // The site's policy for a job over its memory (memory_overrun.h).
        const mc::emu::MemoryOverrunPolicy overrun = mc::emu::parseMemoryOverrun(
            mc::base::fileText(settings.layout.dir + "/etc/minicluster.conf"));
        for (const auto &problem : overrun.problems) {
            std::fprintf(
                stderr, "minicluster-noded %s: etc/%s\n", settings.name.c_str(), problem.c_str());
        }
        settings.rebootOnMemoryOverrun = overrun.rebootNode;
        settings.rebootSeconds = overrun.rebootSeconds;
    }
    settings.limits = probe.mode;
    settings.limitsDetail = probe.detail;
    settings.binDir = mc::emu::executableDir();
    std::signal(SIGPIPE, SIG_IGN);
    mc::proto::EventLoop loop;
    mc::emu::NodeDaemon daemon(loop, settings);
    daemon.start();
    loop.run();
    return 0;
}
