// srun: runs a parallel job step. Inside an allocation ($SLURM_JOB_ID, salloc or a batch job)
// it asks the controller for a numbered step; outside one it first gets an allocation of its
// own, as Slurm does. The tasks run on the step's nodes, started by each node's daemon in the
// node sandbox (emulator/runtime step_server.h): srun hands it its own stdin/stdout/stderr
// (SCM_RIGHTS), or per-task pipes for --label, or a new pseudo-terminal for --pty, which it
// relays to the user's terminal in raw mode, so `srun --pty bash` is a shell on the node.

#include "../shared/text.h"
#include "mc/proto/client.h"
#include "mc/proto/socket.h"
#include "mc/record/job_codec.h"
#include "mc/record/step.h"
#include "mc/record/step_end.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_array.h"
#include "srun_common.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
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
    mc::record::Usage usage; // its latest sample, then its step_done's
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

// The GPU indices the job holds on `node` (empty: none there, or not one of the job's nodes).
std::vector<int> gpusOn(const mc::sched::Job &job, const std::string &node)
{
    const std::vector<std::string> &jobNodes = job.nodeList;
    const auto at = std::find(jobNodes.begin(), jobNodes.end(), node);
    if (at == jobNodes.end()
        || static_cast<std::size_t>(at - jobNodes.begin()) >= job.gpuIds.size()) {
        return {};
    }
    return job.gpuIds[static_cast<std::size_t>(at - jobNodes.begin())];
}

bool hasGpus(const mc::sched::Job &job)
{
    return std::any_of(job.gpuIds.begin(), job.gpuIds.end(),
        [](const std::vector<int> &node) { return !node.empty(); });
}

