#include "mc/emu/node_daemon.h"

#include "mc/emu/job_environment.h"
#include "mc/emu/output_pattern.h"
#include "mc/emu/process.h"
#include "mc/proto/socket.h"
#include "mc/sched/time_format.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mc::emu {

using proto::Json;

namespace {

sched::Seconds wallClock()
{
    using namespace std::chrono;
    return duration_cast<seconds>(system_clock::now().time_since_epoch()).count();
}

bool writeFile(const std::string &path, const std::string &text, mode_t mode)
{
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) {
        return false;
    }
    bool ok = proto::writeAll(fd, text);
    ::fchmod(fd, mode);
    ::close(fd);
    return ok;
}

std::string jobDirName(std::uint32_t id)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "job%05u", id);
    return buf;
}

std::string absoluteIn(const std::string &dir, const std::string &path)
{
    return !path.empty() && path[0] == '/' ? path : dir + "/" + path;
}

} // namespace

NodeDaemon::NodeDaemon(proto::EventLoop &loop, NodeSettings settings)
    : m_loop(loop)
    , m_settings(std::move(settings))
{ }

NodeDaemon::~NodeDaemon() = default;

void NodeDaemon::start()
{
    m_loop.watchSignals({SIGCHLD, SIGTERM, SIGINT, SIGHUP}, [this](int signal) {
        if (signal == SIGCHLD) {
            reapChildren();
        } else {
            stopAllJobs();
            m_loop.quit();
        }
    });
    connect();
}

void NodeDaemon::connect()
{
    std::string error;
    int fd = proto::connectUnix(m_settings.layout.socket(), error);
    if (fd < 0) {
        retryLater();
        return;
    }
    m_conn = std::make_unique<proto::Connection>(m_loop, fd);
    m_conn->onMessage = [this](const Json &message) {
        onMessage(message);
    };
    m_conn->onClosed = [this] {
        m_registered = false;
        m_conn.reset();
        retryLater();
    };
    Json hello = Json::object();
    hello.set("op", "node_register");
    hello.set("node", m_settings.name);
    hello.set("pid", static_cast<std::int64_t>(::getpid()));
    Json running = Json::array();
    for (const auto &[id, job] : m_running) {
        running.push(static_cast<std::int64_t>(id));
    }
    hello.set("running", std::move(running));
    Json finished = Json::array();
    for (const auto &[id, report] : m_unacked) {
        finished.push(report);
    }
    hello.set("finished", std::move(finished));
    m_conn->send(hello);
}

void NodeDaemon::retryLater()
{
    m_loop.addTimer(std::chrono::milliseconds(200), [this] {
        if (!m_conn) {
            connect();
        }
    });
}

void NodeDaemon::onMessage(const Json &message)
{
    std::string op = message["op"].toString();
    if (!m_registered && message.contains("ok")) {
        if (!message["ok"].toBool()) {
            std::fprintf(stderr, "minicluster-noded %s: %s\n", m_settings.name.c_str(),
                message["error"].toString().c_str());
            m_loop.quit();
            return;
        }
        m_registered = true;
        return;
    }
    if (op == "launch") {
        launch(message["job"]);
    } else if (op == "signal") {
        signalJob(static_cast<std::uint32_t>(message["job_id"].toInt()),
            static_cast<int>(message["signal"].toInt(SIGKILL)), message["cancel"].toBool());
    } else if (op == "job_end_ack") {
        m_unacked.erase(static_cast<std::uint32_t>(message["job_id"].toInt()));
    } else if (op == "shutdown") {
        stopAllJobs();
        m_loop.quit();
    }
}

