#include "mc/storage/cluster_storage.h"

#include "mc/storage/storage_conf.h"

#include <filesystem>

namespace mc::storage {

namespace fs = std::filesystem;

namespace {

void ensureLink(const fs::path &link, const std::string &target)
{
    std::error_code ec;
    auto st = fs::symlink_status(link, ec);
    if (fs::is_symlink(st)) {
        if (fs::read_symlink(link, ec).string() == target) {
            return;
        }
        fs::remove(link, ec);
    } else if (fs::exists(st)) {
        return; // the user's own file or folder
    }
    fs::create_symlink(target, link, ec);
}

} // namespace

void linkUserDirs(
    const emu::ClusterLayout &layout, bool sandboxPaths, const std::vector<StorageUser> &users)
{
    std::string scratch = sandboxPaths ? "/scratch" : layout.scratch();
    std::string project = sandboxPaths ? "/project" : layout.project();
    std::error_code ec;
    for (const auto &u : users) {
        fs::path home = layout.home() + "/" + u.name;
        if (!fs::is_directory(home, ec)) {
            continue;
        }
        ensureLink(home / "scratch", scratch + "/" + u.name);
        if (u.accounts.empty()) {
            continue;
        }
        fs::create_directories(home / "projects", ec);
        for (const auto &a : u.accounts) {
            ensureLink(home / "projects" / a, project + "/" + a);
        }
    }
}

ProfilePaths profilePaths(
    const emu::ClusterLayout &layout, bool sandboxPaths, const std::string &hostBinDir)
{
    long latency = readStorageConf(layout.etc()).sharedFsLatencyUs;
    if (sandboxPaths) {
        return {"/scratch", "/project", emu::kSandboxSoftware, emu::kSandboxEtc, "/home",
            "/datasets", emu::kSandboxBin, latency};
    }
    return {layout.scratch(), layout.project(), hostBinDir + "/../share/minicluster/software",
        layout.etc(), layout.home(), layout.datasets(), hostBinDir, latency};
}

std::string storageProfile(const ProfilePaths &paths, const std::vector<StorageUser> &users)
{
    std::string out = "# Storage (the Alliance's names): $SCRATCH, and $PROJECT for your default "
                      "account.\nexport SCRATCH=\""
        + paths.scratch + "/$USER\"\ncase \"$USER\" in\n";
    for (const auto &u : users) {
        if (!u.accounts.empty()) {
            out += "  " + u.name + ") export PROJECT=\"" + paths.project + "/" + u.accounts.front()
                + "/" + u.name + "\" ;;\n";
        }
    }
    out += "esac\n"
           "# Software: Lmod with the cluster's module tree (not the host's); StdEnv is loaded at\n"
           "# login and sticky, as on the Alliance's clusters. A shell started from a shell that\n"
           "# has it already keeps its loaded modules. Lmod's own pager (less -F: a short list is\n"
           "# printed, a long one paged), not Debian's /bin/more, which pages even two lines.\n"
           ": \"${LMOD_PAGER:=less}\"\nexport LMOD_PAGER\n"
           "if [ -r /usr/share/lmod/lmod/init/bash ] && [ -d \""
        + paths.software
        + "/modulefiles\" ]; then\n"
          "  case \":${MODULEPATH-}:\" in\n"
          "    *\":"
        + paths.software
        + "/modulefiles:\"*) . /usr/share/lmod/lmod/init/bash ;;\n"
          "    *)\n"
          "      unset LOADEDMODULES _LMFILES_ _ModuleTable_ __LMOD_REF_COUNT_MODULEPATH\n"
          "      export MODULEPATH=\""
        + paths.software + "/modulefiles\"\n      [ -d \"" + paths.etc
        + "/modulefiles\" ] && MODULEPATH=\"$MODULEPATH:" + paths.etc
        + "/modulefiles\"\n"
          "      . /usr/share/lmod/lmod/init/bash\n"
          "      module -q load StdEnv 2>/dev/null ;;\n"
          "  esac\n"
          "fi\n"
          "# The storage node's login message: quotas exceeded, scratch files due to be purged.\n"
          "if shopt -q login_shell 2>/dev/null && command -v minicluster-login-notice >/dev/null; "
          "then\n"
          "  minicluster-login-notice\n"
          "fi\n";
    if (paths.sharedFsLatencyUs > 0) {
        out += "# SharedFsLatency= in minicluster.conf: every file operation on the shared\n"
               "# filesystems waits "
            + std::to_string(paths.sharedFsLatencyUs)
            + " us, as on a network filesystem; node-local disk ($SLURM_TMPDIR) does not.\n"
              "export MC_SLOWFS_LATENCY_US="
            + std::to_string(paths.sharedFsLatencyUs) + "\nexport MC_SLOWFS_PATHS=\"" + paths.home
            + ":" + paths.project + ":" + paths.scratch + ":" + paths.datasets
            + "\"\ncase \":${LD_PRELOAD-}:\" in\n  *libmc_slowfs.so*) ;;\n  *) export LD_PRELOAD=\""
            + paths.bin + "/libmc_slowfs.so${LD_PRELOAD:+:$LD_PRELOAD}\" ;;\nesac\n";
    }
    return out;
}

} // namespace mc::storage
