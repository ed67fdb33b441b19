#include "mc/cmd/sbatch.h"
#include "mc/storage/usage_report.h"

#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    mc::cmd::Context ctx = mc::cmd::systemContext(argc, argv);
    // Over-quota warnings come from the storage node's last snapshot, beside slurm.conf.
    ctx.quotaWarnings = [&ctx]() -> std::vector<std::string> {
        std::string etc;
        if (const char *conf = std::getenv("SLURM_CONF"); conf && *conf) {
            etc = conf;
            etc = etc.substr(0, etc.rfind('/'));
        } else if (const char *dir = std::getenv("MINICLUSTER_DIR"); dir && *dir) {
            etc = std::string(dir) + "/etc";
        } else {
            return {};
        }
        return mc::storage::quotaWarnings(etc, ctx.user.name);
    };
    return mc::cmd::Sbatch(ctx).run();
}
