// srun: runs a parallel job step. Inside an allocation ($SLURM_JOB_ID, salloc or a batch job)
// it asks the controller for a numbered step; outside one it first gets an allocation of its
// own, as Slurm does. The tasks run on the step's nodes, started by each node's daemon in the
// node sandbox (emulator/runtime step_server.h): srun hands it its own stdin/stdout/stderr
// (SCM_RIGHTS), or per-task pipes for --label, or a new pseudo-terminal for --pty, which it
// relays to the user's terminal in raw mode, so `srun --pty bash` is a shell on the node.

#include "mc/proto/client.h"
#include "mc/proto/socket.h"
#include "srun_common.h"
#include "text.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

namespace {

using mc::proto::Json;
namespace ia = mc::cmd::interactive;

constexpr const char *kProgram = "srun";
constexpr std::int64_t kJobPending = 2014; // ESLURM_JOB_PENDING

int g_signalPipe[2] = {-1, -1};

void onSignal(int signal)
{
    auto byte = static_cast<unsigned char>(signal);
    [[maybe_unused]] auto n = ::write(g_signalPipe[1], &byte, 1);
}

// One node of the step: its daemon's connection and what it reported.
struct NodeLink {
    std::string name;
    int fd = -1;
    std::string buffer;
    bool done = false;
    Json usage;
};

// Output of one task with --label: its pipe and the partial line not yet printed.
struct LabelPipe {
    int fd = -1;
    int task = 0;
    FILE *to = stdout;
    std::string partial;
};

bool sendWithFds(int socket, const std::string &line, const std::vector<int> &fds)
{
    std::vector<char> control(CMSG_SPACE(sizeof(int) * fds.size()));
    iovec iov{const_cast<char *>(line.data()), line.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.data();
    msg.msg_controllen = control.size();
    cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    ssize_t n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n < 0) {
        return false;
    }
    // The rest of a long request (a large environment) without descriptors.
    return static_cast<std::size_t>(n) == line.size()
        || mc::proto::writeAll(socket, line.substr(static_cast<std::size_t>(n)));
}

// The node daemon's step socket (emulator/runtime step_server.h: <run>/step-<node>.sock),
// beside the controller's socket.
std::string stepSocket(const std::string &node)
{
    std::string socket = mc::proto::controllerSocketPath();
    return socket.substr(0, socket.rfind('/')) + "/step-" + node + ".sock";
}

int digits(int n)
{
    int d = 1;
    while (n >= 10) {
        n /= 10;
        ++d;
    }
    return d;
}

void writeLabelled(LabelPipe &pipe, int width, bool flush)
{
    std::size_t start = 0;
    while (true) {
        auto nl = pipe.partial.find('\n', start);
        if (nl == std::string::npos) {
            break;
        }
        std::fprintf(pipe.to, "%*d: %.*s\n", width, pipe.task, static_cast<int>(nl - start),
            pipe.partial.data() + start);
        start = nl + 1;
    }
    pipe.partial.erase(0, start);
    if (flush && !pipe.partial.empty()) {
        std::fprintf(pipe.to, "%*d: %s\n", width, pipe.task, pipe.partial.c_str());
        pipe.partial.clear();
    }
    std::fflush(pipe.to);
}

class Srun {
public:
    int run(int argc, char **argv);

private:
    int fail(int code);
    bool launch(const Json &step);
    int relay();
    void finish(int exitCode, int exitSignal);
    Json totalUsage() const;
    void reportUsage();

