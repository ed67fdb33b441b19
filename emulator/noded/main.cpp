// minicluster-noded --dir CLUSTER_DIR --node NAME [--sandbox bubblewrap|plain] [--kill-wait S]
#include "mc/emu/node_daemon.h"
#include "mc/emu/process.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char **argv)
{
    mc::emu::NodeSettings settings;
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
        } else if (key == "--kill-wait") {
            settings.killWait = std::atoi(value.c_str());
        }
    }
    if (settings.layout.dir.empty() || settings.name.empty()) {
        std::fprintf(stderr,
            "usage: minicluster-noded --dir CLUSTER_DIR --node NAME "
            "[--sandbox bubblewrap|plain] [--kill-wait SECONDS]\n");
        return 2;
    }
    settings.binDir = mc::emu::executableDir();
    std::signal(SIGPIPE, SIG_IGN);
    mc::proto::EventLoop loop;
    mc::emu::NodeDaemon daemon(loop, settings);
    daemon.start();
    loop.run();
    return 0;
}
