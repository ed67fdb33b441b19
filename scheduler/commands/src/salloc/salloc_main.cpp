// salloc: obtains an interactive allocation, runs a command (by default the user's shell) on
// the login node with the allocation's SLURM_* variables, and relinquishes the allocation when
// the command ends. `srun` inside that shell runs steps on the allocated nodes. The controller
// connection stays open (and subscribed) while the command runs: the allocation lives as long
// as salloc does, and salloc hears when it is revoked (scancel, time limit).

#include "../shared/text.h"
#include "../srun/srun_common.h"
#include "mc/base/file.h"
#include "mc/sched/slurm_conf.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using mc::proto::Json;
namespace ia = mc::cmd::interactive;

constexpr const char *kProgram = "salloc";

int g_childPipe[2] = {-1, -1};

void onChild(int)
{
    char byte = 1;
    [[maybe_unused]] auto n = ::write(g_childPipe[1], &byte, 1);
}

// slurm.conf's LaunchParameters=use_interactive_step ($SLURM_CONF, else the cluster's).
bool useInteractiveStep()
{
    std::string path;
    if (const char *conf = std::getenv("SLURM_CONF"); conf && *conf) {
        path = conf;
    } else if (const char *dir = std::getenv("MINICLUSTER_DIR"); dir && *dir) {
        path = std::string(dir) + "/etc/slurm.conf";
    } else {
        return false;
    }
    return mc::sched::parseSlurmConf(mc::base::fileText(path)).config.useInteractiveStep;
}

} // namespace

int main(int argc, char **argv)
{
    std::signal(SIGPIPE, SIG_IGN);
    const mc::cmd::Context ctx = mc::cmd::systemContext(argc, argv);
    ia::CommandLine line = ia::parseSallocCommandLine(ctx);
    if (line.end) {
        return mc::cmd::deliver(ctx, *line.end);
    }
    const ia::Options &opts = line.opts;
    std::vector<std::string> command = line.command;
    int exitCode = 0;
    if (command.empty()) {
        const char *shell = std::getenv("SHELL");
        command = {shell && *shell ? shell : "/bin/bash"};
        if (useInteractiveStep()) {
            // Slurm's default InteractiveStepOptions ("--interactive --preserve-env --pty
            // $SHELL"): the shell is the job's interactive step (N.interactive) on its first
            // node, and keeps the allocation's task and node counts, which mpirun reads there.
            command = {"srun", "--interactive", "--preserve-env", "--pty", command.front()};
        }
    }

    // While waiting, Ctrl-C withdraws the request (the link's end releases it).
    ia::Link link;
    std::int64_t jobId = 0;
    auto job = ia::allocate(kProgram, link, opts, "interactive", true, jobId, exitCode);
    if (!job) {
        return exitCode;
    }
    const std::string id = std::to_string(jobId);
    std::vector<std::string> env = ia::processEnvironment();
    ia::setAllocationEnv(env, job->job, job->clusterName, opts);
    ia::setGpuOptionEnv(env, opts);

    ::pipe2(g_childPipe, O_CLOEXEC | O_NONBLOCK);
    struct sigaction action { };
    action.sa_handler = onChild;
    ::sigemptyset(&action.sa_mask);
    action.sa_flags = SA_NOCLDSTOP;
    ::sigaction(SIGCHLD, &action, nullptr);
    // The command owns the terminal's signals; salloc waits, as a shell does for system().
    std::signal(SIGINT, SIG_IGN);
    std::signal(SIGQUIT, SIG_IGN);

    pid_t child = ::fork();
    if (child == 0) {
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGQUIT, SIG_DFL);
        std::signal(SIGCHLD, SIG_DFL);
        std::signal(SIGPIPE, SIG_DFL);
        if (opts.chdir && ::chdir(opts.chdir->c_str()) != 0) {
            std::perror(opts.chdir->c_str());
        }
        std::vector<char *> argvList;
        for (auto &a : command) {
            argvList.push_back(a.data());
        }
        argvList.push_back(nullptr);
        std::vector<char *> envp;
        for (auto &e : env) {
            envp.push_back(e.data());
        }
        envp.push_back(nullptr);
        ::execvpe(argvList[0], argvList.data(), envp.data());
        ia::sayError(kProgram, "Unable to exec command \"" + command.front() + "\"");
        ::_exit(127);
    }
    if (child < 0) {
        ia::sayError(kProgram, "fork: failed");
        ia::release(link, jobId, 1, 0);
        return 1;
    }

    int status = 0;
    bool revoked = false;
    bool linkOpen = true;
    while (true) {
        pid_t done = ::waitpid(child, &status, WNOHANG);
        if (done == child) {
            break;
        }
        pollfd fds[2] = {{g_childPipe[0], POLLIN, 0}, {linkOpen ? link.fd() : -1, POLLIN, 0}};
        if (!link.hasBuffered() && ::poll(fds, 2, -1) < 0 && errno != EINTR) {
            break;
        }
        char drain[64];
        while (::read(g_childPipe[0], drain, sizeof drain) > 0) { }
        if (link.hasBuffered() || (fds[1].revents & (POLLIN | POLLHUP))) {
            auto message = link.next(0);
            if (!message && !link.hasBuffered()) {
                linkOpen = false; // the controller went away; the command goes on
            }
            const auto changed = message ? ia::jobEvent(*message, jobId) : std::nullopt;
            if (changed && changed->state != "RUNNING" && !revoked) {
                // scancel or the time limit: the command goes, as salloc's does in Slurm.
                revoked = true;
                ia::say(kProgram, "Job allocation " + id + " has been revoked.");
                ::kill(child, SIGHUP);
                ::kill(child, SIGTERM);
            }
        }
    }
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (!revoked) {
        // Slurm 22.05's salloc adds "Job allocation N has been revoked." only when slurmctld's
        // job-complete message wins a race with its own release; run live on the reference
        // cluster, most runs end on this line alone.
        ia::say(kProgram, "Relinquishing job allocation " + id);
        ia::release(link, jobId, code, sig);
    }
    return sig != 0 ? 128 + sig : code;
}
