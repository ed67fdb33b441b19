#include "mc/storage/storage_view.h"

#include "mc/emu/cluster_layout.h"
#include "mc/proto/client.h"

#include <cstdlib>

namespace mc::storage {

StorageView hostView(const std::string &clusterDir)
{
    emu::ClusterLayout layout{clusterDir};
    return {layout.home(), layout.scratch(), layout.project(), layout.datasets(), layout.etc(),
        layout.run()};
}

StorageView viewFromEtc(const std::string &etcDir)
{
    if (etcDir == emu::kSandboxEtc) {
        return {"/home", "/scratch", "/project", "/datasets", emu::kSandboxEtc, emu::kSandboxRun};
    }
    std::string dir = etcDir;
    while (dir.size() > 1 && dir.back() == '/') {
        dir.pop_back();
    }
    auto slash = dir.rfind('/');
    return hostView(slash == std::string::npos ? std::string(".") : dir.substr(0, slash));
}

StorageView currentView()
{
    if (const char *conf = std::getenv("SLURM_CONF"); conf && *conf) {
        std::string path = conf;
        auto slash = path.rfind('/');
        if (slash != std::string::npos) {
            return viewFromEtc(path.substr(0, slash));
        }
    }
    return hostView(proto::defaultClusterDir());
}

} // namespace mc::storage