void NodeDaemon::launch(const Json &job)
{
    const Json &spec = job["spec"];
    auto id = static_cast<std::uint32_t>(job["job_id"].toInt());
    const ClusterLayout &layout = m_settings.layout;
    const std::string &node = m_settings.name;
    std::string user = spec["user"].toString();
    bool bwrap = m_settings.mode == SandboxMode::Bubblewrap;
    SandboxView view = sandboxView(m_settings.mode, layout, user, m_settings.binDir);
    std::vector<Mount> mounts = nodeMounts(layout, node, m_settings.binDir);
    auto hostPath = [&](const std::string &p) {
        return bwrap ? hostPathFor(mounts, p) : p;
    };

    // The script, as slurmd keeps it: <spool>/jobNNNNN/slurm_script.
    std::string jobDir = layout.spool(node) + "/" + jobDirName(id);
    ::mkdir(jobDir.c_str(), 0755);
    std::string scriptHost = jobDir + "/slurm_script";
    std::string scriptSeen
        = bwrap ? "/var/spool/slurmd/" + jobDirName(id) + "/slurm_script" : scriptHost;
    writeFile(scriptHost, spec["script"].toString(), 0700);

    std::string workDir = spec["work_dir"].toString();
    PatternFields fields;
    fields.jobId = id;
    fields.jobName = spec["name"].toString();
    fields.user = user;
    fields.node = node;
    std::string outPattern = spec["std_out"].toString();
    if (outPattern.empty()) {
        outPattern = "slurm-%j.out";
    }
    std::string errPattern = spec["std_err"].toString();
    std::string outPath = absoluteIn(workDir, expandOutputPattern(outPattern, fields));
    std::string errPath = errPattern.empty()
        ? outPath
        : absoluteIn(workDir, expandOutputPattern(errPattern, fields));

    BatchJobFacts facts;
    facts.jobId = id;
    facts.jobName = fields.jobName;
    facts.user = user;
    facts.uid = static_cast<std::uint32_t>(spec["uid"].toInt());
    facts.gid = static_cast<std::uint32_t>(spec["gid"].toInt());
    facts.account = spec["account"].toString();
    facts.partition = spec["partition"].toString();
    facts.qos = spec["qos"].toString("normal");
    facts.clusterName = job["cluster_name"].toString();
    facts.node = node;
    facts.nodeList = job["node_list"].toString();
    facts.numNodes = static_cast<int>(job["nodes"].size());
    facts.ntasks = static_cast<int>(spec["ntasks"].toInt(1));
    facts.ntasksGiven = spec["ntasks_given"].toBool() || facts.ntasks > 1;
    facts.cpusPerTask = static_cast<int>(spec["cpus_per_task"].toInt(1));
    facts.cpusPerTaskGiven = spec["cpus_per_task_given"].toBool() || facts.cpusPerTask > 1;
    facts.cpusOnNode = static_cast<int>(job["cpus_on_node"].toInt(1));
    if (spec["mem_per_node"].isNumber()) {
        facts.memPerNode = spec["mem_per_node"].toInt();
    } else {
        facts.memPerCpu = spec["mem_per_cpu"].isNumber()
            ? spec["mem_per_cpu"].toInt()
            : job["mem_per_node_resolved"].toInt() / std::max<std::int64_t>(1, facts.cpusOnNode);
    }
    facts.submitDir = workDir;
    facts.submitHost = spec["submit_host"].toString();
    facts.confPath = view.etcDir + "/slurm.conf";
    facts.home = view.home;
    auto env = batchJobEnvironment(facts, spec["env"].toStringList());
    env.push_back("MINICLUSTER_SOCKET=" + view.runDir + "/ctld.sock");
    if (!bwrap) {
        // The plain fallback: `hostname` answers the node's name through a shim.
        for (auto &e : env) {
            if (e.rfind("PATH=", 0) == 0) {
                e = "PATH=" + layout.run() + "/shim:" + e.substr(5);
            }
        }
        env.push_back("MINICLUSTER_HOSTNAME=" + node);
    }

    SandboxSpec sandbox;
    sandbox.mode = m_settings.mode;
    sandbox.hostname = node;
    sandbox.uid = facts.uid;
    sandbox.gid = facts.gid;
    sandbox.mounts = mounts;
    sandbox.passwdFile = layout.etc() + "/passwd";
    sandbox.groupFile = layout.etc() + "/group";
    sandbox.workDir = workDir;
    std::vector<std::string> command = {scriptSeen};
    for (const auto &arg : spec["argv"].toStringList()) {
        command.push_back(arg);
    }

    SpawnSpec spawn;
    spawn.argv = sandboxArgv(sandbox, command);
    spawn.env = env;
    spawn.stdinPath = hostPath(spec["std_in"].toString("/dev/null"));
    spawn.stdoutPath = hostPath(outPath);
    spawn.stderrPath = hostPath(errPath);
    spawn.chdir = bwrap ? std::string() : workDir;

    std::string error;
    pid_t pid = spawnProcess(spawn, error);
    if (pid < 0) {
        // Slurm: the job fails with JobLaunchFailure and exit code 0:53, silently for the user.
        std::fprintf(stderr, "minicluster-noded %s: job %u: launch failed: %s\n", node.c_str(), id,
            error.c_str());
        Json report = Json::object();
        report.set("op", "job_ended");
        report.set("job_id", static_cast<std::int64_t>(id));
        report.set("exit_code", 0);
        report.set("exit_signal", 53);
        report.set("launch_failed", true);
        report.set("error", error);
        report.set("end_time", wallClock());
        sendReport(report);
        return;
    }
    m_running[id] = RunningJob{pid, spawn.stderrPath, false};
    Json started = Json::object();
    started.set("op", "job_started");
    started.set("job_id", static_cast<std::int64_t>(id));
    started.set("pid", static_cast<std::int64_t>(pid));
    if (m_conn) {
        m_conn->send(started);
    }
}

