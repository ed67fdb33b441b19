#include "mc/emu/node_daemon.h"

#include "mc/emu/foreign_environment.h"
#include "mc/emu/job_environment.h"
#include "mc/emu/job_limits.h"
#include "mc/emu/output_pattern.h"
#include "mc/emu/process.h"
#include "mc/emu/step_server.h"
#include "mc/proto/identity.h"
#include "mc/proto/socket.h"
#include "mc/sched/time_format.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sys/prctl.h>
#include <sys/resource.h>
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

// When a job ended, to the millisecond: the controller dates it on the cluster clock, where a
// wall second may be an hour.
double endTime()
{
    using namespace std::chrono;
    return static_cast<double>(
               duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count())
        / 1000.0;
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

// The job's GPUs on its batch host (the first of its nodes) and its GPU options, as the
// controller's launch order carries them (jobToRecord).
void readGpuFacts(BatchJobFacts &facts, const sched::Job &job)
{
    const sched::JobSpec &spec = job.spec;
    if (!job.gpuIds.empty()) {
        facts.gpuIds = job.gpuIds.front();
    }
    const std::string &type = spec.gpuType;
    const auto text = [&type](std::int64_t count) {
        return count > 0 ? (type.empty() ? "" : type + ":") + std::to_string(count) : std::string();
    };
    facts.gpus = text(spec.gpusPerJob);
    facts.gpusPerNode = spec.gpusPerNodeGiven ? text(spec.gpusPerNode) : std::string();
    facts.gpusPerTask = text(spec.gpusPerTask);
    facts.cpusPerGpu = spec.cpusPerGpu;
    facts.memPerGpu = spec.memPerGpu.value_or(0);
}

} // namespace

NodeDaemon::NodeDaemon(proto::EventLoop &loop, NodeSettings settings)
    : m_loop(loop)
    , m_settings(std::move(settings))
{ }

NodeDaemon::~NodeDaemon()
{
    // Jobs still listed were killed by stopAllJobs(); their cgroups and the node's go too.
    m_steps.reset();
    m_sandboxes.clear();
    m_deadSandboxes.clear();
    m_running.clear();
    m_retired.clear();
    removeNodeCgroups(m_settings.limits, nodeGroup());
}

