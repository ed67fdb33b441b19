#include "mc/emu/step_server.h"

#include "mc/base/env.h"
#include "mc/base/file.h"
#include "mc/emu/cpu_slots.h"
#include "mc/emu/process.h"
#include "mc/proto/identity.h"
#include "mc/proto/socket.h"
#include "mc/record/step.h"
#include "mc/record/step_end.h"
#include "mc/sched/site_conf.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mc::emu {

using proto::Json;

namespace {

constexpr int kMaxFds = 253; // SCM_MAX_FD

void closeAll(std::vector<int> &fds)
{
    for (int fd : fds) {
        ::close(fd);
    }
    fds.clear();
}

void sendLine(int fd, const Json &message)
{
    proto::writeAll(fd, message.dump() + "\n");
}

Json errorEvent(const std::string &text)
{
    Json e = Json::object();
    e.set("event", "error");
    e.set("error", text);
    return e;
}

// The child side of one task: session, terminal, stdio, limits, exec. Never returns.
[[noreturn]] void execTask(const std::vector<std::string> &argv,
    const std::vector<std::string> &env, int in, int out, int err, bool pty,
    const std::vector<std::string> &joinFiles, const std::vector<std::pair<int, long long>> &rl,
    const std::string &chdir, bool taskPath, int cpus, int firstCpu)
{
    proto::resetSignalsForChild();
    ::setsid();
    int fds[3] = {in, out, err};
    for (int i = 0; i < 3; ++i) {
        // Move the sources above 2 first so that dup2 never overwrites one still needed.
        fds[i] = ::fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
    }
    for (int i = 0; i < 3; ++i) {
        ::dup2(fds[i], i);
    }
    if (pty) {
        ::ioctl(0, TIOCSCTTY, 0);
    }
    for (const auto &file : joinFiles) {
        int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0 || ::write(fd, "0", 1) != 1) {
            std::string msg
                = "slurmstepd: error: cannot join " + file + ": " + std::strerror(errno) + "\n";
            [[maybe_unused]] auto n = ::write(2, msg.data(), msg.size());
            ::_exit(126);
        }
        ::close(fd);
    }
    for (const auto &[resource, value] : rl) {
        rlimit limit{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
        ::setrlimit(resource, &limit);
    }
    bindToCpus(cpus, firstCpu);
    if (!chdir.empty() && ::chdir(chdir.c_str()) != 0) {
        [[maybe_unused]] int ignored = ::chdir("/");
    }
    std::vector<char *> args;
    for (const auto &a : argv) {
        args.push_back(const_cast<char *>(a.c_str()));
    }
    args.push_back(nullptr);
    std::vector<std::string> own = env;
    if (taskPath) {
        // Outside bubblewrap the task is this process: its pid is SLURM_TASK_PID, as slurmstepd
        // sets it (a bwrap per task would only know bwrap's own).
        base::setEnv(own, "SLURM_TASK_PID", std::to_string(::getpid()));
    }
    std::vector<char *> envp;
    for (const auto &e : own) {
        envp.push_back(const_cast<char *>(e.c_str()));
    }
    envp.push_back(nullptr);
    // The command is looked up on the task's PATH (the plain fallback's hostname shim), not
    // the daemon's, as execvpe() would.
    std::string program = argv[0];
    if (taskPath && program.find('/') == std::string::npos) {
        std::string path;
        for (const auto &e : own) {
            if (e.rfind("PATH=", 0) == 0) {
                path = e.substr(5);
            }
        }
        std::size_t from = 0;
        while (from <= path.size()) {
            std::size_t to = path.find(':', from);
            std::string dir = path.substr(from, to == std::string::npos ? to : to - from);
            std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + argv[0];
            if (::access(candidate.c_str(), X_OK) == 0) {
                program = candidate;
                break;
            }
            if (to == std::string::npos) {
                break;
            }
            from = to + 1;
        }
    }
    if (program.find('/') == std::string::npos) {
        ::execvpe(args[0], args.data(), envp.data()); // bubblewrap, on the daemon's PATH
    } else {
        ::execve(program.c_str(), args.data(), envp.data());
    }
    std::string msg
        = "slurmstepd: error: execve(): " + argv[0] + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] auto n = ::write(2, msg.data(), msg.size());
    ::_exit(errno == ENOENT ? 2 : 126);
}

} // namespace