void NodeDaemon::signalJob(std::uint32_t jobId, int signal, bool cancel)
{
    auto it = m_running.find(jobId);
    if (it == m_running.end()) {
        return;
    }
    RunningJob &job = it->second;
    pid_t pid = job.pid;
    if (cancel) {
        if (!job.cancelled) {
            // slurmstepd's notice in the job's stderr, as on a real cluster.
            std::string line = "slurmstepd-" + m_settings.name + ": error: *** JOB "
                + std::to_string(jobId) + " ON " + m_settings.name + " CANCELLED AT "
                + sched::formatTimestamp(wallClock()) + " ***\n";
            int fd = ::open(job.errPath.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
            if (fd >= 0) {
                proto::writeAll(fd, line);
                ::close(fd);
            }
        }
        job.cancelled = true;
        ::kill(-pid, SIGCONT);
        ::kill(-pid, SIGTERM);
        m_loop.addTimer(std::chrono::seconds(m_settings.killWait), [this, jobId, pid] {
            auto still = m_running.find(jobId);
            if (still != m_running.end() && still->second.pid == pid) {
                ::kill(-pid, SIGKILL);
            }
        });
        return;
    }
    ::kill(-pid, signal);
}

void NodeDaemon::stopAllJobs()
{
    // The cluster goes down: its jobs end with it (they are NODE_FAIL at the next start).
    for (const auto &[id, job] : m_running) {
        ::kill(-job.pid, SIGKILL);
    }
}

void NodeDaemon::reapChildren()
{
    while (true) {
        int status = 0;
        pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid <= 0) {
            return;
        }
        for (auto it = m_running.begin(); it != m_running.end(); ++it) {
            if (it->second.pid != pid) {
                continue;
            }
            // Kill what the script left behind in its process group, as slurmstepd does.
            ::kill(-pid, SIGKILL);
            Json report = Json::object();
            report.set("op", "job_ended");
            report.set("job_id", static_cast<std::int64_t>(it->first));
            int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
            int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            if (m_settings.mode == SandboxMode::Bubblewrap && code > 128 && it->second.cancelled) {
                signal = code - 128; // bwrap passes a signal death on as 128 + signal
                code = 0;
            }
            report.set("exit_code", code);
            report.set("exit_signal", signal);
            report.set("end_time", wallClock());
            m_running.erase(it);
            sendReport(report);
            break;
        }
    }
}

void NodeDaemon::sendReport(const Json &report)
{
    m_unacked[static_cast<std::uint32_t>(report["job_id"].toInt())] = report;
    if (m_conn && m_registered) {
        m_conn->send(report);
    }
}

} // namespace mc::emu