void NodeDaemon::start()
{
    reapLeftovers();
    // Jobs whose sandbox process dies come back to this daemon and are reaped here
    // (sandbox_host.h); so do the daemons a job script leaves behind.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    // srun's step launches (step_server.h).
    StepServerSettings steps;
    steps.node = m_settings.name;
    steps.layout = m_settings.layout;
    steps.binDir = m_settings.binDir;
    steps.mode = m_settings.mode;
    steps.nodePidNamespace = m_settings.nodePidNamespace;
    steps.limits = m_settings.limits;
    steps.nodeGroup = nodeGroup();
    steps.sandboxFor = [this](const SandboxSpec &spec) {
        SandboxHost *host = sandboxFor(spec);
        if (host && host->idleTimer) {
            m_loop.cancelTimer(host->idleTimer);
            host->idleTimer = 0;
        }
        return host;
    };
    steps.sandboxReleased = [this](SandboxHost *sandbox) {
        for (const auto &[key, host] : m_sandboxes) {
            if (host.get() == sandbox) {
                stopWhenIdle(sandbox);
            }
        }
    };
    steps.hasBatchJob = [this](std::uint32_t jobId) {
        return m_running.contains(jobId);
    };
    steps.cpusFor = [this](std::uint32_t jobId, int count) {
        return m_cpus.take(jobId, count);
    };
    steps.cpusReleased = [this](std::uint32_t jobId) {
        if (!m_running.contains(jobId)) {
            m_cpus.release(jobId); // an allocation's, not a batch job's (released at its end)
        }
    };
    steps.memoryOverrun = [this](std::uint32_t jobId, std::int64_t rssKb) {
        if (!m_settings.rebootOnMemoryOverrun || m_rebooting) {
            return false;
        }
        // A step over its memory restarts the node as the batch script would
        // (MemoryOverrun=reboot-node); posted: the step server is inside a task's end.
        m_loop.post([this, jobId, rssKb] {
            if (!m_rebooting) {
                rebootForMemoryOverrun(jobId, rssKb);
            }
        });
        return true;
    };
    m_steps = std::make_unique<StepServer>(m_loop, steps);
    if (std::string error; !m_steps->listen(error)) {
        std::fprintf(stderr, "minicluster-noded %s: srun steps: %s\n", m_settings.name.c_str(),
            error.c_str());
    }
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

void NodeDaemon::reapLeftovers()
{
    // An earlier daemon of this node died with jobs running: they go (processes, spool
    // directories, $SLURM_TMPDIRs) before this one registers, and the controller, which kept
    // them RUNNING until then, ends them NODE_FAIL or requeues them (docs/design.md).
    int orphans = reapOrphanCgroups(m_settings.limits, nodeGroup());
    namespace fs = std::filesystem;
    std::error_code ec;
    const ClusterLayout &layout = m_settings.layout;
    for (const auto &entry : fs::directory_iterator(layout.spool(m_settings.name), ec)) {
        std::ifstream pidFile(entry.path() / "pid");
        pid_t pid = 0;
        if (pidFile >> pid && pid > 1) {
            JobLimiter leftovers(LimitMode::Rlimit, {}, {});
            if (leftovers.sample(pid).processes > 0) {
                leftovers.signalAll(pid, SIGKILL);
                ++orphans;
            }
        }
        fs::remove_all(entry.path(), ec);
    }
    for (const auto &entry : fs::directory_iterator(layout.localScratch(m_settings.name), ec)) {
        fs::remove_all(entry.path(), ec);
    }
    if (orphans > 0) {
        std::fprintf(stderr, "minicluster-noded %s: killed %d job(s) left by an earlier daemon\n",
            m_settings.name.c_str(), orphans);
    }
    // End reports the earlier daemon sent and had not seen acknowledged: sent again.
    for (const auto &entry : fs::directory_iterator(endedDir(), ec)) {
        std::ifstream in(entry.path());
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto json = Json::parse(text);
        if (auto report = json ? record::jobEndFromJson(*json) : std::nullopt) {
            m_unacked[report->job.value] = std::move(*report);
        } else {
            fs::remove(entry.path(), ec); // cut short by the crash: the job is lost instead
        }
    }
}

void NodeDaemon::connect()
{
    std::string error;
    int fd = proto::connectUnix(m_settings.layout.nodeSocket(), error);
    if (fd < 0 && ::access(m_settings.layout.run().c_str(), F_OK) != 0) {
        // The cluster directory is gone (deleted with its controller): nothing to wait for.
        std::fprintf(stderr, "minicluster-noded %s: %s is gone; stopping\n",
            m_settings.name.c_str(), m_settings.layout.run().c_str());
        stopAllJobs();
        m_loop.quit();
        return;
    }
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
    hello.set("limits", limitModeName(m_settings.limits));
    hello.set("limits_detail", m_settings.limitsDetail);
    Json running = Json::array();
    for (const auto &[id, job] : m_running) {
        running.push(static_cast<std::int64_t>(id));
    }
    hello.set("running", std::move(running));
    Json finished = Json::array();
    for (const auto &[id, report] : m_unacked) {
        finished.push(record::jobEndToJson(report));
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
        if (auto order = record::launchFromJson(message["job"])) {
            launch(*order);
        } else { // a controller of another version: nothing to start, nothing to report
            std::fprintf(stderr, "minicluster-noded %s: a launch order that is not a job record\n",
                m_settings.name.c_str());
        }
    } else if (op == "signal") {
        auto jobId = static_cast<std::uint32_t>(message["job_id"].toInt());
        // Times come from the controller, on the cluster clock: when (`time`, for the notice)
        // and how long SIGKILL waits after SIGTERM (`kill_wait_ms`, KillWait at its speed).
        const OrderTimes times{message["time"].toInt(wallClock()),
            message["kill_wait_ms"].toInt(std::int64_t{m_settings.killWait} * 1000)};
        if (message["step_id"].isNumber()) { // scancel JOB.STEP: that step alone
            if (m_steps) {
                m_steps->signalOneStep(jobId, static_cast<int>(message["step_id"].toInt()),
                    static_cast<int>(message["signal"].toInt(SIGKILL)), message["cancel"].toBool(),
                    times.at, message["kill_wait"].toInt(m_settings.killWait));
            }
            return;
        }
        if (message["timeout"].toBool()) { // the job's time limit passed
            timeLimitReached(jobId, times);
            return;
        }
        if (message["warning"].toBool()) { // sbatch --signal, its time before the limit came
            auto it = m_running.find(jobId);
            if (it != m_running.end()) {
                if (it->second.warningSent) {
                    return;
                }
                it->second.warningSent = true;
            }
        }
        if (message["user_signal"].toBool()) {
            // A preemption with preempt_send_user_signal: the job's --signal, unless its time
            // came already; then SIGTERM, as without it.
            auto it = m_running.find(jobId);
            if (it != m_running.end() && it->second.warningSent) {
                signalJob(jobId, SIGTERM, false, "", times);
                return;
            }
            if (it != m_running.end()) {
                it->second.warningSent = true;
            }
        }
        signalJob(jobId, static_cast<int>(message["signal"].toInt(SIGKILL)),
            message["cancel"].toBool(), message["scope"].toString(), times);
    } else if (op == "suspend") {
        suspendJob(
            static_cast<std::uint32_t>(message["job_id"].toInt()), message["resume"].toBool());
    } else if (op == "job_end_ack") {
        const auto id = static_cast<std::uint32_t>(message["job_id"].toInt());
        m_unacked.erase(id);
        ::unlink((endedDir() + "/" + jobDirName(id)).c_str());
    } else if (op == "shutdown") {
        stopAllJobs();
        m_loop.quit();
    }
}

void NodeDaemon::launch(const record::LaunchOrder &order)
{
    const sched::Job &job = order.job;
    const sched::JobSpec &spec = job.spec;
    const std::uint32_t id = job.id.value;
    if (m_rebooting) {
        // Sent before the controller heard of the restart: lost with the node, as any job on
        // a node that fails (the controller requeues it or ends it NODE_FAIL).
        record::JobEnd report;
        report.job = job.id;
        report.exit = {0, SIGKILL};
        report.endTime = endTime();
        report.nodeFail = true;
        sendReport(report);
        return;
    }
    const ClusterLayout &layout = m_settings.layout;
    const std::string &node = m_settings.name;
    const std::string &user = spec.user;
    bool bwrap = m_settings.mode == SandboxMode::Bubblewrap;
    SandboxView view = sandboxView(m_settings.mode, layout, user, m_settings.binDir);
    std::vector<Mount> mounts = nodeMounts(layout, node, m_settings.binDir);
    auto hostPath = [&](const std::string &p) {
        return bwrap ? hostPathFor(mounts, p) : p;
    };

    // Isolated users (mc/proto/identity.h): the job's files are its user's real ids'.
    const bool isolated = bwrap && proto::usersIsolated();
    const auto realUid = static_cast<uid_t>(proto::isolatedId(spec.uid));
    const auto realGid = static_cast<gid_t>(proto::isolatedId(spec.gid));
    auto own = [&](const std::string &path) {
        if (isolated && ::chown(path.c_str(), realUid, realGid) != 0) {
            std::fprintf(stderr, "minicluster-noded %s: chown %s: %s\n", node.c_str(), path.c_str(),
                std::strerror(errno));
        }
    };

    // The script, as slurmd keeps it: <spool>/jobNNNNN/slurm_script (its user's alone).
    std::string jobDir = layout.spool(node) + "/" + jobDirName(id);
    ::mkdir(jobDir.c_str(), isolated ? 0700 : 0755);
    own(jobDir);
    std::string scriptHost = jobDir + "/slurm_script";
    std::string scriptSeen
        = bwrap ? "/var/spool/slurmd/" + jobDirName(id) + "/slurm_script" : scriptHost;
    writeFile(scriptHost, spec.script, 0700);
    own(scriptHost);

    const std::string &workDir = spec.workDir;
    PatternFields fields;
    fields.jobId = id;
    fields.jobName = spec.name;
    fields.user = user;
    fields.node = node;
    // A task of a job array (sent by controllers that start array tasks).
    const std::optional<std::uint32_t> arrayTask = job.arrayTaskId;
    if (arrayTask) {
        fields.arrayJobId = job.arrayJobId != 0 ? job.arrayJobId : id;
        fields.arrayTaskId = arrayTask;
    }
    std::string outPattern = spec.stdOut;
    if (outPattern.empty()) {
        // sbatch's default: slurm-%j.out, and slurm-%A_%a.out for a task of an array (as
        // Slurm 22.05's StdOut shows it), not the task's own job id.
        outPattern = arrayTask ? "slurm-%A_%a.out" : "slurm-%j.out";
    }
    const std::string &errPattern = spec.stdErr;
    std::string outPath = absoluteIn(workDir, expandOutputPattern(outPattern, fields));
    std::string errPath = errPattern.empty()
        ? outPath
        : absoluteIn(workDir, expandOutputPattern(errPattern, fields));

    BatchJobFacts facts;
    facts.jobId = id;
    facts.jobName = fields.jobName;
    facts.user = user;
    facts.uid = spec.uid;
    facts.gid = spec.gid;
    facts.account = spec.account;
    facts.partition = spec.partition;
    facts.qos = spec.qos;
    facts.clusterName = order.clusterName;
    facts.node = node;
    facts.nodeList = order.nodeList;
    facts.numNodes = static_cast<int>(job.nodeList.size());
    facts.ntasks = spec.ntasks;
    facts.ntasksGiven = spec.ntasksGiven || facts.ntasks > 1;
    facts.cpusPerTask = spec.cpusPerTask;
    facts.cpusPerTaskGiven = spec.cpusPerTaskGiven || facts.cpusPerTask > 1;
    facts.cpusOnNode = order.cpusOnNode;
    facts.nodeCpus = job.nodeCpus;
    if (spec.memPerNode) {
        facts.memPerNode = *spec.memPerNode;
    } else if (!spec.memPerGpu) { // --mem-per-gpu: SLURM_MEM_PER_GPU instead
        facts.memPerCpu = spec.memPerCpu
            ? *spec.memPerCpu
            : job.memPerNode / std::max<std::int64_t>(1, facts.cpusOnNode);
    }
    facts.submitDir = workDir;
    for (const std::string &entry : spec.env) { // where sbatch ran: --chdir moves only the job
        if (entry.rfind("SLURM_SUBMIT_DIR=", 0) == 0) {
            facts.submitDir = entry.substr(std::string_view("SLURM_SUBMIT_DIR=").size());
        }
    }
    facts.submitHost = spec.submitHost;
    facts.confPath = view.etcDir + "/slurm.conf";
    facts.home = view.home;
    facts.arrayTaskId = arrayTask;
    facts.arrayJobId = fields.arrayJobId.value_or(id);
    facts.arraySpec = spec.array;
    facts.restarts = job.restarts;
    readGpuFacts(facts, job);
    // $SLURM_TMPDIR on the node's local disk, as the Alliance's clusters do.
    std::string tmpName = tmpDirName(user, id);
    std::string tmpHost = layout.localScratch(node) + "/" + tmpName;
    ::mkdir(tmpHost.c_str(), 0700);
    own(tmpHost);
    facts.tmpDir = bwrap ? "/localscratch/" + tmpName : tmpHost;
    facts.nodeFilePath = facts.tmpDir + "/.pbs_nodefile";
    auto env = batchJobEnvironment(facts, spec.env);
    if (std::find(env.begin(), env.end(), "PBS_NODEFILE=" + facts.nodeFilePath) != env.end()) {
        writeFile(tmpHost + "/.pbs_nodefile", pbsNodeFileText(facts), 0644); // qsub's jobs
    }
    env.push_back("MINICLUSTER_SOCKET=" + view.runDir + "/ctld.sock");
    if (order.gpuType) { // a GPU node: its emulated nvidia-smi comes first
        const std::string gpuBin = bwrap
            ? std::string(kSandboxSoftware) + "/gpu/bin"
            : m_settings.binDir + "/../share/minicluster/software/gpu/bin";
        for (auto &e : env) {
            if (e.rfind("PATH=", 0) == 0) {
                e = "PATH=" + gpuBin + ":" + e.substr(5);
            }
        }
        env.push_back("MINICLUSTER_GPU_TYPE=" + *order.gpuType);
    }
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
    sandbox.hostsFile = layout.etc() + "/hosts";
    sandbox.nodePidNamespace = m_settings.nodePidNamespace;
    sandbox.workDir = workDir;
    std::vector<std::string> command = {scriptSeen};
    for (const auto &arg : spec.argv) {
        command.push_back(arg);
    }

    SpawnSpec spawn;
    spawn.argv = sandboxArgv(sandbox, command);
    spawn.env = env;
    spawn.stdinPath = hostPath(spec.stdIn);
    spawn.stdoutPath = hostPath(outPath);
    spawn.stderrPath = hostPath(errPath);
    spawn.chdir = bwrap ? std::string() : workDir;
    spawn.append = spec.openAppend;
    if (isolated) {
        spawn.fileUid = static_cast<int>(realUid);
        spawn.fileGid = static_cast<int>(realGid);
        spawn.fileRoot = layout.dir;
    }

    std::string error;
    // The job's CPUs of the node, by index (cpu_slots.h): its cgroup's cpuset where there is
    // one, and its affinity in every limits mode (nproc, os.sched_getaffinity).
    const int firstCpu = m_cpus.take(id, facts.cpusOnNode);
    JobLimits limits = jobLimits(job.memPerNode, facts.cpusOnNode);
    limits.cpuSet = hostCpus(firstCpu, facts.cpusOnNode, usableCpus());
    auto limiter = std::make_unique<JobLimiter>(
        m_settings.limits, nodeGroup() + "/job_" + std::to_string(id), limits, "step_batch");
    if (!limiter->create(error)) {
        limiter->remove();
        std::filesystem::remove_all(tmpHost);
        std::filesystem::remove_all(jobDir);
        failLaunch(id, "limits: " + error);
        return;
    }
    spawn.joinFiles = limiter->joinFiles();
    spawn.rlimits = limiter->rlimits();
    spawn.cpuCount = facts.cpusOnNode;
    spawn.firstCpu = firstCpu;
    SandboxHost *host = bwrap ? sandboxFor(sandbox) : nullptr;
    pid_t pid = -1;
    if (host) {
        // The node's sandbox forks the job (sandbox_host.h): no bwrap of its own.
        std::vector<int> fds;
        if (openStdio(spawn, fds, error)) {
            for (const auto &file : spawn.joinFiles) {
                int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
                if (fd < 0) {
                    error = file + ": " + std::strerror(errno);
                    break;
                }
                fds.push_back(fd);
            }
            if (fds.size() == 3 + spawn.joinFiles.size()) {
                SandboxLaunch l;
                l.argv = command;
                l.env = env;
                l.chdir = workDir;
                l.rlimits = spawn.rlimits;
                l.cpuCount = spawn.cpuCount;
                l.firstCpu = spawn.firstCpu;
                l.joinFds = static_cast<int>(spawn.joinFiles.size());
                pid = host->spawn(l, fds, error);
            }
            for (int fd : fds) {
                ::close(fd);
            }
        }
    } else {
        pid = spawnProcess(spawn, error);
    }
    if (pid < 0) {
        limiter->remove();
        std::filesystem::remove_all(tmpHost);
        std::filesystem::remove_all(jobDir);
        failLaunch(id, error);
        return;
    }
    writeFile(jobDir + "/pid", std::to_string(pid) + "\n", 0644);
    RunningJob &running = m_running[id];
    running.sandbox = host;
    running.viaBwrap = bwrap && !host;
    if (host && host->idleTimer) {
        m_loop.cancelTimer(host->idleTimer);
        host->idleTimer = 0;
    }
    running.pid = pid;
    running.spoolDir = jobDir;
    running.errPath = spawn.stderrPath;
    running.limiter = std::move(limiter);
    running.tmpDir = tmpHost;
    startSampling();
    Json started = Json::object();
    started.set("op", "job_started");
    started.set("job_id", static_cast<std::int64_t>(id));
    started.set("pid", static_cast<std::int64_t>(pid));
    if (m_conn) {
        m_conn->send(started);
    }
}

void NodeDaemon::signalJob(
    std::uint32_t jobId, int signal, bool cancel, const std::string &scope, const OrderTimes &times)
{
    // scancel's scopes (man scancel): "steps" (Slurm's default for a signal: srun steps
    // only), "batch" (--batch: the batch shell alone, not its children), "full"/"" (--full:
    // the batch shell, its children and the steps; also what a cancel, a preemption's SIGTERM
    // and orders without a scope do).
    if (m_steps && (cancel || scope != "batch")) { // srun steps of the job
        m_steps->signalJob(jobId, signal);
    }
    if (!cancel && scope == "steps") {
        return;
    }
    auto it = m_running.find(jobId);
    if (it == m_running.end()) {
        return;
    }
    RunningJob &job = it->second;
    if (cancel) {
        if (!job.cancelled && !job.timedOut) {
            // slurmstepd's notice in the job's stderr, as on a real cluster.
            appendNotice(job, cancelNotice(m_settings.name, jobId, times.at));
        }
        job.cancelled = true;
        terminate(jobId, job.pid, times.killWaitMs);
        return;
    }
    if (scope == "batch") {
        signalBatchShell(job, signal);
        return;
    }
    job.limiter->signalAll(job.pid, signal, job.viaBwrap);
}

void NodeDaemon::signalBatchShell(const RunningJob &job, int signal)
{
    if (!job.viaBwrap) { // the batch shell is the job's first process
        ::kill(job.pid, signal);
        return;
    }
    for (pid_t p : job.limiter->pids(job.pid)) { // bubblewrap's child is the shell
        std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
        std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        auto st = parseProcStat(text);
        if (st && st->ppid == job.pid) {
            ::kill(p, signal);
        }
    }
}

void NodeDaemon::suspendJob(std::uint32_t jobId, bool resume)
{
    auto it = m_running.find(jobId);
    if (it != m_running.end() && it->second.limiter->freeze(!resume)) {
        return; // the steps' cgroups are below the job's
    }
    // Slurm's way without a freezer: SIGSTOP to every process, SIGCONT to go on. Bubblewrap
    // itself is spared: it only waits for its child.
    const int signal = resume ? SIGCONT : SIGSTOP;
    if (m_steps) {
        m_steps->signalJob(jobId, signal);
    }
    if (it != m_running.end()) {
        it->second.limiter->signalAll(it->second.pid, signal, it->second.viaBwrap);
    }
}

void NodeDaemon::terminate(std::uint32_t jobId, pid_t pid, std::int64_t killWaitMs)
{
    const RunningJob &job = m_running.at(jobId);
    bool spare = job.viaBwrap; // bwrap ends with its child and tells how it ended
    job.limiter->freeze(false); // a suspended job's processes take their signals
    job.limiter->signalAll(pid, SIGCONT, spare);
    job.limiter->signalAll(pid, SIGTERM, spare);
    m_loop.addTimer(std::chrono::milliseconds(killWaitMs), [this, jobId, pid] {
        auto still = m_running.find(jobId);
        if (still != m_running.end() && still->second.pid == pid) {
            still->second.limiter->signalAll(pid, SIGKILL);
        }
    });
}

void NodeDaemon::timeLimitReached(std::uint32_t jobId, const OrderTimes &times)
{
    auto it = m_running.find(jobId);
    if (it == m_running.end() || it->second.cancelled || it->second.timedOut) {
        return;
    }
    it->second.timedOut = true;
    appendNotice(it->second, timeLimitNotice(m_settings.name, jobId, times.at));
    if (m_steps) {
        m_steps->signalJob(jobId, SIGTERM); // its srun steps, as a cancel's
    }
    terminate(jobId, it->second.pid, times.killWaitMs);
}

void NodeDaemon::sampleUsage()
{
    std::erase_if(m_retired, [](const auto &limiter) { return limiter->remove(); });
    if (m_running.empty() && m_retired.empty()) {
        m_sampling = false;
        return;
    }
    std::vector<ProcStat> table; // rlimit mode: one walk of /proc for all jobs
    if (m_settings.limits == LimitMode::Rlimit && !m_running.empty()) {
        table = JobLimiter::scanProcesses();
    }
    for (auto &[id, job] : m_running) {
        JobLimiter::Sample s = job.limiter->sample(job.pid, table.empty() ? nullptr : &table);
        job.usage.add(s.rssKb, s.cpuMs);
        if (job.usage.samples() % 4 == 0 && m_conn && m_registered) {
            // About once a second, for sstat -j N.batch.
            const record::Usage usage{
                job.usage.totalCpuMs(), job.usage.maxRssKb(), job.usage.aveRssKb()};
            Json message = Json::object();
            message.set("op", "batch_usage");
            message.set("job_id", static_cast<std::int64_t>(id));
            message.set("usage", record::usageToJson(usage));
            m_conn->send(message);
        }
        const JobLimits &limits = job.limiter->limits();
        const bool polled = job.limiter->mode() == LimitMode::Rlimit;
        if (m_settings.rebootOnMemoryOverrun && !m_rebooting) {
            // The site's policy: not the job, the whole node goes (a cgroup's OOM kill, or
            // over the limit by polling).
            const bool over = polled ? limits.memoryBytes > 0 && s.rssKb * 1024 > limits.memoryBytes
                                     : job.limiter->oomKills() > 0;
            if (over) {
                rebootForMemoryOverrun(id, s.rssKb);
                break;
            }
        }
        if (polled && s.processes > limits.pidsMax && !job.overPids && !job.overMemory) {
            // A fork bomb that got past RLIMIT_NPROC (root ignores it): the whole job goes.
            // Checked first: the copies of a forking process also add up to a large RSS.
            job.overPids = true;
            appendNotice(job, overPidsNotice(m_settings.name, id, s.processes, limits.pidsMax));
            job.limiter->signalAll(job.pid, SIGKILL);
        }
        // Without a cgroup the daemon is the OOM killer: the whole step goes, as Slurm's
        // jobacct_gather does with OverMemoryKill.
        if (polled && limits.memoryBytes > 0 && s.rssKb * 1024 > limits.memoryBytes
            && !job.overMemory && !job.overPids) {
            job.overMemory = true;
            appendNotice(
                job, overMemoryNotice(m_settings.name, id, s.rssKb, limits.memoryBytes / 1024));
            job.limiter->signalAll(job.pid, SIGKILL);
        }
    }
    m_loop.addTimer(std::chrono::milliseconds(250), [this] { sampleUsage(); });
}

void NodeDaemon::startSampling()
{
    if (!m_sampling) {
        m_sampling = true;
        m_loop.addTimer(std::chrono::milliseconds(250), [this] { sampleUsage(); });
    }
}

void NodeDaemon::stopAllJobs()
{
    // The cluster goes down: its jobs end with it (they are NODE_FAIL at the next start).
    for (const auto &[id, job] : m_running) {
        job.limiter->signalAll(job.pid, SIGKILL);
    }
    if (m_steps) {
        m_steps->killAll();
    }
}

void NodeDaemon::reapChildren()
{
    while (true) {
        int status = 0;
        rusage usage{};
        pid_t pid = ::wait4(-1, &status, WNOHANG, &usage);
        if (pid <= 0) {
            return;
        }
        for (auto &[key, host] : m_sandboxes) {
            host->childExited(pid);
        }
        for (auto &host : m_deadSandboxes) {
            host->childExited(pid);
        }
        if (!jobExited(pid, status, usage) && m_steps) {
            m_steps->childExited(pid, status, usage);
        }
    }
}

bool NodeDaemon::jobExited(pid_t pid, int status, const rusage &usage)
{
    auto it = std::find_if(m_running.begin(), m_running.end(),
        [pid](const auto &entry) { return entry.second.pid == pid; });
    if (it == m_running.end()) {
        return false;
    }
    std::uint32_t id = it->first;
    RunningJob &job = it->second;
    if (m_steps) {
        m_steps->signalJob(id, SIGKILL); // steps end with their batch job
    }
    // Kill what the script left behind, as slurmstepd does.
    job.limiter->signalAll(pid, SIGKILL);
    record::JobEnd report;
    report.job = sched::JobId{id};
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    int signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    // Without a cgroup a peak between two samples (a 300 MB allocation that lived 100 ms under
    // --mem=100M) is in the exit's rusage: the largest RSS of the script and the children it
    // waited for. Over the limit, the job ends OUT_OF_MEMORY as a cgroup would have made it.
    const std::int64_t memoryKb = job.limiter->limits().memoryBytes / 1024;
    if (job.limiter->mode() == LimitMode::Rlimit && memoryKb > 0 && !job.overMemory && !job.overPids
        && !job.cancelled && usage.ru_maxrss > memoryKb) {
        job.overMemory = true;
        appendNotice(job, memoryPeakNotice(m_settings.name, id, usage.ru_maxrss, memoryKb));
    }
    int oomKills = job.limiter->oomKills();
    if (m_settings.rebootOnMemoryOverrun && !m_rebooting && (oomKills > 0 || job.overMemory)) {
        rebootForMemoryOverrun(id, job.usage.maxRssKb()); // ended before a sample saw it
    }
    bool killed = job.cancelled || job.timedOut || job.overMemory || job.overPids
        || job.rebootCulprit || job.lostInReboot;
    if (job.viaBwrap && code > 128 && killed) {
        signal = code - 128; // bwrap passes a signal death on as 128 + signal
        code = 0;
    }
    if (oomKills > 0 && !job.rebootCulprit) { // a restarting node writes no notice
        appendNotice(job, oomKillNotice(m_settings.name, id, oomKills));
    }
    auto ms = [](const timeval &tv) {
        return static_cast<std::int64_t>(tv.tv_sec) * 1000 + tv.tv_usec / 1000;
    };
    job.usage.finalCpu(ms(usage.ru_utime) + ms(usage.ru_stime));
    report.exit = {code, signal};
    report.endTime = endTime();
    report.timeout = job.timedOut;
    report.oom = oomKills > 0 || job.overMemory || job.rebootCulprit;
    if (job.rebootCulprit) {
        report.nodeReboot = true; // MemoryOverrun=reboot-node: its overrun did it
        report.memoryLimitKb = job.limiter->limits().memoryBytes / 1024;
    } else if (job.lostInReboot) {
        report.nodeFail = true; // lost with the node, as in a node failure
    }
    report.usage = record::Usage{job.usage.totalCpuMs(),
        std::max<std::int64_t>(job.usage.maxRssKb(), usage.ru_maxrss), job.usage.aveRssKb(),
        job.usage.samples()};
    report.limits = limitModeName(job.limiter->mode());
    std::string tmpDir = job.tmpDir;
    std::string spoolDir = job.spoolDir;
    std::unique_ptr<JobLimiter> limiter = std::move(job.limiter);
    SandboxHost *sandbox = job.sandbox;
    m_running.erase(it);
    m_cpus.release(id);
    std::error_code ignored;
    std::filesystem::remove_all(tmpDir, ignored);
    std::filesystem::remove_all(spoolDir, ignored);
    sendReport(report);
    // The cgroup empties once the killed leftovers are gone; removal is retried while
    // sampling.
    if (!limiter->remove()) {
        m_retired.push_back(std::move(limiter));
        startSampling();
    }
    if (sandbox) {
        stopWhenIdle(sandbox);
    }
    return true;
}

void NodeDaemon::rebootForMemoryOverrun(std::uint32_t culprit, std::int64_t rssKb)
{
    // The Inserm platform: the node's system, not Slurm, sees the overrun and restarts the
    // whole node. Every job on it dies at once (no notice, no SIGTERM); the controller hears
    // of the restart first, then of each job's end, and the node is back rebootSeconds later.
    m_rebooting = true;
    std::fprintf(stderr,
        "minicluster-noded %s: job %u went over its memory (%lld KiB): the node restarts "
        "(MemoryOverrun=reboot-node)\n",
        m_settings.name.c_str(), culprit, static_cast<long long>(rssKb));
    Json down = Json::object();
    down.set("op", "node_reboot");
    down.set("job_id", static_cast<std::int64_t>(culprit));
    down.set("reboot_seconds", m_settings.rebootSeconds);
    if (m_conn && m_registered) {
        m_conn->send(down);
    }
    for (auto &[id, job] : m_running) {
        (id == culprit ? job.rebootCulprit : job.lostInReboot) = true;
        job.limiter->signalAll(job.pid, SIGKILL);
    }
    if (m_steps) {
        m_steps->killAll();
    }
    const auto downFor = std::chrono::milliseconds(
        std::int64_t{m_settings.rebootSeconds} * 1000 / std::max(1, m_settings.timeScale));
    m_loop.addTimer(downFor, [this] {
        m_rebooting = false;
        Json up = Json::object();
        up.set("op", "node_rebooted");
        if (m_conn && m_registered) {
            m_conn->send(up);
        }
    });
}

void NodeDaemon::appendNotice(const RunningJob &job, const std::string &line)
{
    int fd = ::open(job.errPath.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd >= 0) {
        proto::writeAll(fd, line);
        ::close(fd);
    }
}

void NodeDaemon::failLaunch(std::uint32_t id, const std::string &error)
{
    // Slurm: the job fails with JobLaunchFailure and exit code 0:53, silently for the user.
    m_cpus.release(id);
    std::fprintf(stderr, "minicluster-noded %s: job %u: launch failed: %s\n",
        m_settings.name.c_str(), id, error.c_str());
    record::JobEnd report;
    report.job = sched::JobId{id};
    report.exit = {0, 53};
    report.endTime = endTime();
    report.launchFailed = true;
    report.error = error;
    sendReport(report);
}

SandboxHost *NodeDaemon::sandboxFor(const SandboxSpec &spec)
{
    auto key = std::make_pair(spec.uid, spec.gid);
    auto it = m_sandboxes.find(key);
    if (it != m_sandboxes.end() && it->second->alive()) {
        return it->second.get();
    }
    std::string server = m_settings.binDir + "/minicluster-sandboxd";
    if (::access(server.c_str(), X_OK) != 0) {
        return nullptr; // an older build: a bwrap per job
    }
    auto host = std::make_unique<SandboxHost>(
        m_loop, spec, std::string(kSandboxBin) + "/minicluster-sandboxd");
    host->onExit = [this](pid_t pid, int status, std::int64_t cpuMs, std::int64_t maxRssKb) {
        rusage usage{};
        usage.ru_utime.tv_sec = cpuMs / 1000;
        usage.ru_utime.tv_usec = (cpuMs % 1000) * 1000;
        usage.ru_maxrss = maxRssKb;
        if (!jobExited(pid, status, usage) && m_steps) {
            m_steps->childExited(pid, status, usage); // an srun task it forked
        }
    };
    std::string error;
    if (!host->start(error)) {
        std::fprintf(
            stderr, "minicluster-noded %s: sandbox: %s\n", m_settings.name.c_str(), error.c_str());
        return nullptr;
    }
    SandboxHost *raw = host.get();
    if (it != m_sandboxes.end()) {
        // A sandbox that died: its jobs, reparented to this daemon, may still run.
        m_deadSandboxes.push_back(std::move(it->second));
    }
    m_sandboxes[key] = std::move(host);
    return raw;
}

void NodeDaemon::stopWhenIdle(SandboxHost *sandbox)
{
    for (const auto &[id, job] : m_running) {
        if (job.sandbox == sandbox) {
            return;
        }
    }
    if (m_steps && m_steps->usesSandbox(sandbox)) {
        return;
    }
    if (sandbox->idleTimer) {
        m_loop.cancelTimer(sandbox->idleTimer);
    }
    // A sandbox without jobs for a minute goes (its memory is given back); the next job of
    // its user starts a new one.
    sandbox->idleTimer = m_loop.addTimer(std::chrono::seconds(60), [this, sandbox] {
        sandbox->idleTimer = 0;
        std::erase_if(m_sandboxes, [sandbox](const auto &e) { return e.second.get() == sandbox; });
        std::erase_if(m_deadSandboxes, [sandbox](const auto &e) { return e.get() == sandbox; });
    });
}

std::string NodeDaemon::nodeGroup() const
{
    // One subtree per node of each cluster directory, so two clusters never meet.
    return m_settings.name + "."
        + std::to_string(std::hash<std::string>{}(m_settings.layout.dir) % 1000000007);
}

std::string NodeDaemon::endedDir() const
{
    return m_settings.layout.nodeDir(m_settings.name) + "/ended";
}

void NodeDaemon::sendReport(const record::JobEnd &report)
{
    const std::uint32_t id = report.job.value;
    m_unacked[id] = report;
    // Kept on disk until the controller acknowledges it (stored): a daemon killed before that
    // leaves it to its successor, so a job that ended is never taken for lost and run again.
    ::mkdir(endedDir().c_str(), 0700);
    const Json json = record::jobEndToJson(report);
    if (!writeFile(endedDir() + "/" + jobDirName(id), json.dump(), 0600)) {
        std::fprintf(stderr, "minicluster-noded %s: job %u: cannot keep its end report in %s: %s\n",
            m_settings.name.c_str(), id, endedDir().c_str(), std::strerror(errno));
    }
    if (m_conn && m_registered) {
        m_conn->send(json);
    }
}

} // namespace mc::emu