    ia::Options m_opts;
    ia::Link m_link;
    bool m_ownAllocation = false;
    std::int64_t m_jobId = 0;
    std::int64_t m_stepId = 0;
    std::vector<std::string> m_command;
    std::vector<std::string> m_env;
    std::vector<NodeLink> m_nodes;
    std::vector<LabelPipe> m_pipes;
    int m_ntasks = 1;
    int m_master = -1; // --pty: our side of the task's terminal
    bool m_rawTerminal = false;
    termios m_savedTerminal{};
    int m_worstCode = 0;
    int m_worstSignal = 0;
    std::vector<std::string> m_messages; // "cn01: task 0: Exited with exit code 3"
};

int Srun::fail(int code)
{
    if (m_ownAllocation) {
        ia::release(m_link, m_jobId, 1, 0);
    }
    return code;
}

int Srun::run(int argc, char **argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    auto parsed = mc::cmd::parseOptions(
        ia::srunOptions(), args, kProgram, mc::cmd::Ordering::StopAtOperand);
    int exitCode = 0;
    for (const auto &option : parsed.options) {
        if (!ia::apply(kProgram, m_opts, option, exitCode)) {
            return exitCode;
        }
    }
    if (!parsed.ok()) {
        std::fputs(parsed.error.c_str(), stderr);
        std::fputs("Try \"srun --help\" for more information\n", stderr);
        return 1;
    }
    if (parsed.operands.empty()) {
        std::fprintf(stderr, "srun: fatal: No command given to execute.\n");
        return 1;
    }
    m_command = parsed.operands;
    m_env = ia::processEnvironment();
    std::string name = mc::cmd::baseName(m_command.front());

    auto inJob = ia::getEnv(m_env, "SLURM_JOB_ID");
    if (m_opts.jobId || (inJob && !inJob->empty())) {
        m_jobId = m_opts.jobId ? *m_opts.jobId : std::atoll(inJob->c_str());
        std::string error;
        if (!m_link.connect(error)) {
            ia::sayError(kProgram, "Unable to contact slurm controller (connect failure)");
            return 1;
        }
    } else {
        // Its own allocation: the submission, then at once the step. The scheduling pass that
        // follows a submission usually starts the job before the step request arrives, and the
        // step's reply carries the job, so the common case takes two round trips; a job that
        // waits is awaited as salloc does (Slurm's lines), then the step is asked again.
        if (!ia::submitAllocation(kProgram, m_link, m_opts, name, m_jobId, exitCode)) {
            return exitCode;
        }
        m_ownAllocation = true;
    }

    Json request = Json::object();
    request.set("op", "step_create");
    request.set("job_id", m_jobId);
    request.set("user", ia::currentUser().name);
    int ntasks = m_opts.ntasks.value_or(0);
    if (!m_opts.ntasks && m_opts.ntasksPerNode) {
        ntasks = *m_opts.ntasksPerNode * m_opts.nodes.value_or(1);
    }
    request.set("ntasks", ntasks);
    request.set("nodes", m_opts.nodes.value_or(0));
    request.set("cpus_per_task", m_opts.cpusPerTask.value_or(1));
    request.set("name", name);
    request.set("pty", m_opts.pty);
    auto step = m_link.call(request);
    if (m_ownAllocation && step && !(*step)["ok"].toBool()
        && (*step)["errno"].toInt() == kJobPending) {
        auto job = ia::awaitAllocation(kProgram, m_link, m_opts, false, m_jobId, exitCode);
        if (!job) {
            m_ownAllocation = false; // withdrawn or ended by the wait itself
            return exitCode;
        }
        ia::setAllocationEnv(m_env, *job, m_opts);
        step = m_link.call(request);
    } else if (m_ownAllocation && step && (*step)["ok"].toBool()) {
        ia::setAllocationEnv(m_env, (*step)["job"], m_opts);
    }
    if (!step) {
        ia::sayError(kProgram, "Unable to contact slurm controller (connect failure)");
        return fail(1);
    }
    if (!(*step)["ok"].toBool()) {
        ia::sayError(kProgram,
            "Unable to create step for job " + std::to_string(m_jobId) + ": "
                + (*step)["error"].toString());
        return fail(1);
    }
    m_stepId = (*step)["step_id"].toInt();
    if (!launch(*step)) {
        finish(1, 0);
        return 1;
    }
    int code = relay();
    return code;
}

bool Srun::launch(const Json &step)
{
    const Json &job = step["job"];
    const Json &spec = job["spec"];
    std::vector<std::string> nodes = step["nodes"].toStringList();
    std::vector<int> tasksPerNode;
    for (const auto &n : step["tasks_per_node"].items()) {
        tasksPerNode.push_back(static_cast<int>(n.toInt()));
    }
    m_ntasks = static_cast<int>(step["ntasks"].toInt(1));
    const std::string id = std::to_string(m_jobId);
    const std::string stepId = std::to_string(m_stepId);
    std::string jobNodeList = job["node_list"].toString();

    std::vector<std::string> env = m_env;
    ia::setEnv(env, "SLURM_JOB_ID", id);
    ia::setEnv(env, "SLURM_JOBID", id);
    if (!ia::getEnv(env, "SLURM_JOB_NODELIST")) {
        ia::setEnv(env, "SLURM_JOB_NODELIST", jobNodeList);
        ia::setEnv(env, "SLURM_NODELIST", jobNodeList);
    }
    if (!ia::getEnv(env, "SLURM_CLUSTER_NAME")) {
        ia::setEnv(env, "SLURM_CLUSTER_NAME", job["cluster_name"].toString());
    }
    ia::setEnv(env, "SLURM_STEP_ID", stepId);
    ia::setEnv(env, "SLURM_STEPID", stepId);
    ia::setEnv(env, "SLURM_STEP_NODELIST", step["node_list"].toString());
    ia::setEnv(env, "SLURM_STEP_NUM_NODES", std::to_string(nodes.size()));
    ia::setEnv(env, "SLURM_STEP_NUM_TASKS", std::to_string(m_ntasks));
    ia::setEnv(env, "SLURM_STEP_TASKS_PER_NODE", ia::compressCounts(tasksPerNode));
    ia::setEnv(env, "SLURM_NTASKS", std::to_string(m_ntasks));
    ia::setEnv(env, "SLURM_NPROCS", std::to_string(m_ntasks));
    ia::setEnv(env, "SLURM_NNODES", std::to_string(nodes.size()));
    ia::setEnv(env, "SLURM_TASKS_PER_NODE", ia::compressCounts(tasksPerNode));
    ia::setEnv(env, "SLURM_CPUS_ON_NODE", std::to_string(job["cpus_on_node"].toInt(1)));
    ia::setEnv(env, "SLURM_DISTRIBUTION", "block");
    ia::setEnv(env, "SLURM_SRUN_COMM_HOST", "127.0.0.1");
    ia::setEnv(env, "SLURM_LAUNCH_NODE_IPADDR", "127.0.0.1");
    ia::setEnv(env, "SLURM_UMASK", "0022");
    if (m_opts.cpusPerTask) {
        ia::setEnv(env, "SLURM_CPUS_PER_TASK", std::to_string(*m_opts.cpusPerTask));
    }
    if (m_opts.verbose > 0) {
        ia::say(kProgram,
            "jobid " + id + ": nodes(" + std::to_string(nodes.size()) + "):`"
                + step["node_list"].toString()
                + "', cpu counts: " + std::to_string(job["cpus_on_node"].toInt(1)) + "(x"
                + std::to_string(nodes.size()) + ")");
    }

    std::string cwd
        = m_opts.chdir ? mc::cmd::absolutePath(*m_opts.chdir, ia::currentDir()) : ia::currentDir();
    int slave = -1;
    if (m_opts.pty) {
        m_master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (m_master < 0 || ::grantpt(m_master) != 0 || ::unlockpt(m_master) != 0) {
            ia::sayError(kProgram, std::string("--pty: ") + std::strerror(errno));
            return false;
        }
        slave = ::open(::ptsname(m_master), O_RDWR | O_NOCTTY | O_CLOEXEC);
        winsize size{};
        if (::isatty(0) && ::ioctl(0, TIOCGWINSZ, &size) == 0) {
            ::ioctl(m_master, TIOCSWINSZ, &size);
        }
        if (::isatty(0) && ::tcgetattr(0, &m_savedTerminal) == 0) {
            termios raw = m_savedTerminal;
            ::cfmakeraw(&raw);
            ::tcsetattr(0, TCSANOW, &raw);
            m_rawTerminal = true;
        }
    }
    auto me = ia::currentUser();
    std::int64_t memMb = spec["mem_per_node"].isNumber() ? spec["mem_per_node"].toInt()
                                                         : job["mem_per_node_resolved"].toInt();
    int firstTask = 0;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        NodeLink link;
        link.name = nodes[k];
        std::string error;
        link.fd = mc::proto::connectUnix(stepSocket(nodes[k]), error);
        if (link.fd < 0) {
            ia::sayError(kProgram,
                "Task launch for StepId=" + id + "." + stepId + " failed on node " + nodes[k] + ": "
                    + error);
            return false;
        }
        int count = k < tasksPerNode.size() ? tasksPerNode[k] : 1;
        Json tasks = Json::array();
        std::vector<int> fds;
        if (m_opts.pty) {
            fds = {slave, slave, slave};
        } else if (m_opts.label) {
            fds.push_back(0);
        } else {
            fds = {0, 1, 2};
        }
        std::vector<int> closeAfter;
        for (int t = firstTask; t < firstTask + count; ++t) {
            tasks.push(t);
            if (m_opts.label && !m_opts.pty) {
                for (FILE *to : {stdout, stderr}) {
                    int p[2];
                    if (::pipe2(p, O_CLOEXEC) != 0) {
                        ia::sayError(kProgram, std::string("pipe: ") + std::strerror(errno));
                        return false;
                    }
                    m_pipes.push_back(LabelPipe{p[0], t, to, {}});
                    fds.push_back(p[1]);
                    closeAfter.push_back(p[1]);
                }
            }
        }
        Json request = Json::object();
        request.set("op", "step_launch");
        request.set("job_id", m_jobId);
        request.set("step_id", m_stepId);
        request.set("user", me.name);
        request.set("uid", spec["uid"].toInt(me.uid));
        request.set("gid", spec["gid"].toInt(me.gid));
        request.set("argv", mc::proto::stringList(m_command));
        request.set("env", mc::proto::stringList(env));
        request.set("cwd", cwd);
        request.set("tasks", std::move(tasks));
        request.set("node_id", static_cast<std::int64_t>(k));
        request.set("ntasks", m_ntasks);
        request.set("pty", m_opts.pty);
        request.set("fds_per_task", m_opts.label && !m_opts.pty);
        request.set("mem_mb", memMb);
        request.set("cpus", job["cpus_on_node"].toInt(0));
        if (m_opts.verbose > 0) {
            std::string list;
            for (int t = firstTask; t < firstTask + count; ++t) {
                list += (list.empty() ? "" : ",") + std::to_string(t);
            }
            ia::say(kProgram,
                "launching StepId=" + id + "." + stepId + " on host " + nodes[k] + ", "
                    + std::to_string(count) + " tasks: " + list);
        }
        bool sent = sendWithFds(link.fd, request.dump() + "\n", fds);
        for (int fd : closeAfter) {
            ::close(fd);
        }
        if (!sent) {
            ia::sayError(kProgram,
                "Task launch for StepId=" + id + "." + stepId + " failed on node " + nodes[k] + ": "
                    + std::strerror(errno));
            ::close(link.fd);
            return false;
        }
        m_nodes.push_back(std::move(link));
        firstTask += count;
    }
    if (slave >= 0) {
        ::close(slave);
    }
    return true;
}

