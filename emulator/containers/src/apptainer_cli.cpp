#include "mc/containers/apptainer_cli.h"

#include "mc/containers/apptainer_options.h"
#include "mc/containers/container_launch.h"
#include "mc/containers/container_root.h"
#include "mc/containers/host_process.h"
#include "mc/containers/image_builder.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <grp.h>
#include <pwd.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace mc::containers {

namespace {

constexpr const char *kVersion = "1.2.5";

void say(const ApptainerCall &call, const std::string &level, const std::string &text)
{
    if (call.quiet && level != "FATAL") {
        return;
    }
    std::string prefix = level + ":";
    prefix.resize(std::max<std::size_t>(prefix.size() + 1, 9), ' ');
    std::fprintf(stderr, "%s%s\n", prefix.c_str(), text.c_str());
}

void printHelp(const std::string &program)
{
    std::printf("Linux container platform optimized for High Performance Computing (HPC) and\n"
                "Enterprise Performance Computing (EPC)\n\n"
                "Usage:\n  %s [global options...]\n\n"
                "Available Commands (in minicluster):\n"
                "  build       Build an Apptainer image (offline: Bootstrap: localimage)\n"
                "  cache       Manage the local cache (list, clean)\n"
                "  exec        Run a command within a container\n"
                "  inspect     Show metadata for an image\n"
                "  run         Run the user-defined default command within a container\n"
                "  shell       Run a shell within a container\n"
                "  test        Run the user-defined tests within a container\n"
                "  version     Show the version for Apptainer\n\n"
                "Action options: -B/--bind src[:dest[:ro]], --env KEY=VAL, --env-file FILE,\n"
                "  -e/--cleanenv, -c/--contain, -C/--containall, -H/--home src[:dest],\n"
                "  --no-home, --pwd DIR, --nv, --sharens, --writable-tmpfs (the root is writable\n"
                "  in memory, the image's own folders are not)\n\n"
                "Images shipped with minicluster: /opt/minicluster/software/images\n"
                "Run '%s --help' for more detailed usage information.\n",
        program.c_str(), program.c_str());
}

std::string cacheDir(const std::string &home)
{
    for (const char *var : {"APPTAINER_CACHEDIR", "SINGULARITY_CACHEDIR"}) {
        if (const char *v = std::getenv(var); v && *v) {
            return v;
        }
    }
    return home + "/.apptainer/cache";
}

std::string findOnPath(const std::string &name)
{
    const char *path = std::getenv("PATH");
    std::string rest = path ? path : "";
    std::size_t start = 0;
    while (start <= rest.size()) {
        std::size_t colon = rest.find(':', start);
        std::string dir = rest.substr(start, colon == std::string::npos ? colon : colon - start);
        start = colon == std::string::npos ? rest.size() + 1 : colon + 1;
        const std::string file = (dir.empty() ? "." : dir) + "/" + name;
        struct stat st { };
        if (::stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0
            && ::access(file.c_str(), X_OK) == 0) {
            return file;
        }
    }
    return {};
}

HostContext hostContext()
{
    HostContext host;
    for (char **e = environ; *e; ++e) {
        std::string kv = *e;
        const auto eq = kv.find('=');
        if (eq != std::string::npos) {
            host.env[kv.substr(0, eq)] = kv.substr(eq + 1);
        }
    }
    char buf[PATH_MAX];
    host.cwd = ::getcwd(buf, sizeof buf) ? buf : "/";
    const passwd *pw = ::getpwuid(::getuid());
    host.home = host.env.count("HOME") ? host.env["HOME"] : (pw ? pw->pw_dir : "/");
    if (pw) {
        host.passwdLine = std::string(pw->pw_name) + ":x:" + std::to_string(pw->pw_uid) + ":"
            + std::to_string(pw->pw_gid) + ":" + pw->pw_gecos + ":" + host.home + ":"
            + pw->pw_shell;
    }
    if (const group *gr = ::getgrgid(::getgid())) {
        host.groupLine = std::string(gr->gr_name) + ":x:" + std::to_string(gr->gr_gid) + ":";
    }
    host.nvidiaSmi = findOnPath("nvidia-smi");
    return host;
}

int inspect(const ApptainerCall &call, const ImageRoot &root)
{
    const std::string meta = root.rootfs + "/.singularity.d";
    if (call.inspectWhat == "labels") {
        auto labels = parseLabelsJson(readText(meta + "/labels.json"));
        std::sort(labels.begin(), labels.end());
        for (const auto &[k, v] : labels) {
            std::printf("%s: %s\n", k.c_str(), v.c_str());
        }
    } else if (call.inspectWhat == "runscript") {
        std::fputs(readText(meta + "/runscript").c_str(), stdout);
    } else if (call.inspectWhat == "deffile") {
        std::fputs(readText(meta + "/Singularity").c_str(), stdout);
    } else if (call.inspectWhat == "helpfile") {
        std::fputs(readText(meta + "/runscript.help").c_str(), stdout);
    } else {
        const std::string env = "/.singularity.d/env/90-environment.sh";
        std::printf("=== %s ===\n%s\n", env.c_str(), readText(root.rootfs + env).c_str());
    }
    return 0;
}

// `cache list` and `cache clean`: the SIF images unpacked in the user's cache.
int cache(const ApptainerCall &call, const std::string &dir)
{
    const std::string rootfs = dir + "/rootfs";
    if (call.image == "clean") {
        if (!call.force) {
            std::printf("This will delete everything in your cache (containers from all sources "
                        "and OCI blobs).\nHint: You can see exactly what would be deleted by "
                        "canceling and using the --dry-run option.\nDo you want to continue? "
                        "[y/N] ");
            std::fflush(stdout);
            char answer[16] = {};
            if (!std::fgets(answer, sizeof answer, stdin)
                || (answer[0] != 'y' && answer[0] != 'Y')) {
                std::printf("\n");
                say(call, "INFO", "Cache cleanup aborted");
                return 0;
            }
        }
        return removeTree(rootfs) ? 0 : 255;
    }
    int images = 0;
    std::uintmax_t bytes = 0;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(rootfs, ec)) {
        if (entry.path().filename().string().find(".tmp") != std::string::npos) {
            continue;
        }
        ++images;
        for (auto it = std::filesystem::recursive_directory_iterator(entry.path(), ec);
             it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
            if (it->is_regular_file(ec) && !it->is_symlink(ec)) {
                bytes += it->file_size(ec);
            }
        }
    }
    const double mib = static_cast<double>(bytes) / 1048576.0;
    std::printf("There are %d container file(s) using %.2f MiB and 0 oci blob file(s) using "
                "0.00 KiB of space\nTotal space used: %.2f MiB\n",
        images, mib, mib);
    return 0;
}