std::string stepSocketPath(const std::string &runDir, const std::string &node)
{
    return runDir + "/step-" + node + ".sock";
}

StepServer::StepServer(proto::EventLoop &loop, StepServerSettings settings)
    : m_loop(loop)
    , m_settings(std::move(settings))
{ }

StepServer::~StepServer()
{
    killAll();
    if (m_listenFd >= 0) {
        m_loop.unwatch(m_listenFd);
        ::close(m_listenFd);
        ::unlink(m_path.c_str());
    }
    for (auto &[key, step] : m_steps) {
        if (step->limiter) {
            step->limiter->remove();
        }
    }
    for (auto &[id, group] : m_jobGroups) {
        group.limiter->remove();
    }
}

bool StepServer::listen(std::string &error)
{
    m_path = stepSocketPath(m_settings.layout.run(), m_settings.node);
    // srun connects from jobs and login shells: every local uid may, and is who the kernel says.
    m_listenFd = proto::listenUnix(m_path, error, 0666);
    if (m_listenFd < 0) {
        return false;
    }
    m_loop.watch(m_listenFd, POLLIN, [this](short) { accept(); });
    return true;
}

void StepServer::accept()
{
    while (true) {
        int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            return;
        }
        // srun sends its request at once; it is read as soon as it is there.
        m_loop.watch(fd, POLLIN, [this, fd](short) {
            m_loop.unwatch(fd);
            receiveRequest(fd);
        });
    }
}

void StepServer::receiveRequest(int fd)
{
    // The request line, with the descriptors on its first bytes (SCM_RIGHTS).
    timeval timeout{2, 0};
    int flags = ::fcntl(fd, F_GETFL);
    ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    std::string line;
    std::vector<int> fds;
    char buffer[65536];
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
    while (line.find('\n') == std::string::npos) {
        iovec iov{buffer, sizeof buffer};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        ssize_t n = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
        if (n <= 0) {
            closeAll(fds);
            ::close(fd);
            return;
        }
        for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                const auto *data = reinterpret_cast<const int *>(CMSG_DATA(c));
                fds.insert(fds.end(), data, data + count);
            }
        }
        line.append(buffer, static_cast<std::size_t>(n));
    }
    auto request = Json::parse(line.substr(0, line.find('\n')));
    if (!request || (*request)["op"].toString() != "step_launch") {
        sendLine(fd, errorEvent("malformed step request"));
        closeAll(fds);
        ::close(fd);
        return;
    }
    // An isolated user launches as itself only (mc/proto/identity.h); the owner as anyone.
    auto peer = proto::peerUid(fd);
    auto emulated = peer ? proto::emulatedUid(*peer) : std::nullopt;
    if (!peer
        || (*peer != ::geteuid()
            && (!emulated
                || (*request)["uid"].toInt(-1) != static_cast<std::int64_t>(*emulated)))) {
        sendLine(fd, errorEvent("Access/permission denied"));
        closeAll(fds);
        ::close(fd);
        return;
    }
    ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    launch(fd, *request, fds);
}