int Srun::relay()
{
    ::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK);
    struct sigaction action { };
    action.sa_handler = onSignal;
    ::sigemptyset(&action.sa_mask);
    // Signals srun passes on to its tasks, as Slurm's srun does (SIGWINCH resizes --pty).
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH}) {
        ::sigaction(s, &action, nullptr);
    }
    const int width = digits(std::max(0, m_ntasks - 1));
    bool stdinOpen = m_master >= 0;
    bool masterOpen = m_master >= 0;
    while (true) {
        bool nodesDone
            = std::all_of(m_nodes.begin(), m_nodes.end(), [](const NodeLink &n) { return n.done; });
        bool pipesDone = std::all_of(
            m_pipes.begin(), m_pipes.end(), [](const LabelPipe &p) { return p.fd < 0; });
        if (nodesDone && pipesDone && (!masterOpen || nodesDone)) {
            if (masterOpen) {
                // Drain what the task wrote before it ended.
                char buffer[4096];
                int flags = ::fcntl(m_master, F_GETFL);
                ::fcntl(m_master, F_SETFL, flags | O_NONBLOCK);
                for (ssize_t n; (n = ::read(m_master, buffer, sizeof buffer)) > 0;) {
                    [[maybe_unused]] auto w = ::write(1, buffer, static_cast<std::size_t>(n));
                }
            }
            break;
        }
        std::vector<pollfd> fds;
        fds.push_back({g_signalPipe[0], POLLIN, 0});
        for (const auto &n : m_nodes) {
            fds.push_back({n.done ? -1 : n.fd, POLLIN, 0});
        }
        for (const auto &p : m_pipes) {
            fds.push_back({p.fd, POLLIN, 0});
        }
        fds.push_back({masterOpen ? m_master : -1, POLLIN, 0});
        fds.push_back({stdinOpen ? 0 : -1, POLLIN, 0});
        if (::poll(fds.data(), fds.size(), -1) < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        std::size_t at = 0;
        if (fds[at++].revents) {
            unsigned char sig = 0;
            while (::read(g_signalPipe[0], &sig, 1) == 1) {
                if (sig == SIGWINCH) {
                    winsize size{};
                    if (m_master >= 0 && ::ioctl(0, TIOCGWINSZ, &size) == 0) {
                        ::ioctl(m_master, TIOCSWINSZ, &size);
                    }
                    continue;
                }
                Json order = Json::object();
                order.set("op", "signal");
                order.set("signal", static_cast<int>(sig));
                for (const auto &n : m_nodes) {
                    if (!n.done) {
                        mc::proto::writeAll(n.fd, order.dump() + "\n");
                    }
                }
            }
        }
        for (auto &n : m_nodes) {
            if (!fds[at++].revents || n.done) {
                continue;
            }
            char buffer[8192];
            ssize_t r = ::read(n.fd, buffer, sizeof buffer);
            if (r <= 0) {
                if (!n.done) {
                    ia::sayError(kProgram, n.name + ": lost contact with the node's daemon");
                    m_worstCode = std::max(m_worstCode, 1);
                }
                n.done = true;
                continue;
            }
            n.buffer.append(buffer, static_cast<std::size_t>(r));
            for (auto nl = n.buffer.find('\n'); nl != std::string::npos; nl = n.buffer.find('\n')) {
                auto event = Json::parse(std::string_view(n.buffer).substr(0, nl));
                n.buffer.erase(0, nl + 1);
                if (!event) {
                    continue;
                }
                std::string kind = (*event)["event"].toString();
                if (kind == "task_exit") {
                    int task = static_cast<int>((*event)["task"].toInt());
                    int code = static_cast<int>((*event)["exit_code"].toInt());
                    int sig = static_cast<int>((*event)["exit_signal"].toInt());
                    // Said once the terminal is back to normal (--pty).
                    if (sig != 0) {
                        m_messages.push_back(
                            n.name + ": task " + std::to_string(task) + ": " + ::strsignal(sig));
                    } else if (code != 0) {
                        m_messages.push_back(n.name + ": task " + std::to_string(task)
                            + ": Exited with exit code " + std::to_string(code));
                    }
                    if (sig != 0) {
                        m_worstSignal = sig;
                    }
                    m_worstCode = std::max(m_worstCode, code);
                } else if (kind == "usage") {
                    n.usage = (*event)["usage"];
                    reportUsage();
                } else if (kind == "step_done") {
                    n.usage = (*event)["usage"];
                    n.done = true;
                } else if (kind == "error") {
                    ia::sayError(kProgram, n.name + ": " + (*event)["error"].toString());
                    m_worstCode = std::max(m_worstCode, 1);
                    n.done = true;
                }
            }
        }
        for (auto &p : m_pipes) {
            if (!fds[at++].revents || p.fd < 0) {
                continue;
            }
            char buffer[8192];
            ssize_t r = ::read(p.fd, buffer, sizeof buffer);
            if (r <= 0) {
                ::close(p.fd);
                p.fd = -1;
                writeLabelled(p, width, true);
                continue;
            }
            p.partial.append(buffer, static_cast<std::size_t>(r));
            writeLabelled(p, width, false);
        }
        if (fds[at++].revents && masterOpen) {
            char buffer[8192];
            ssize_t r = ::read(m_master, buffer, sizeof buffer);
            if (r <= 0) {
                masterOpen = false; // EIO: the task's terminal is closed
            } else {
                mc::proto::writeAll(1, std::string(buffer, static_cast<std::size_t>(r)));
            }
        }
        if (fds[at++].revents && stdinOpen) {
            char buffer[8192];
            ssize_t r = ::read(0, buffer, sizeof buffer);
            if (r <= 0) {
                stdinOpen = false;
            } else if (masterOpen) {
                mc::proto::writeAll(m_master, std::string(buffer, static_cast<std::size_t>(r)));
            }
        }
    }
    if (m_rawTerminal) {
        ::tcsetattr(0, TCSANOW, &m_savedTerminal);
    }
    for (const auto &message : m_messages) {
        ia::sayError(kProgram, message);
    }
    finish(m_worstCode, m_worstSignal);
    if (m_worstSignal != 0) {
        return 128 + m_worstSignal;
    }
    return m_worstCode;
}