// A step's GPU variables on one node, as slurmstepd sets them (gres_common.c): `count` of the
// node's `held` GPUs from the `first`-th (wrapping, for tasks beyond them), numbered among the
// step's devices in CUDA_VISIBLE_DEVICES and GPU_DEVICE_ORDINAL (ConstrainDevices=yes, the
// Alliance's setting), the node's own indices in SLURM_STEP_GPUS; SLURM_GPUS_ON_NODE counts
// the step's GPUs of the node, bound or not.
void gpuEnv(std::vector<std::string> &env, const std::vector<int> &held, int first, int count)
{
    std::string local;
    std::string ids;
    const int n = static_cast<int>(held.size());
    for (int i = 0; i < count && i < n; ++i) {
        const int k = (first + i) % n;
        local += (i ? "," : "") + std::to_string(k);
        ids += (i ? "," : "") + std::to_string(held[static_cast<std::size_t>(k)]);
    }
    ia::setEnv(env, "CUDA_VISIBLE_DEVICES", local);
    ia::setEnv(env, "GPU_DEVICE_ORDINAL", local);
    ia::setEnv(env, "SLURM_STEP_GPUS", ids);
    ia::setEnv(env, "SLURM_GPUS_ON_NODE", std::to_string(n));
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

// What one node said of its tasks' ends, merged as srun merges them: "cn01: tasks 0-3: ...".
struct TaskEnd {
    std::string node;
    std::string text; // "Exited with exit code 3", "Killed"
    std::vector<std::uint32_t> tasks;
};

// "0-3,5" (Slurm's bit_fmt()).
std::string taskRanges(std::vector<std::uint32_t> tasks)
{
    std::sort(tasks.begin(), tasks.end());
    std::string text = mc::sched::formatArrayTasks(tasks, 0);
    return text.substr(1, text.size() - 2);
}

std::string tasksWord(std::size_t n)
{
    return n == 1 ? "task" : "tasks";
}

// The tasks each node runs, by distribution: block fills a node before the next, cyclic deals
// one task per node in turn (both within the controller's per-node counts), plane deals blocks
// of `plane` tasks in turn, which also decides how many each node gets (as in Slurm: -n4
// -m plane=3 on two nodes runs 3 and 1).
std::vector<std::vector<int>> placeTasks(
    const std::vector<int> &perNode, ia::Distribution distribution, int plane)
{
    std::vector<std::vector<int>> ids(perNode.size());
    int total = 0;
    for (int n : perNode) {
        total += n;
    }
    if (distribution == ia::Distribution::Block || perNode.empty()) {
        int next = 0;
        for (std::size_t k = 0; k < perNode.size(); ++k) {
            for (int t = 0; t < perNode[k]; ++t) {
                ids[k].push_back(next++);
            }
        }
        return ids;
    }
    const int chunk = distribution == ia::Distribution::Plane ? std::max(1, plane) : 1;
    std::size_t k = 0;
    const bool capped = distribution != ia::Distribution::Plane;
    for (int t = 0; t < total;) {
        for (int c = 0;
             c < chunk && t < total && (!capped || static_cast<int>(ids[k].size()) < perNode[k]);
             ++c) {
            ids[k].push_back(t++);
        }
        k = (k + 1) % perNode.size();
    }
    return ids;
}

class Srun {
public:
    int run(int argc, char **argv);

private:
    int fail(int code);
    bool checkMpi(int &exitCode) const;
    bool multiProgCommand(int &exitCode);
    void applyExport();
    bool launch(const mc::record::StepGrant &grant);
    // `oom`: the node saw the step go over its memory (the task was OOM-killed).
    void noteTaskEnd(const std::string &node, int task, int code, int sig, bool oom = false);
    void terminateStep(int signal);
    void waitExpired();
    void sayTaskEnds();
    int relay();
    void finish(int exitCode, int exitSignal);
    mc::record::Usage totalUsage() const;
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
    std::map<int, int> m_taskState; // task -> 1 exited, 2 exited abnormally (-W's report)
    std::vector<TaskEnd> m_ends; // said once the step is over (and the terminal restored)
    std::vector<std::string> m_notices; // slurmstepd's lines (OOM), said after the ends
    bool m_abortSaid = false; // "Job step aborted" (scancel JOB.STEP), said once for all nodes
    bool m_outOfMemory = false; // a task was OOM-killed: the step ends OUT_OF_MEMORY
    int m_tasksEnded = 0;
    bool m_terminating = false; // -K or -W already ended the step
    std::int64_t m_killAt = -1; // ms (steady clock) when SIGKILL follows -K's SIGTERM
    std::int64_t m_waitUntil = -1; // -W: when the step ends after its first task
};

std::int64_t nowMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

constexpr int kKillWaitMs = 30000; // Slurm's default KillWait (30 s) between SIGTERM and SIGKILL

bool Srun::checkMpi(int &exitCode) const
{
    if (!m_opts.mpi) {
        return true;
    }
    const std::string &type = *m_opts.mpi;
    if (type == "list") {
        std::fputs("MPI plugin types are...\n\tnone\n\tpmi2\n\tpmix\n", stdout);
        exitCode = 0;
        return false;
    }
    if (type == "none") {
        return true;
    }
    if (type == "pmi2" || type == "pmix") {
        // No PMI server runs on minicluster's nodes: each task would start as its own
        // one-rank MPI job. Open MPI's mpirun (which starts its daemons with --mpi=none) is
        // the way to run MPI programs here.
        ia::say(kProgram,
            "warning: --mpi=" + type
                + " is not supported by minicluster (no PMI server): each task starts as a "
                  "single MPI rank; run MPI programs with mpirun inside the allocation");
        return true;
    }
    ia::sayError(kProgram,
        "Couldn't find the specified plugin name for mpi/" + type + " looking at all files");
    ia::sayError(kProgram, "cannot find mpi plugin for mpi/" + type);
    ia::sayError(kProgram, "MPI: Cannot create context for mpi/" + type);
    ia::sayError(kProgram, "Invalid MPI type '" + type + "', --mpi=list for acceptable types");
    exitCode = 1;
    return false;
}

// --multi-prog: the command is a configuration file whose lines give each task its program
// ("0-1 hostname", "* echo task %t"). Every task runs one bash that picks its line by
// $SLURM_PROCID, so the file is read once, here, as srun reads it.
bool Srun::multiProgCommand(int &exitCode)
{
    exitCode = 1;
    std::ifstream in(m_command.front());
    if (!in) {
        ia::sayError(kProgram, "Could not open multi_prog config file " + m_command.front());
        return false;
    }
    auto quote = [](const std::string &word) {
        std::string q = "'";
        for (char c : word) {
            q += c == '\'' ? std::string("'\\''") : std::string(1, c);
        }
        return q + "'";
    };
    std::string script = "case $SLURM_PROCID in\n";
    std::string fallback; // the "*" line, for the tasks no other line names
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        auto hash = line.find('#');
        std::string text = line.substr(0, hash);
        std::vector<std::string> words;
        for (std::size_t at = 0; at < text.size();) {
            at = text.find_first_not_of(" \t\r", at);
            if (at == std::string::npos) {
                break;
            }
            auto end = text.find_first_of(" \t\r", at);
            words.push_back(text.substr(at, end == std::string::npos ? end : end - at));
            at = end;
        }
        if (words.empty()) {
            continue;
        }
        if (words.size() < 2) {
            ia::sayError(kProgram, "Invalid MPMD configuration line " + std::to_string(number));
            return false;
        }
        // Ranks: "*" or a list of numbers and ranges ("0,2-3"); %t is the task's rank, %o its
        // offset within the line's ranks.
        std::vector<int> ranks;
        bool any = words[0] == "*";
        for (std::size_t at = 0; !any && at <= words[0].size();) {
            auto comma = words[0].find(',', at);
            std::string item = words[0].substr(at, comma == std::string::npos ? comma : comma - at);
            at = comma == std::string::npos ? words[0].size() + 1 : comma + 1;
            auto dash = item.find('-');
            auto lo = mc::cmd::parseInteger(item.substr(0, dash));
            auto hi = dash == std::string::npos ? lo : mc::cmd::parseInteger(item.substr(dash + 1));
            if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > 100000) {
                ia::sayError(kProgram, "Invalid task range specification (" + words[0] + ")");
                return false;
            }
            for (auto r = *lo; r <= *hi; ++r) {
                ranks.push_back(static_cast<int>(r));
            }
        }
        auto command = [&](const std::string &offset) {
            std::string out = "exec";
            for (std::size_t w = 1; w < words.size(); ++w) {
                std::string word = words[w];
                std::string expanded;
                for (std::size_t c = 0; c < word.size(); ++c) {
                    if (word[c] == '%' && c + 1 < word.size()
                        && (word[c + 1] == 't' || word[c + 1] == 'o')) {
                        expanded += word[c + 1] == 't' ? "'\"$SLURM_PROCID\"'" : offset;
                        ++c;
                    } else {
                        expanded
                            += word[c] == '\'' ? std::string("'\\''") : std::string(1, word[c]);
                    }
                }
                out += " '" + expanded + "'";
            }
            return out;
        };
        if (any && fallback.empty()) {
            fallback = "*) " + command("'\"$SLURM_PROCID\"'") + ";;\n";
        }
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            script += std::to_string(ranks[i]) + ") " + command(std::to_string(i)) + ";;\n";
        }
    }
    script += fallback.empty() ? std::string() : fallback;
    script += "*) echo \"srun: error: no program for task $SLURM_PROCID in "
        + quote(m_command.front()) + "\" >&2; exit 1;;\nesac\n";
    m_command = {"/bin/bash", "-c", script, "srun-multi-prog"};
    exitCode = 0;
    return true;
}