void StepServer::launch(int fd, const Json &request, std::vector<int> &fds)
{
    const ClusterLayout &layout = m_settings.layout;
    const std::string &node = m_settings.node;
    auto jobId = static_cast<std::uint32_t>(request["job_id"].toInt());
    int stepId = static_cast<int>(request["step_id"].toInt());
    std::vector<std::int64_t> taskIds;
    for (const auto &t : request["tasks"].items()) {
        taskIds.push_back(t.toInt());
    }
    bool perTask = request["fds_per_task"].toBool();
    std::size_t needed = perTask ? 1 + 2 * taskIds.size() : 3;
    if (taskIds.empty() || fds.size() < needed) {
        sendLine(fd, errorEvent("the step request carries too few descriptors"));
        closeAll(fds);
        ::close(fd);
        return;
    }
    std::string user = request["user"].toString();
    bool bwrap = m_settings.mode == SandboxMode::Bubblewrap;
    bool pty = request["pty"].toBool();

    auto step = std::make_unique<Step>();
    step->jobId = jobId;
    step->stepId = stepId;
    std::string error;
    step->limiter = stepLimiter(*step, request, error);
    if (!step->limiter) {
        sendLine(fd, errorEvent("limits: " + error));
        closeAll(fds);
        ::close(fd);
        return;
    }

    // $SLURM_TMPDIR: the batch job's own, or made for the step of an allocation.
    std::string tmpName = tmpDirName(user, jobId);
    std::string tmpHost = layout.localScratch(node) + "/" + tmpName;
    if (::mkdir(tmpHost.c_str(), 0700) == 0) {
        m_allocationTmp[jobId] = tmpHost; // removed when the allocation ends (signalJob)
        // Isolated users (mc/proto/identity.h): the user's own, as the batch job's is.
        if (bwrap && proto::usersIsolated()
            && ::chown(tmpHost.c_str(),
                   proto::isolatedId(static_cast<std::uint32_t>(request["uid"].toInt())),
                   proto::isolatedId(static_cast<std::uint32_t>(request["gid"].toInt())))
                != 0) {
            std::fprintf(stderr, "minicluster-noded %s: chown %s: %s\n", node.c_str(),
                tmpHost.c_str(), std::strerror(errno));
        }
    }

    std::vector<std::string> env = request["env"].toStringList();
    base::setEnv(env, "SLURMD_NODENAME", node);
    base::setEnv(env, "SLURM_TOPOLOGY_ADDR", node);
    base::setEnv(env, "SLURM_TOPOLOGY_ADDR_PATTERN", "node");
    base::setEnv(env, "SLURM_NODEID", std::to_string(request["node_id"].toInt()));
    std::string gtids; // the step's tasks on this node, by global id
    for (const std::int64_t t : taskIds) {
        gtids += (gtids.empty() ? "" : ",") + std::to_string(t);
    }
    base::setEnv(env, "SLURM_GTIDS", gtids);
    base::setEnv(env, "SLURM_TMPDIR", bwrap ? "/localscratch/" + tmpName : tmpHost);
    if (!bwrap) {
        // The plain fallback: `hostname` answers the node's name through a shim.
        std::string path = base::getEnv(env, "PATH").value_or("");
        std::string shim = layout.run() + "/shim";
        if (path.rfind(shim, 0) != 0) {
            base::setEnv(env, "PATH", shim + ":" + path);
        }
        base::setEnv(env, "MINICLUSTER_HOSTNAME", node);
    }
    if (!base::getEnv(env, "MINICLUSTER_GPU_TYPE")
             .value_or("")
             .empty()) { // a GPU job: its emulated nvidia-smi
        const std::string gpuBin = bwrap
            ? std::string(kSandboxSoftware) + "/gpu/bin"
            : m_settings.binDir + "/../share/minicluster/software/gpu/bin";
        base::setEnv(env, "PATH", gpuBin + ":" + base::getEnv(env, "PATH").value_or(""));
    }
    std::string cwd = request["cwd"].toString();
    SandboxSpec sandbox;
    sandbox.mode = m_settings.mode;
    sandbox.hostname = node;
    sandbox.uid = static_cast<std::uint32_t>(request["uid"].toInt());
    sandbox.gid = static_cast<std::uint32_t>(request["gid"].toInt());
    sandbox.mounts = nodeMounts(layout, node, m_settings.binDir);
    // salloc's shell is a step on the node (use_interactive_step): `minicluster lesson` typed
    // there finds the lessons and the user's progress as on login1 (lesson_shell.h). The user
    // is the one of the checked uid, not the request's word.
    for (const auto &u :
        sched::parseSiteUsers(base::fileText(layout.etc() + "/minicluster.conf")).users) {
        if (u.uid == sandbox.uid) {
            for (auto &m : lessonMounts(layout, u.name, m_settings.binDir)) {
                sandbox.mounts.push_back(std::move(m));
            }
        }
    }
    sandbox.passwdFile = layout.etc() + "/passwd";
    sandbox.groupFile = layout.etc() + "/group";
    sandbox.hostsFile = layout.etc() + "/hosts";
    sandbox.nodePidNamespace = m_settings.nodePidNamespace;
    sandbox.workDir = cwd;
    std::vector<std::string> join = step->limiter->joinFiles();
    auto rlimits = step->limiter->rlimits();
    // The tasks run on the job's CPUs on this node, as its batch script does (node_daemon.cpp).
    const int cpus = static_cast<int>(request["cpus"].toInt(0));
    const int firstCpu
        = m_settings.cpusFor ? m_settings.cpusFor(jobId, cpus) : static_cast<int>(jobId);
    // The node's sandbox of this user forks the tasks (no bwrap per step); the cgroup.procs
    // files travel as descriptors opened here.
    SandboxHost *host = bwrap && m_settings.sandboxFor ? m_settings.sandboxFor(sandbox) : nullptr;
    std::vector<int> joinFds;
    for (std::size_t j = 0; host && j < join.size(); ++j) {
        int jfd = ::open(join[j].c_str(), O_WRONLY | O_CLOEXEC);
        if (jfd < 0) {
            error = join[j] + ": " + std::strerror(errno);
            host = nullptr; // a bwrap per task then, which joins by path
            closeAll(joinFds);
            break;
        }
        joinFds.push_back(jfd);
    }
    step->sandbox = host;
    std::vector<std::string> argv = host ? request["argv"].toStringList()
                                         : sandboxArgv(sandbox, request["argv"].toStringList());

    // Variables of each task of its own, over the node's (srun's GPU binding per task).
    const auto taskEnvs = request["task_env"].items();
    for (std::size_t i = 0; i < taskIds.size(); ++i) {
        std::vector<std::string> taskEnv = env;
        for (const auto &entry :
            i < taskEnvs.size() ? taskEnvs[i].toStringList() : std::vector<std::string>{}) {
            if (const auto eq = entry.find('='); eq != std::string::npos && eq > 0) {
                base::setEnv(taskEnv, entry.substr(0, eq), entry.substr(eq + 1));
            }
        }
        base::setEnv(taskEnv, "SLURM_PROCID", std::to_string(taskIds[i]));
        base::setEnv(taskEnv, "SLURM_LOCALID", std::to_string(i));
        // SLURM_TASK_PID is the task's pid, set as it starts (execLaunch, execTask).
        int in = fds[0];
        int out = perTask ? fds[1 + 2 * i] : fds[1];
        int err = perTask ? fds[2 + 2 * i] : fds[2];
        pid_t pid = -1;
        if (host) {
            SandboxLaunch l;
            l.argv = argv;
            l.env = std::move(taskEnv);
            l.chdir = cwd;
            l.rlimits = rlimits;
            l.cpuCount = cpus;
            l.firstCpu = firstCpu;
            l.joinFds = static_cast<int>(joinFds.size());
            l.flags = kLaunchStepTask | (pty && i == 0 ? kLaunchTerminal : 0);
            std::vector<int> taskFds = {in, out, err};
            taskFds.insert(taskFds.end(), joinFds.begin(), joinFds.end());
            pid = host->spawn(l, taskFds, error);
            if (pid < 0) {
                std::fprintf(stderr, "minicluster-noded %s: step %u.%d: %s\n", node.c_str(), jobId,
                    stepId, error.c_str());
            }
        } else {
            pid = ::fork();
            if (pid == 0) {
                execTask(argv, taskEnv, in, out, err, pty && i == 0, join, rlimits,
                    bwrap ? std::string() : cwd, !bwrap, cpus, firstCpu);
            }
        }
        Task task;
        task.globalId = static_cast<int>(taskIds[i]);
        task.pid = pid;
        task.done = pid < 0;
        task.viaBwrap = bwrap && !host;
        step->tasks.push_back(task);
    }
    closeAll(joinFds);
    closeAll(fds);

    std::uint64_t key = m_nextKey++;
    step->conn = std::make_unique<proto::Connection>(m_loop, fd);
    Step *raw = step.get();
    step->conn->onMessage = [this, raw](const Json &message) {
        onStepMessage(*raw, message);
    };
    step->conn->onClosed = [this, raw] {
        // srun went away: its tasks go too.
        if (!raw->finished) {
            signalStep(*raw, SIGKILL);
        }
    };
    m_steps[key] = std::move(step);
    Json started = Json::object();
    started.set("event", "started");
    raw->conn->send(started);
    // Tasks that could not even be forked end at once.
    for (auto &task : raw->tasks) {
        if (task.done) {
            raw->conn->send(record::taskExitToJson({task.globalId, {1, 0}}));
        }
    }
    finishStep(*raw);
    if (!m_sampling) {
        m_sampling = true;
        m_loop.addTimer(std::chrono::milliseconds(250), [this] { sample(); });
    }
}