Json Srun::totalUsage() const
{
    std::int64_t cpu = 0, maxRss = 0, aveRss = 0;
    for (const auto &n : m_nodes) {
        cpu += n.usage["total_cpu_ms"].toInt();
        maxRss = std::max(maxRss, n.usage["max_rss_kb"].toInt());
        aveRss += n.usage["ave_rss_kb"].toInt();
    }
    if (!m_nodes.empty()) {
        aveRss /= static_cast<std::int64_t>(m_nodes.size());
    }
    Json usage = Json::object();
    usage.set("total_cpu_ms", cpu);
    usage.set("max_rss_kb", maxRss);
    usage.set("ave_rss_kb", aveRss);
    return usage;
}

void Srun::reportUsage()
{
    Json request = Json::object();
    request.set("op", "step_usage");
    request.set("job_id", m_jobId);
    request.set("step_id", m_stepId);
    request.set("usage", totalUsage());
    m_link.call(request);
}

void Srun::finish(int exitCode, int exitSignal)
{
    Json end = Json::object();
    end.set("op", "step_end");
    end.set("job_id", m_jobId);
    end.set("step_id", m_stepId);
    end.set("exit_code", exitCode);
    end.set("exit_signal", exitSignal);
    end.set("usage", totalUsage());
    if (!m_ownAllocation) {
        m_link.call(end);
        return;
    }
    // The step's end rides with the release of srun's own allocation: one round trip.
    Json release = Json::object();
    release.set("op", "alloc_release");
    release.set("job_id", m_jobId);
    release.set("exit_code", exitCode);
    release.set("exit_signal", exitSignal);
    release.set("step_end", std::move(end));
    m_link.call(release);
}

} // namespace

int main(int argc, char **argv)
{
    std::signal(SIGPIPE, SIG_IGN);
    return Srun().run(argc, argv);
}
