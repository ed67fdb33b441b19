// minicluster-login-notice: what the login node prints at login, like a real cluster's message
// of the day: quotas the user is over (from the storage node's snapshot) and a pending scratch
// purge notice.
#include "mc/storage/storage_pass.h"
#include "mc/storage/usage_report.h"

#include <cstdio>
#include <cstdlib>
#include <pwd.h>
#include <string>
#include <unistd.h>

int main()
{
    const passwd *pw = ::getpwuid(::getuid());
    std::string user = pw ? pw->pw_name : "";
    if (const char *u = std::getenv("MINICLUSTER_USER"); u && *u) {
        user = u;
    }
    mc::storage::StorageView view = mc::storage::currentView();
    for (const auto &w : mc::storage::quotaWarnings(view.etc, user)) {
        std::fprintf(stderr, "*** %s\n", w.c_str());
    }
    std::string notice = view.userHome(user) + "/" + mc::storage::kNoticeFile;
    if (::access(notice.c_str(), R_OK) == 0) {
        std::fprintf(stderr, "*** Some of your files in scratch are due to be purged: see ~/%s\n",
            mc::storage::kNoticeFile);
    }
    return 0;
}