void StepServer::onStepMessage(Step &step, const Json &message)
{
    if (message["op"].toString() == "signal") {
        signalStep(step, static_cast<int>(message["signal"].toInt(SIGTERM)));
    }
}

void StepServer::signalStep(Step &step, int signal)
{
    // SIGSTOP and SIGCONT (a suspension) end nothing.
    step.signalled = step.signalled || (signal != SIGSTOP && signal != SIGCONT);
    for (const auto &task : step.tasks) {
        if (!task.done && task.pid > 0) {
            step.limiter->signalAll(task.pid, signal);
            ::kill(-task.pid, signal);
        }
    }
}

void StepServer::signalJob(std::uint32_t jobId, int signal)
{
    if (auto tmp = m_allocationTmp.find(jobId); signal == SIGKILL && tmp != m_allocationTmp.end()) {
        // The allocation is over (the controller's end order): its $SLURM_TMPDIR goes.
        std::error_code ignored;
        std::filesystem::remove_all(tmp->second, ignored);
        m_allocationTmp.erase(tmp);
    }
    if (signal == SIGKILL && m_settings.cpusReleased) {
        m_settings.cpusReleased(jobId); // rlimit mode has no job group to release them
    }
    for (auto &[key, step] : m_steps) {
        if (step->jobId == jobId && !step->finished) {
            signalStep(*step, signal);
        }
    }
}

