// minicluster-stored --dir CLUSTER_DIR [--sandbox bubblewrap|plain]: the storage node.
// minicluster-stored --dir CLUSTER_DIR --once [--now EPOCH]: one pass without a controller
// (the cluster clock is --now, else the wall clock), for benchmarks and repairs; prints what
// it did.
#include "mc/storage/storage_daemon.h"
#include "mc/storage/storage_pass.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace {

int once(const mc::emu::ClusterLayout &layout, bool sandboxPaths, std::int64_t now)
{
    using namespace mc::storage;
    StorageView host = hostView(layout.dir);
    StorageView seen = sandboxPaths ? viewFromEtc(mc::emu::kSandboxEtc) : host;
    ClockJournal clock = ClockJournal::load(layout.state() + "/storage-clock");
    auto start = std::chrono::steady_clock::now();
    PassResult r = runStoragePass(readStorageConf(layout.etc()), host, seen,
        readStorageUsers(layout.etc()), clock, now, layout.log() + "/purge.log");
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count();
    std::printf("pass at %s: %d users, %lld scratch files scanned, %d listed, %d purged "
                "(%lld bytes), %.1f ms\n",
        isoTime(now).c_str(), r.usersMeasured, static_cast<long long>(r.filesScanned), r.listed,
        r.purged, static_cast<long long>(r.purgedBytes), ms);
    for (const auto &e : r.errors) {
        std::fprintf(stderr, "minicluster-stored: %s\n", e.c_str());
    }
    return r.errors.empty() ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    mc::emu::ClusterLayout layout;
    bool sandboxPaths = false;
    bool runOnce = false;
    std::int64_t now = static_cast<std::int64_t>(std::time(nullptr));
    for (int i = 1; i < argc; ++i) {
        std::string key = argv[i];
        std::string value = i + 1 < argc ? argv[i + 1] : "";
        if (key == "--once") {
            runOnce = true;
            continue;
        }
        if (key == "--dir") {
            layout.dir = value;
        } else if (key == "--sandbox") {
            sandboxPaths = value == "bubblewrap";
        } else if (key == "--now") {
            now = std::atoll(value.c_str());
        }
        ++i;
    }
    if (layout.dir.empty()) {
        std::fprintf(stderr,
            "usage: minicluster-stored --dir CLUSTER_DIR [--sandbox bubblewrap|plain]\n"
            "       minicluster-stored --dir CLUSTER_DIR --once [--now EPOCH]\n");
        return 2;
    }
    if (runOnce) {
        return once(layout, sandboxPaths, now);
    }
    std::signal(SIGPIPE, SIG_IGN);
    mc::proto::EventLoop loop;
    mc::storage::StorageDaemon daemon(loop, layout, sandboxPaths);
    daemon.start();
    loop.run();
    return 0;
}
