// minicluster-logind --dir CLUSTER_DIR [--limits MODE]: the login node's watchdog (see
// mc/emu/login_watcher.h). Started by `minicluster up`; reads the LoginPolicy= line of
// etc/minicluster.conf and records what it enforces in run/login-policy for `minicluster status`.
#include "mc/base/file.h"
#include "mc/emu/login_watcher.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

int main(int argc, char **argv)
{
    mc::emu::LoginWatcherSettings settings;
    std::string limits = "rlimit";
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string key = argv[i];
        std::string value = argv[i + 1];
        if (key == "--dir") {
            settings.layout.dir = value;
        } else if (key == "--limits") {
            limits = value;
        }
    }
    if (settings.layout.dir.empty()) {
        std::fprintf(stderr, "usage: minicluster-logind --dir CLUSTER_DIR [--limits MODE]\n");
        return 2;
    }
    settings.limits = mc::emu::parseLimitMode(limits).value_or(mc::emu::LimitMode::Rlimit);
    settings.policy = mc::emu::parseLoginPolicy(
        mc::base::fileText(settings.layout.etc() + "/minicluster.conf"));
    for (const auto &problem : settings.policy.problems) {
        std::fprintf(stderr, "minicluster-logind: etc/%s\n", problem.c_str());
    }
    std::string how = mc::emu::describeLoginPolicy(settings.policy);
    if (settings.policy.action == mc::emu::LoginAction::Throttle
        && settings.limits == mc::emu::LimitMode::Rlimit) {
        how += " (no cgroup here: killed instead of throttled)";
    }
    std::ofstream(settings.layout.run() + "/login-policy") << how << '\n';
    std::signal(SIGPIPE, SIG_IGN);
    mc::proto::EventLoop loop;
    loop.watchSignals({SIGTERM, SIGINT, SIGHUP}, [&loop](int) { loop.quit(); });
    mc::emu::LoginWatcher watcher(loop, settings);
    watcher.start();
    loop.run();
    return 0;
}
