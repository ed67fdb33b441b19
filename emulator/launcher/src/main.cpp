// minicluster: start, stop and enter a teaching cluster. See `minicluster --help`.
#include "mc/emu/process.h"
#include "mc/launch/cluster_control.h"
#include "mc/launch/lesson_shell.h"
#include "mc/launch/scenario.h"
#include "mc/launch/user_namespace.h"
#include "mc/lessons/catalog.h"
#include "mc/lessons/lesson_cli.h"
#include "mc/proto/client.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr const char *kUsage = R"(Usage: minicluster [--dir DIR] [--user NAME] [COMMAND]

A small HPC cluster on this computer, driven by Slurm's own commands.

Commands:
  (none)          open the app (starting the cluster if needed); without a display,
                  open a shell on the login node instead
  up              start the cluster's controller and node daemons
  down            stop them
  status          say whether the cluster runs, in which sandbox mode, and its nodes
  shell [-c CMD]  a login shell on login1 (or run CMD there and return its exit status)
  gui             open the app
  lesson ...      guided exercises checked on the cluster (minicluster lesson --help)
  scenario ...    instructor set-ups: a busy cluster, a fairshare contest, a node
                  failure (minicluster scenario list | load NAME | stop)
  workstation [-c CMD]
                  a shell on your emulated laptop, with its own home, from which
                  `ssh <cluster name>`, scp and rsync reach login1
  clock [--speed N] [--forward DURATION]
                  show the cluster clock, change its speed or jump ahead ("61d")
  simulate ARGS   replay a workload trace through the scheduler, no processes
                  (minicluster simulate --help)

Options:
  --dir DIR       the cluster directory (default $MINICLUSTER_DIR, else
                  $XDG_DATA_HOME/minicluster/default)
  --user NAME     the emulated user (default: the first user of etc/minicluster.conf)
  --preset NAME   with `up` on a new directory: the site preset (default: default)
  --sandbox MODE  auto (default), bubblewrap or plain
  --limits MODE   how job limits are enforced: auto (default: the best this machine
                  allows), cgroup-v2, cgroup-v1 (root) or rlimit (rlimits + /proc polling)
  --time-scale N  with `up`: the cluster clock runs N times faster (demos and tests)
  --no-gui        with no command: open the login shell even when a display exists
  -h, --help      this text
)";

} // namespace