// --export (or $SLURM_EXPORT_ENV): NONE passes only SLURM_* variables; a list passes them and
// the named ones (NAME, or NAME=value to set it); ALL or ALL,... the whole environment.
void Srun::applyExport()
{
    if (!m_opts.exportEnv) {
        return;
    }
    std::vector<std::string> items;
    for (std::size_t at = 0; at <= m_opts.exportEnv->size();) {
        auto comma = m_opts.exportEnv->find(',', at);
        if (comma == std::string::npos) {
            comma = m_opts.exportEnv->size();
        }
        items.push_back(m_opts.exportEnv->substr(at, comma - at));
        at = comma + 1;
    }
    bool all = std::find(items.begin(), items.end(), "ALL") != items.end();
    std::vector<std::string> env;
    for (const auto &e : m_env) {
        if (all || e.rfind("SLURM_", 0) == 0) {
            env.push_back(e);
        }
    }
    for (const auto &item : items) {
        if (item == "ALL" || item == "NONE" || item.empty()) {
            continue;
        }
        auto eq = item.find('=');
        if (eq != std::string::npos) {
            ia::setEnv(env, item.substr(0, eq), item.substr(eq + 1));
        } else if (auto value = ia::getEnv(m_env, item)) {
            ia::setEnv(env, item, *value);
        }
    }
    m_env = std::move(env);
}