void StepServer::signalOneStep(std::uint32_t jobId, int stepId, int signal, bool cancel,
    std::int64_t when, std::int64_t killWaitS)
{
    for (auto &[key, step] : m_steps) {
        if (step->jobId != jobId || step->stepId != stepId || step->finished) {
            continue;
        }
        if (cancel && step->conn && step->conn->isOpen()) {
            Json e = Json::object();
            e.set("event", "aborted");
            e.set("text", stepCancelNotice(m_settings.node, jobId, stepId, when));
            e.set("kill_wait", killWaitS);
            step->conn->send(e);
        }
        if (cancel) {
            signalStep(*step, signal);
            continue;
        }
        // Another signal reaches each task's own process, not its children (a `sleep` in a
        // task's shell sleeps on), as slurmstepd signals the tasks of a step.
        step->signalled = step->signalled || (signal != SIGSTOP && signal != SIGCONT);
        for (const auto &task : step->tasks) {
            if (task.done || task.pid <= 0) {
                continue;
            }
            if (!task.viaBwrap) {
                ::kill(task.pid, signal);
                continue;
            }
            for (pid_t p : step->limiter->pids(task.pid)) { // bubblewrap's child is the task
                std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
                const std::string text(
                    (std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
                const auto st = parseProcStat(text);
                if (st && st->ppid == task.pid) {
                    ::kill(p, signal);
                }
            }
        }
    }
}

void StepServer::killAll()
{
    for (auto &[key, step] : m_steps) {
        if (!step->finished) {
            signalStep(*step, SIGKILL);
        }
    }
}

bool StepServer::childExited(pid_t pid, int status, const rusage &usage)
{
    for (auto &[key, step] : m_steps) {
        for (auto &task : step->tasks) {
            if (task.pid != pid || task.done) {
                continue;
            }
            task.done = true;
            auto ms = [](const timeval &tv) {
                return static_cast<std::int64_t>(tv.tv_sec) * 1000 + tv.tv_usec / 1000;
            };
            step->finalCpuMs += ms(usage.ru_utime) + ms(usage.ru_stime);
            step->maxRusageKb = std::max<std::int64_t>(step->maxRusageKb, usage.ru_maxrss);
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
            int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            const bool oom = noteOutOfMemory(*step, 0);
            if (task.viaBwrap && code > 128 && (step->signalled || oom)) {
                signal = code - 128; // bwrap passes a signal death on as 128 + signal
                code = 0;
            }
            // oom: srun says "task 0: Out Of Memory".
            const record::TaskExit exit{task.globalId, {code, signal}, oom && signal == SIGKILL};
            if (step->conn && step->conn->isOpen()) {
                step->conn->send(record::taskExitToJson(exit));
            }
            finishStep(*step);
            return true;
        }
    }
    return false;
}

bool StepServer::noteOutOfMemory(Step &step, std::int64_t rssKb)
{
    const int kills = step.limiter ? step.limiter->oomKills() : 0;
    if ((kills == 0 && !step.overMemory) || step.nodeTookIt) {
        return false;
    }
    if (!step.oomSaid) {
        step.oomSaid = true;
        if (m_settings.memoryOverrun && m_settings.memoryOverrun(step.jobId, rssKb)) {
            step.nodeTookIt = true; // the node restarts: Slurm sees no OOM
            return false;
        }
        const std::string id = record::stepIdText(step.stepId); // 12.interactive
        Json e = Json::object();
        e.set("event", "notice"); // slurmstepd's line, on srun's stderr
        e.set("text",
            kills > 0 ? oomKillNotice(m_settings.node, step.jobId, kills, id)
                      : overMemoryNotice(m_settings.node, step.jobId, rssKb,
                          step.limiter->limits().memoryBytes / 1024, id));
        if (step.conn && step.conn->isOpen()) {
            step.conn->send(e);
        }
    }
    return true;
}

void StepServer::finishStep(Step &step)
{
    if (step.finished || !std::all_of(step.tasks.begin(), step.tasks.end(), [](const Task &t) {
            return t.done;
        })) {
        return;
    }
    step.finished = true;
    // What the tasks left behind goes with them, as slurmstepd does.
    for (const auto &task : step.tasks) {
        if (task.pid > 0) {
            step.limiter->signalAll(task.pid, SIGKILL);
        }
    }
    step.usage.finalCpu(step.finalCpuMs);
    record::StepDone done;
    done.usage = {step.usage.totalCpuMs(), std::max(step.usage.maxRssKb(), step.maxRusageKb),
        step.usage.aveRssKb()};
    done.oom = noteOutOfMemory(step, 0);
    if (step.conn && step.conn->isOpen()) {
        step.conn->send(record::stepDoneToJson(done));
    }
    // The step record goes after this round: its connection flushes and closes on its own.
    Step *raw = &step;
    m_loop.post([this, raw] {
        for (auto it = m_steps.begin(); it != m_steps.end(); ++it) {
            if (it->second.get() == raw) {
                auto limiter = std::move(it->second->limiter);
                std::uint32_t jobId = it->second->jobId;
                bool inJobGroup = it->second->inJobGroup;
                SandboxHost *sandbox = it->second->sandbox;
                m_steps.erase(it);
                removeLater(std::move(limiter));
                if (inJobGroup) {
                    releaseJobGroup(jobId);
                }
                if (sandbox && m_settings.sandboxReleased) {
                    m_settings.sandboxReleased(sandbox);
                }
                return;
            }
        }
    });
}

bool StepServer::usesSandbox(const SandboxHost *sandbox) const
{
    for (const auto &[key, step] : m_steps) {
        if (step->sandbox == sandbox && !step->finished) {
            return true;
        }
    }
    return false;
}

std::unique_ptr<JobLimiter> StepServer::stepLimiter(
    Step &step, const Json &request, std::string &error)
{
    const std::string job = m_settings.nodeGroup + "/job_" + std::to_string(step.jobId);
    const std::string stepName = "step_" + record::stepIdText(step.stepId); // step_interactive
    const int cpus = static_cast<int>(request["cpus"].toInt(0));
    JobLimits jobLimit = jobLimits(request["mem_mb"].toInt(0), cpus);
    if (m_settings.cpusFor) { // the job's CPUs, as its batch script's (node_daemon.cpp)
        jobLimit.cpuSet = hostCpus(m_settings.cpusFor(step.jobId, cpus), cpus, usableCpus());
    }
    if (m_settings.limits == LimitMode::Rlimit) {
        // No cgroup to share: the step gets the job's limits, polled on its own.
        auto limiter
            = std::make_unique<JobLimiter>(LimitMode::Rlimit, job + "." + stepName, jobLimit);
        limiter->create(error);
        return limiter;
    }
    if (!(m_settings.hasBatchJob && m_settings.hasBatchJob(step.jobId))) {
        // An allocation (salloc, srun) or a node of a batch job other than its first: the job's
        // cgroup with its limits is made here and kept while steps run.
        JobGroup &group = m_jobGroups[step.jobId];
        if (!group.limiter) {
            group.limiter = std::make_unique<JobLimiter>(m_settings.limits, job, jobLimit);
            if (!group.limiter->create(error)) {
                group.limiter->remove();
                m_jobGroups.erase(step.jobId);
                return nullptr;
            }
        }
        group.steps += 1;
        step.inJobGroup = true;
    }
    JobLimits none; // the job's limits bound the step from its parent
    none.pidsMax = 0;
    auto limiter = std::make_unique<JobLimiter>(m_settings.limits, job + "/" + stepName, none);
    if (!limiter->create(error)) {
        limiter->remove();
        if (step.inJobGroup) {
            step.inJobGroup = false;
            releaseJobGroup(step.jobId);
        }
        return nullptr;
    }
    return limiter;
}

void StepServer::releaseJobGroup(std::uint32_t jobId)
{
    auto it = m_jobGroups.find(jobId);
    if (it == m_jobGroups.end() || --it->second.steps > 0) {
        return;
    }
    auto limiter = std::move(it->second.limiter);
    m_jobGroups.erase(it);
    if (m_settings.cpusReleased) {
        m_settings.cpusReleased(jobId);
    }
    removeLater(std::move(limiter)); // retried while its steps' cgroups empty
}

void StepServer::removeLater(std::unique_ptr<JobLimiter> limiter)
{
    if (limiter && !limiter->remove()) {
        m_retired.push_back(std::move(limiter));
        if (!m_sampling) {
            m_sampling = true;
            m_loop.addTimer(std::chrono::milliseconds(250), [this] { sample(); });
        }
    }
}

void StepServer::sample()
{
    std::erase_if(m_retired, [](const auto &limiter) { return limiter->remove(); });
    if (m_steps.empty() && m_retired.empty()) {
        m_sampling = false;
        return;
    }
    std::vector<ProcStat> table;
    if (m_settings.limits == LimitMode::Rlimit && !m_steps.empty()) {
        table = JobLimiter::scanProcesses();
    }
    for (auto &[key, step] : m_steps) {
        if (step->finished) {
            continue;
        }
        JobLimiter::Sample total;
        for (const auto &task : step->tasks) {
            if (task.done) {
                continue;
            }
            JobLimiter::Sample s
                = step->limiter->sample(task.pid, table.empty() ? nullptr : &table);
            total.rssKb += s.rssKb;
            total.cpuMs += s.cpuMs;
            if (m_settings.limits != LimitMode::Rlimit) {
                total = s; // the cgroup holds every task: one sample is the step's
                break;
            }
        }
        step->usage.add(total.rssKb, total.cpuMs);
        if (step->usage.samples() % 4 == 0 && step->conn && step->conn->isOpen()) {
            // About once a second, for sstat (srun passes it on to the controller).
            const record::Usage usage{
                step->usage.totalCpuMs(), step->usage.maxRssKb(), step->usage.aveRssKb()};
            Json e = Json::object();
            e.set("event", "usage");
            e.set("usage", record::usageToJson(usage));
            step->conn->send(e);
        }
        const JobLimits &limits = step->limiter->limits();
        if (step->limiter->mode() == LimitMode::Rlimit && limits.memoryBytes > 0
            && total.rssKb * 1024 > limits.memoryBytes && !step->overMemory) {
            step->overMemory = true;
            noteOutOfMemory(*step, total.rssKb);
            signalStep(*step, SIGKILL); // no cgroup: the daemon is the OOM killer
        }
    }
    m_loop.addTimer(std::chrono::milliseconds(250), [this] { sample(); });
}

} // namespace mc::emu