int main(int argc, char **argv)
{
    mc::launch::ClusterOptions options;
    options.binDir = mc::emu::executableDir();
    std::string dir = mc::proto::defaultClusterDir();
    bool dirGiven = false;
    std::string command;
    std::optional<std::string> shellCommand;
    std::vector<std::string> lessonArgs; // the words after `lesson`
    bool noGui = false;
    std::vector<std::string> args(argv + 1, argv + argc);
    // Without root: isolated users in a user namespace of our own, when this machine allows it.
    if (std::find(args.begin(), args.end(), "simulate") == args.end()) {
        mc::launch::enterUserNamespace(argv);
    }
    // `minicluster simulate ARGS`: the discrete-event simulator is its own program.
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "simulate") {
            std::string exe = options.binDir + "/minicluster-simulate";
            std::vector<char *> cargv{exe.data()};
            for (std::size_t j = i + 1; j < args.size(); ++j) {
                cargv.push_back(args[j].data());
            }
            cargv.push_back(nullptr);
            ::execv(exe.c_str(), cargv.data());
            std::perror(exe.c_str());
            return 127;
        }
        if (args[i] == "--dir" || args[i] == "--user" || args[i] == "--preset"
            || args[i] == "--sandbox" || args[i] == "--limits" || args[i] == "--time-scale") {
            ++i; // skip the option's value
        } else if (!args[i].empty() && args[i][0] != '-') {
            break; // another command
        }
    }
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        auto value = [&](const char *name) -> std::string {
            if (i + 1 >= args.size()) {
                std::fprintf(stderr, "minicluster: %s needs a value\n", name);
                std::exit(2);
            }
            return args[++i];
        };
        if ((command == "lesson" || command == "scenario" || command == "clock")
            && (a == "-h" || a == "--help")) {
            lessonArgs.push_back(a); // their own help
        } else if (a == "-h" || a == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (a == "--dir") {
            dir = value("--dir");
            dirGiven = true;
        } else if (a == "--user") {
            options.user = value("--user");
        } else if (a == "--preset") {
            options.preset = value("--preset");
            options.presetGiven = true;
        } else if (a == "--sandbox") {
            options.sandbox = value("--sandbox");
        } else if (a == "--limits") {
            options.limits = value("--limits");
        } else if (a == "--time-scale") {
            options.timeScale = std::max(1, std::atoi(value("--time-scale").c_str()));
        } else if (a == "--no-gui") {
            noGui = true;
        } else if (a == "-c" && (command == "shell" || command == "workstation")) {
            shellCommand = value("-c");
        } else if (command == "sshd-stdio" && !a.empty() && a[0] != '-') {
            lessonArgs.push_back(a); // the user ssh logs in as
        } else if (command == "lesson" || command == "scenario" || command == "clock") {
            lessonArgs.push_back(a);
        } else if (command.empty() && a[0] != '-') {
            command = a;
        } else {
            std::fprintf(stderr, "minicluster: unknown argument '%s'\n%s", a.c_str(), kUsage);
            return 2;
        }
    }
    options.layout.dir = std::filesystem::absolute(dir).lexically_normal().string();
    while (options.layout.dir.size() > 1 && options.layout.dir.back() == '/') {
        options.layout.dir.pop_back();
    }

    // On the cluster's own nodes (the login shell sets MINICLUSTER_SOCKET) there is no cluster
    // to start or enter: say so instead of trying to create one inside the sandbox. The lessons
    // work there, through the shell's view of the cluster.
    if (!dirGiven && command == "lesson" && std::getenv("MINICLUSTER_SOCKET") != nullptr) {
        const char *user = std::getenv("USER");
        options.user = user ? user : "";
        std::string error;
        auto inShell = mc::launch::lessonDirInShell(options.user, error);
        if (!inShell) {
            std::fprintf(stderr, "minicluster lesson: %s\n", error.c_str());
            return 1;
        }
        options.layout.dir = *inShell;
    } else if (!dirGiven && std::getenv("MINICLUSTER_SOCKET") != nullptr) {
        std::fprintf(stderr,
            "minicluster: this shell is already on the cluster's login node.\n"
            "minicluster: start, stop and enter clusters from your own computer's terminal;\n"
            "minicluster: here, use the cluster's commands (sbatch, squeue, sinfo, ...).\n");
        return 2;
    }
    if (command.empty()) {
        bool display = std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY");
        command = display && !noGui ? "gui" : "shell";
    }
    if (command == "up") {
        return mc::launch::up(options, false);
    }
    if (command == "down") {
        return mc::launch::down(options);
    }
    if (command == "status") {
        return mc::launch::status(options);
    }
    if (command == "shell") {
        return mc::launch::shell(options, shellCommand);
    }
    if (command == "gui") {
        return mc::launch::gui(options);
    }
    if (command == "workstation") {
        return mc::launch::workstation(options, shellCommand);
    }
    if (command == "sshd-stdio") {
        // ssh's ProxyCommand (see etc/ssh_config of the workstation), not typed by people.
        return mc::launch::sshdStdio(
            options, lessonArgs.empty() ? mc::launch::emulatedUser(options).name : lessonArgs[0]);
    }
    if (command == "clock") {
        return mc::launch::clock(options, lessonArgs);
    }
    if (command == "scenario") {
        mc::launch::ScenarioContext context;
        context.layout = options.layout;
        context.binDir = options.binDir;
        context.scenariosDir = mc::launch::scenariosDir(options.binDir);
        return mc::launch::runScenarioCommand(context, lessonArgs);
    }
    if (command == "lesson") {
        mc::lessons::LessonContext context;
        context.layout = options.layout;
        auto who = mc::launch::emulatedUser(options);
        context.user = who.name;
        context.account = who.account;
        context.lessonsDir = mc::lessons::lessonsDir(options.binDir);
        context.samplesDir = mc::lessons::sampleJobsDir(options.binDir);
        return mc::lessons::runLessonCommand(context, lessonArgs);
    }
    std::fprintf(stderr, "minicluster: unknown command '%s'\n%s", command.c_str(), kUsage);
    return 2;
}