void Srun::noteTaskEnd(const std::string &node, int task, int code, int sig, bool oom)
{
    ++m_tasksEnded;
    m_outOfMemory = m_outOfMemory || oom;
    if (sig != 0 || code != 0) {
        std::string text = oom ? std::string("Out Of Memory")
            : sig != 0         ? std::string(::strsignal(sig))
                               : "Exited with exit code " + std::to_string(code);
        auto same = std::find_if(m_ends.begin(), m_ends.end(),
            [&](const TaskEnd &e) { return e.node == node && e.text == text; });
        if (same == m_ends.end()) {
            m_ends.push_back({node, text, {}});
            same = m_ends.end() - 1;
        }
        same->tasks.push_back(static_cast<std::uint32_t>(task));
    }
    if (sig != 0) {
        m_worstSignal = std::max(m_worstSignal, sig);
    }
    m_worstCode = std::max(m_worstCode, code);
    if ((sig != 0 || code != 0) && m_opts.killOnBadExit && !m_terminating) {
        sayTaskEnds(); // the failure first, then what srun does about it
        terminateStep(SIGTERM);
        m_killAt = nowMs() + kKillWaitMs;
    }
    if (m_tasksEnded == 1 && m_opts.waitSeconds && *m_opts.waitSeconds > 0) {
        m_waitUntil = nowMs() + *m_opts.waitSeconds * 1000LL;
    }
}

// The tasks' ends heard so far, one line per node and outcome; said at the end of the step
// (after the terminal is back to normal with --pty), or before -K ends the step.
void Srun::sayTaskEnds()
{
    if (m_rawTerminal) {
        return;
    }
    for (const auto &end : m_ends) {
        ia::sayError(kProgram,
            end.node + ": " + tasksWord(end.tasks.size()) + " " + taskRanges(end.tasks) + ": "
                + end.text);
    }
    m_ends.clear();
}

// -W: the first task ended that long ago. Slurm prints the tasks' states, then ends the step.
void Srun::waitExpired()
{
    const std::string step
        = "StepId=" + std::to_string(m_jobId) + "." + mc::record::stepIdText(m_stepId);
    ia::say(
        kProgram, "First task exited " + std::to_string(m_opts.waitSeconds.value_or(0)) + "s ago");
    std::vector<std::uint32_t> running, abnormal, exited;
    for (int t = 0; t < m_ntasks; ++t) {
        auto state = m_taskState.find(t);
        auto &list = state == m_taskState.end() ? running : state->second == 2 ? abnormal : exited;
        list.push_back(static_cast<std::uint32_t>(t));
    }
    for (const auto &[list, what] : {std::pair{&running, "running"},
             std::pair{&abnormal, "exited abnormally"}, std::pair{&exited, "exited"}}) {
        if (!list->empty()) {
            ia::say(kProgram,
                step + " " + tasksWord(list->size()) + " " + taskRanges(*list) + ": " + what);
        }
    }
    terminateStep(SIGKILL);
}

// Slurm's launch_p_step_terminate(): "Terminating StepId=..." and the signal to every node.
void Srun::terminateStep(int signal)
{
    if (!m_terminating) {
        ia::say(kProgram,
            "Terminating StepId=" + std::to_string(m_jobId) + "."
                + mc::record::stepIdText(m_stepId));
    }
    m_terminating = true;
    Json order = Json::object();
    order.set("op", "signal");
    order.set("signal", signal);
    for (const auto &n : m_nodes) {
        if (!n.done) {
            mc::proto::writeAll(n.fd, order.dump() + "\n");
        }
    }
}

int Srun::fail(int code)
{
    if (m_ownAllocation) {
        ia::release(m_link, m_jobId, 1, 0);
    }
    return code;
}