[[noreturn]] void launch(const LaunchPlan &plan)
{
    std::vector<std::string> argv = plan.argv;
    for (std::size_t i = 0; i < plan.dataFiles.size(); ++i) {
        int fds[2];
        if (::pipe(fds) != 0) {
            std::perror("FATAL:   pipe");
            std::exit(255);
        }
        const std::string &data = plan.dataFiles[i];
        std::size_t done = 0;
        while (done < data.size()) {
            ssize_t n = ::write(fds[1], data.data() + done, data.size() - done);
            if (n <= 0) {
                break;
            }
            done += static_cast<std::size_t>(n);
        }
        ::close(fds[1]);
        std::replace(
            argv.begin(), argv.end(), "@FD" + std::to_string(i) + "@", std::to_string(fds[0]));
    }
    std::vector<char *> args;
    for (auto &a : argv) {
        args.push_back(a.data());
    }
    args.push_back(nullptr);
    std::vector<std::string> env = plan.env;
    std::vector<char *> envp;
    for (auto &e : env) {
        envp.push_back(e.data());
    }
    envp.push_back(nullptr);
    ::execvpe("bwrap", args.data(), envp.data());
    std::fprintf(stderr,
        "FATAL:   containers need bubblewrap (Debian package bubblewrap), which cannot run "
        "here: %s\n",
        std::strerror(errno));
    std::exit(255);
}

} // namespace

int apptainerMain(int argc, char **argv)
{
    std::vector<std::string> args(argv, argv + argc);
    ApptainerCall call;
    std::string self = args.empty() ? "apptainer" : args[0];
    self = self.substr(self.rfind('/') + 1);
    if (self == "singularity") {
        call.program = "singularity";
    }
    if (self == "run-singularity") { // a SIF's own #! line: `./image.sif args`
        args.insert(args.begin() + 1, "run");
    }
    std::string envBind;
    for (const char *var : {"APPTAINER_BIND", "SINGULARITY_BIND"}) {
        if (const char *v = std::getenv(var); v && *v) {
            envBind += std::string(envBind.empty() ? "" : ",") + v;
        }
    }
    std::string error;
    if (!parseApptainerArgs(args, envBind, call, error)) {
        std::fputs(error.c_str(), stderr);
        return 255;
    }
    if (call.command == "help") {
        printHelp(call.program);
        return 0;
    }
    if (call.command == "version") {
        std::printf("%s version %s\n", call.program.c_str(), kVersion);
        return 0;
    }
    auto log = [&](const std::string &level, const std::string &text) {
        say(call, level, text);
    };
    if (call.command == "build") {
        return buildImage(call, log);
    }
    HostContext host = hostContext();
    if (call.command == "cache") {
        return cache(call, cacheDir(host.home));
    }
    ImageRoot root;
    if (!resolveImage(call.image, cacheDir(host.home), root, error)) {
        log("FATAL", error);
        return 255;
    }
    if (root.extractedNow) {
        log("INFO", "Converting SIF file to a sandbox in the cache (done once per image)...");
    }
    if (call.command == "inspect") {
        return inspect(call, root);
    }
    LaunchPlan plan;
    if (!planLaunch(call, root, host, plan, error)) {
        log("FATAL", error);
        return 255;
    }
    for (const auto &w : plan.warnings) {
        log("WARNING", w);
    }
    launch(plan);
}

} // namespace mc::containers
