// diskusage_report: the Alliance's report of a user's usage and quotas, measured now by
// walking the user's trees (the Alliance's figures lag by up to a day; these do not).
#include "mc/storage/storage_pass.h"
#include "mc/storage/usage_report.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pwd.h>
#include <string>
#include <unistd.h>

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::printf("Usage: diskusage_report\n"
                        "Shows your usage and quotas (space and number of files) on /home, "
                        "/scratch and the /project\nspaces of your groups; also /datasets and, "
                        "inside a job, its $SLURM_TMPDIR when the site\ngives them a quota "
                        "(Filesystem=datasets, Filesystem=localscratch).\n");
            return 0;
        }
        std::fprintf(stderr,
            "diskusage_report: error: minicluster does not support the option %s\n", argv[i]);
        return 1;
    }
    const passwd *pw = ::getpwuid(::getuid());
    std::string user = pw ? pw->pw_name : "";
    if (const char *u = std::getenv("MINICLUSTER_USER"); u && *u) {
        user = u; // the plain fallback runs every emulated user as the laptop's one user
    }
    mc::storage::StorageView view = mc::storage::currentView();
    mc::storage::StorageConf conf = mc::storage::readStorageConf(view.etc);
    std::vector<std::string> accounts;
    for (const auto &u : mc::storage::readStorageUsers(view.etc)) {
        if (u.name == user) {
            accounts = u.accounts;
        }
    }
    auto lines = mc::storage::measureUsage(conf, view, user, accounts);
    // Inside a job: its $SLURM_TMPDIR against the localscratch quota; /datasets when it has one.
    const char *tmpdir = std::getenv("SLURM_TMPDIR");
    const char *job = std::getenv("SLURM_JOB_ID");
    auto shared = mc::storage::measureSharedUsage(conf, view, tmpdir ? tmpdir : "", job ? job : "");
    lines.insert(lines.end(), shared.begin(), shared.end());
    std::fputs(mc::storage::formatReport(lines).c_str(), stdout);
    for (const auto &n : mc::storage::overQuotaNotices(lines)) {
        std::printf("\n%s\n", n.c_str());
    }
    return 0;
}