int Srun::run(int argc, char **argv)
{
    const mc::cmd::Context ctx = mc::cmd::systemContext(argc, argv);
    ia::CommandLine line = ia::parseSrunCommandLine(ctx);
    if (line.end) {
        return mc::cmd::deliver(ctx, *line.end);
    }
    m_opts = std::move(line.opts);
    m_command = std::move(line.command);
    int exitCode = 0;
    if (!checkMpi(exitCode)) {
        return exitCode;
    }
    std::string name = mc::cmd::baseName(m_command.front());
    if (m_opts.multiProg && !multiProgCommand(exitCode)) {
        return exitCode;
    }
    m_env = ia::processEnvironment();
    applyExport();

    auto inJob = ia::getEnv(m_env, "SLURM_JOB_ID");
    if (m_opts.jobId || (inJob && !inJob->empty())) {
        m_jobId = m_opts.jobId ? *m_opts.jobId : std::atoll(inJob->c_str());
        // Without -N a step asks for the job's nodes, so fewer tasks than those get Slurm's
        // same warning as `-N`, and the step as many nodes as tasks.
        auto jobNodes = ia::getEnv(m_env, "SLURM_NNODES");
        if (!jobNodes || jobNodes->empty()) {
            jobNodes = ia::getEnv(m_env, "SLURM_JOB_NUM_NODES");
        }
        if (m_opts.ntasks && !m_opts.nodes && jobNodes && std::atoi(jobNodes->c_str()) > 0) {
            mc::cmd::JobOptionValues counts;
            counts.ntasks = m_opts.ntasks;
            counts.nodes = std::atoi(jobNodes->c_str());
            if (auto warning = mc::cmd::fitNodesToTasks(counts)) {
                std::fprintf(stderr, "srun: Warning: %s\n", warning->c_str()); // also with -Q
                m_opts.nodes = counts.nodes;
            }
        }
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

    mc::record::StepSpec stepSpec;
    stepSpec.job = mc::sched::JobId{static_cast<std::uint32_t>(m_jobId)};
    stepSpec.user = ia::currentUser().name;
    stepSpec.ntasks = m_opts.ntasks.value_or(0);
    if (!m_opts.ntasks && m_opts.ntasksPerNode) {
        stepSpec.ntasks = *m_opts.ntasksPerNode * m_opts.nodes.value_or(1);
    }
    stepSpec.nodes = m_opts.nodes.value_or(0);
    stepSpec.ntasksPerNode = m_opts.ntasksPerNode.value_or(0);
    stepSpec.nodeList = m_opts.nodeList;
    stepSpec.excludeNodes = m_opts.excludeNodes;
    stepSpec.cpusPerTask = m_opts.cpusPerTask.value_or(1);
    stepSpec.exact = m_opts.exact || m_opts.cpusPerTask.has_value(); // -c implies --exact
    stepSpec.name = name;
    stepSpec.pty = m_opts.pty;
    stepSpec.interactive = m_opts.interactive;
    const Json request = mc::record::stepCreateRequest(stepSpec);
    auto step = m_link.call(request);
    const bool waited = m_ownAllocation && step && !(*step)["ok"].toBool()
        && (*step)["errno"].toInt() == kJobPending;
    if (waited) {
        auto job = ia::awaitAllocation(kProgram, m_link, m_opts, false, m_jobId, exitCode);
        if (!job) {
            m_ownAllocation = false; // withdrawn or ended by the wait itself
            return exitCode;
        }
        ia::setAllocationEnv(m_env, job->job, job->clusterName, m_opts);
        step = m_link.call(request);
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
    const mc::record::StepGrant grant = mc::record::stepGrantFromJson(*step);
    if (m_ownAllocation && !waited) {
        // srun's own allocation granted at once: its variables come from the granted job.
        ia::setAllocationEnv(m_env,
            grant.job ? mc::record::jobObjectFromJson(mc::record::jobToJson(*grant.job))
                      : mc::record::JobObject{},
            grant.clusterName, m_opts);
    }
    m_stepId = grant.stepId;
    if (!launch(grant)) {
        finish(1, 0);
        return 1;
    }
    int code = relay();
    return code;
}

bool Srun::launch(const mc::record::StepGrant &grant)
{
    // The step's job is the controller's stored record (the public members and the spec),
    // decoded once; a reply without one leaves the job's user as srun's own.
    auto me = ia::currentUser();
    const mc::sched::Job job = grant.job.value_or([&me] {
        mc::sched::Job none;
        none.spec.user = me.name;
        none.spec.uid = me.uid;
        none.spec.gid = me.gid;
        return none;
    }());
    const mc::sched::JobSpec &spec = job.spec;
    const std::vector<std::string> &nodes = grant.nodes;
    std::vector<int> tasksPerNode = grant.tasksPerNode;
    const auto taskIds = placeTasks(tasksPerNode, m_opts.distribution, m_opts.planeSize);
    for (std::size_t k = 0; k < taskIds.size(); ++k) {
        tasksPerNode[k] = static_cast<int>(taskIds[k].size());
    }
    m_ntasks = grant.ntasks;
    const std::string stepNodeList = mc::sched::compressHostlist(nodes);
    const std::string id = std::to_string(m_jobId);
    const std::string stepId = std::to_string(m_stepId); // SLURM_STEP_ID: 4294967290 for salloc's
    const std::string stepName = mc::record::stepIdText(m_stepId); // StepId=12.interactive
    const std::string jobNodeList = mc::sched::compressHostlist(job.nodeList);
    const int cpusOnNode = job.cpusOnNode(0);

    std::vector<std::string> env = m_env;
    ia::setEnv(env, "SLURM_JOB_ID", id);
    ia::setEnv(env, "SLURM_JOBID", id);
    if (!ia::getEnv(env, "SLURM_JOB_NODELIST")) {
        ia::setEnv(env, "SLURM_JOB_NODELIST", jobNodeList);
        ia::setEnv(env, "SLURM_NODELIST", jobNodeList);
    }
    if (!ia::getEnv(env, "SLURM_CLUSTER_NAME")) {
        ia::setEnv(env, "SLURM_CLUSTER_NAME", grant.clusterName.value_or(""));
    }
    ia::setEnv(env, "SLURM_STEP_ID", stepId);
    ia::setEnv(env, "SLURM_STEPID", stepId);
    // Who the job runs as, as slurmstepd tells every task.
    ia::setEnv(env, "SLURM_JOB_UID", std::to_string(spec.uid));
    ia::setEnv(env, "SLURM_JOB_GID", std::to_string(spec.gid));
    ia::setEnv(env, "SLURM_JOB_USER", spec.user);
    ia::setEnv(env, "SLURM_STEP_NODELIST", stepNodeList);
    ia::setEnv(env, "SLURM_STEP_NUM_NODES", std::to_string(nodes.size()));
    ia::setEnv(env, "SLURM_STEP_NUM_TASKS", std::to_string(m_ntasks));
    ia::setEnv(env, "SLURM_STEP_TASKS_PER_NODE", mc::sched::compressCounts(tasksPerNode));
    if (!m_opts.preserveEnv) {
        ia::setEnv(env, "SLURM_NTASKS", std::to_string(m_ntasks));
        ia::setEnv(env, "SLURM_NPROCS", std::to_string(m_ntasks));
        ia::setEnv(env, "SLURM_NNODES", std::to_string(nodes.size()));
        ia::setEnv(env, "SLURM_TASKS_PER_NODE", mc::sched::compressCounts(tasksPerNode));
    }
    ia::setEnv(env, "SLURM_CPUS_ON_NODE", std::to_string(cpusOnNode));
    // The nodes' GPU type, for the emulated nvidia-smi the node puts on the tasks' PATH; each
    // node's own GPU variables are set below (gpuEnv).
    if (hasGpus(job)) {
        const std::string &type = job.gpuAllocType;
        ia::setEnv(env, "MINICLUSTER_GPU_TYPE", type.empty() ? std::string("gpu") : type);
    }
    if (m_opts.interactive) {
        // Slurm's interactive step: its distribution is left unknown (no SLURM_DISTRIBUTION),
        // slurmstepd takes SLURM_UMASK out, and keeps SLURM_MPI_TYPE even when it is "none"
        // (MpiDefault, which minicluster's presets leave at Slurm's default).
        ia::setEnv(env, "SLURM_MPI_TYPE", m_opts.mpi.value_or("none"));
    } else {
        // Without -m, Slurm names the distribution only for a step in an existing allocation
        // (salloc's, a batch job's): cyclic when each node gets at most one task.
        if (m_opts.distributionGiven || !m_ownAllocation) {
            const bool cyclic = m_opts.distributionGiven
                ? m_opts.distribution == ia::Distribution::Cyclic
                : static_cast<std::size_t>(m_ntasks) <= nodes.size();
            ia::setEnv(env, "SLURM_DISTRIBUTION",
                cyclic                                               ? "cyclic"
                    : m_opts.distribution == ia::Distribution::Plane ? "plane"
                                                                     : "block");
        }
        if (m_opts.distribution == ia::Distribution::Plane) {
            ia::setEnv(env, "SLURM_DIST_PLANESIZE", std::to_string(m_opts.planeSize));
        }
        // slurmstepd takes "none" out of a step's environment (mpi_process_env()), also when
        // inherited from salloc's interactive shell.
        std::erase_if(env, [](const std::string &e) { return e == "SLURM_MPI_TYPE=none"; });
        if (m_opts.mpi && *m_opts.mpi != "none") {
            ia::setEnv(env, "SLURM_MPI_TYPE", *m_opts.mpi);
        }
        ia::setEnv(env, "SLURM_UMASK", "0022");
    }
    ia::setEnv(env, "SLURM_SRUN_COMM_HOST", "127.0.0.1");
    ia::setEnv(env, "SLURM_LAUNCH_NODE_IPADDR", "127.0.0.1");
    // srun's own nice value, which slurmstepd leaves in the tasks' environment (Slurm's
    // PropagatePrioProcess=0).
    errno = 0;
    const int nice = ::getpriority(PRIO_PROCESS, 0);
    ia::setEnv(env, "SLURM_PRIO_PROCESS", std::to_string(errno == 0 ? nice : 0));
    if (const auto cpus = ia::getEnv(env, "SLURM_JOB_CPUS_PER_NODE"); cpus && !m_ownAllocation) {
        // srun in an allocation names it as the first component of a heterogeneous job, in
        // Slurm's old words (_set_env_vars()).
        ia::setEnv(env, "SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0", *cpus);
    }
    if (m_opts.cpusPerTask) {
        ia::setEnv(env, "SLURM_CPUS_PER_TASK", std::to_string(*m_opts.cpusPerTask));
    }
    if (m_opts.verbose > 0) {
        ia::say(kProgram,
            "jobid " + id + ": nodes(" + std::to_string(nodes.size()) + "):`" + stepNodeList
                + "', cpu counts: " + std::to_string(cpusOnNode) + "(x"
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
    const std::int64_t memMb = spec.memPerNode.value_or(job.memPerNode);
    for (std::size_t k = 0; k < nodes.size(); ++k) {
        const std::vector<int> mine = k < taskIds.size() ? taskIds[k] : std::vector<int>{0};
        if (mine.empty()) {
            continue; // -m plane dealt this node no task
        }
        NodeLink link;
        link.name = nodes[k];
        std::string error;
        link.fd = mc::proto::connectUnix(stepSocket(nodes[k]), error);
        if (link.fd < 0) {
            ia::sayError(kProgram,
                "Task launch for StepId=" + id + "." + stepName + " failed on node " + nodes[k]
                    + ": " + error);
            return false;
        }
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
        for (int t : mine) {
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
        std::vector<std::string> nodeEnv = env;
        Json taskEnv = Json::array();
        if (const std::vector<int> held = gpusOn(job, nodes[k]); !held.empty()) {
            gpuEnv(nodeEnv, held, 0, static_cast<int>(held.size()));
            // --gpus-per-task binds each task to its own GPUs of the node, in task order
            // (Slurm's implicit --gpu-bind=per_task:N).
            const int perTask = m_opts.gpusPerTask.value_or(0);
            for (std::size_t i = 0; perTask > 0 && i < mine.size(); ++i) {
                std::vector<std::string> own;
                gpuEnv(own, held, static_cast<int>(i) * perTask, perTask);
                taskEnv.push(mc::proto::stringList(own));
            }
        }
        Json request = Json::object();
        request.set("op", "step_launch");
        request.set("job_id", m_jobId);
        request.set("step_id", m_stepId);
        request.set("user", me.name);
        request.set("uid", static_cast<std::int64_t>(spec.uid));
        request.set("gid", static_cast<std::int64_t>(spec.gid));
        request.set("argv", mc::proto::stringList(m_command));
        request.set("env", mc::proto::stringList(nodeEnv));
        if (!taskEnv.items().empty()) {
            request.set("task_env", std::move(taskEnv));
        }
        request.set("cwd", cwd);
        request.set("tasks", std::move(tasks));
        request.set("node_id", static_cast<std::int64_t>(k));
        request.set("ntasks", m_ntasks);
        request.set("pty", m_opts.pty);
        request.set("fds_per_task", m_opts.label && !m_opts.pty);
        request.set("mem_mb", memMb);
        request.set("cpus", cpusOnNode);
        if (m_opts.verbose > 0) {
            std::string list;
            for (int t : mine) {
                list += (list.empty() ? "" : ",") + std::to_string(t);
            }
            ia::say(kProgram,
                "launching StepId=" + id + "." + stepName + " on host " + nodes[k] + ", "
                    + std::to_string(mine.size()) + " tasks: " + list);
        }
        bool sent = sendWithFds(link.fd, request.dump() + "\n", fds);
        for (int fd : closeAfter) {
            ::close(fd);
        }
        if (!sent) {
            ia::sayError(kProgram,
                "Task launch for StepId=" + id + "." + stepName + " failed on node " + nodes[k]
                    + ": " + std::strerror(errno));
            ::close(link.fd);
            return false;
        }
        m_nodes.push_back(std::move(link));
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
        int timeout = -1;
        for (std::int64_t at : {m_killAt, m_waitUntil}) {
            if (at >= 0) {
                int left = static_cast<int>(std::max<std::int64_t>(0, at - nowMs()));
                timeout = timeout < 0 ? left : std::min(timeout, left);
            }
        }
        if (m_killAt >= 0 && nowMs() >= m_killAt) {
            m_killAt = -1;
            terminateStep(SIGKILL);
        }
        if (m_waitUntil >= 0 && nowMs() >= m_waitUntil) {
            m_waitUntil = -1;
            waitExpired();
        }
        if (::poll(fds.data(), fds.size(), timeout) < 0) {
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
                    const auto exit = mc::record::taskExitFromJson(*event);
                    m_taskState[exit.task] = exit.exit.signal != 0 || exit.exit.code != 0 ? 2 : 1;
                    noteTaskEnd(n.name, exit.task, exit.exit.code, exit.exit.signal, exit.oom);
                } else if (kind == "aborted") {
                    // scancel of this step: slurmstepd's notice, then srun's own line, at once
                    // (before the tasks' ends), as Slurm's srun says them.
                    std::fputs((*event)["text"].toString().c_str(), stderr);
                    if (!m_abortSaid) {
                        m_abortSaid = true;
                        std::fprintf(stderr,
                            "srun: Job step aborted: Waiting up to %lld seconds for job step to "
                            "finish.\n",
                            static_cast<long long>((*event)["kill_wait"].toInt(30) + 2));
                    }
                } else if (kind == "notice") {
                    m_notices.push_back((*event)["text"].toString());
                } else if (kind == "usage") {
                    n.usage = mc::record::usageFromJson((*event)["usage"]);
                    reportUsage();
                } else if (kind == "step_done") {
                    const auto done = mc::record::stepDoneFromJson(*event);
                    n.usage = done.usage;
                    n.done = true;
                    m_outOfMemory = m_outOfMemory || done.oom;
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
        m_rawTerminal = false;
    }
    sayTaskEnds();
    for (const auto &notice : m_notices) {
        std::fputs(notice.c_str(), stderr); // slurmstepd-cn01: error: Detected 1 oom-kill ...
    }
    if (m_outOfMemory) {
        // Slurm records the step OUT_OF_MEMORY with ExitCode 0:125, and srun exits 1.
        finish(0, 125);
        return 1;
    }
    finish(m_worstCode, m_worstSignal);
    if (m_worstSignal != 0) {
        return 128 + m_worstSignal;
    }
    return m_worstCode;
}

mc::record::Usage Srun::totalUsage() const
{
    mc::record::Usage total;
    for (const auto &n : m_nodes) {
        total.totalCpuMs += n.usage.totalCpuMs;
        total.maxRssKb = std::max(total.maxRssKb, n.usage.maxRssKb);
        total.aveRssKb += n.usage.aveRssKb;
    }
    if (!m_nodes.empty()) {
        total.aveRssKb /= static_cast<std::int64_t>(m_nodes.size());
    }
    return total;
}

void Srun::reportUsage()
{
    Json request = Json::object();
    request.set("op", "step_usage");
    request.set("job_id", m_jobId);
    request.set("step_id", m_stepId);
    request.set("usage", mc::record::usageToJson(totalUsage()));
    m_link.call(request);
}

void Srun::finish(int exitCode, int exitSignal)
{
    const mc::sched::JobId job{static_cast<std::uint32_t>(m_jobId)};
    mc::record::StepEnd end;
    end.job = job;
    end.stepId = m_stepId;
    end.exit = {exitCode, exitSignal};
    end.usage = totalUsage();
    end.oom = m_outOfMemory;
    if (!m_ownAllocation) {
        m_link.call(mc::record::stepEndToJson(end));
        return;
    }
    // The step's end rides with the release of srun's own allocation: one round trip.
    m_link.call(mc::record::allocReleaseToJson({job, {exitCode, exitSignal}, false, end}));
}

} // namespace

int main(int argc, char **argv)
{
    std::signal(SIGPIPE, SIG_IGN);
    return Srun().run(argc, argv);
}
