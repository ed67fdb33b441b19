#include "mc/launch/cluster_control.h"

#include "mc/base/file.h"
#include "mc/emu/job_limiter.h"
#include "mc/emu/login_watcher.h"
#include "mc/emu/process.h"
#include "mc/emu/sandbox.h"
#include "mc/emu/shell_history.h"
#include "mc/launch/cluster_setup.h"
#include "mc/proto/client.h"
#include "mc/proto/identity.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/slurm_conf.h"
#include "mc/ws/workstation.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace mc::launch {

using proto::Json;

std::optional<Json> callController(const ClusterOptions &o, const Json &request)
{
    proto::Client client;
    client.setTimeout(proto::messageTimeout(o.layout.etc() + "/slurm.conf") * 1000);
    std::string error;
    if (!client.connect(o.layout.socket(), error)) {
        return std::nullopt;
    }
    return client.call(request, error);
}

namespace {

int messageTimeout(const ClusterOptions &o)
{
    return proto::messageTimeout(o.layout.etc() + "/slurm.conf");
}

std::optional<Json> call(const ClusterOptions &o, const Json &request)
{
    return callController(o, request);
}

Json op(std::string_view name)
{
    Json j = Json::object();
    j.set("op", name);
    return j;
}

std::string readFirstLine(const std::string &path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

emu::SandboxMode recordedMode(const ClusterOptions &o)
{
    return readFirstLine(o.layout.run() + "/sandbox") == "bubblewrap" ? emu::SandboxMode::Bubblewrap
                                                                      : emu::SandboxMode::Plain;
}

pid_t startDaemon(const std::vector<std::string> &argv, const std::string &logPath)
{
    emu::SpawnSpec spec;
    spec.argv = argv;
    for (char **e = environ; *e; ++e) {
        spec.env.emplace_back(*e);
    }
    spec.stdoutPath = logPath;
    spec.append = true;
    std::string error;
    pid_t pid = emu::spawnProcess(spec, error);
    if (pid < 0) {
        std::fprintf(stderr, "minicluster: cannot start %s: %s\n", argv[0].c_str(), error.c_str());
    }
    return pid;
}

template <typename Pred> bool waitFor(Pred pred, std::chrono::milliseconds timeout)
{
    auto end = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < end) {
        if (pred()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return pred();
}

bool allNodesUp(const ClusterOptions &o)
{
    auto reply = call(o, op("cluster"));
    if (!reply) {
        return false;
    }
    for (const auto &n : (*reply)["nodes"].items()) {
        if (n["state"].toString() == "down") {
            return false;
        }
    }
    return true;
}

// The pid recorded in `pidFile` when it is a live process of `program` for this cluster: its
// /proc/PID/exe (which no process can change, unlike a pid file or its own command line) is
// minicluster's `program`, and its command line names the cluster directory and `mention`.
// 0 otherwise: a pid read from a file alone is never signalled.
pid_t verifiedPid(const ClusterOptions &o, const std::string &pidFile, const std::string &program,
    const std::string &mention = {})
{
    const pid_t pid = static_cast<pid_t>(std::atoi(readFirstLine(pidFile).c_str()));
    if (pid <= 1) {
        return 0;
    }
    const std::string proc = "/proc/" + std::to_string(pid);
    std::ifstream in(proc + "/cmdline");
    std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::error_code ec;
    std::string exe = std::filesystem::read_symlink(proc + "/exe", ec).string();
    struct stat owner { };
    if (ec == std::errc::permission_denied && ::stat(proc.c_str(), &owner) == 0
        && owner.st_uid == ::geteuid()) {
        // A daemon in another of the owner's user namespaces (user_namespace.h) hides its exe
        // from this one. It runs as us (no other user's process is taken on its word); its
        // argv[0] is ours (startDaemon), and the directory is checked below.
        exe = cmdline.substr(0, cmdline.find('\0'));
        ec.clear();
    }
    if (const auto deleted = exe.rfind(" (deleted)"); deleted != std::string::npos) {
        exe.resize(deleted); // rebuilt while it ran
    }
    if (ec || std::filesystem::path(exe).filename() != program) {
        return 0;
    }
    std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
    cmdline += ' ';
    if (cmdline.find(" " + o.layout.dir + " ") == std::string::npos
        || (!mention.empty() && cmdline.find(" " + mention + " ") == std::string::npos)) {
        return 0;
    }
    return pid;
}

pid_t controllerPid(const ClusterOptions &o)
{
    return verifiedPid(o, o.layout.run() + "/ctld.pid", "minicluster-ctld");
}

std::string defaultUser(const ClusterOptions &o)
{
    if (!o.user.empty()) {
        return o.user;
    }
    auto users = sched::parseSiteUsers(base::fileText(o.layout.etc() + "/minicluster.conf"));
    return users.users.empty() ? std::string("alice") : users.users.front().name;
}

} // namespace

EmulatedUser emulatedUser(const ClusterOptions &options)
{
    EmulatedUser who;
    who.name = defaultUser(options);
    auto users = sched::parseSiteUsers(base::fileText(options.layout.etc() + "/minicluster.conf"));
    if (const sched::SiteUser *u = users.find(who.name)) {
        who.account = u->defaultAccount;
    }
    return who;
}

bool isUp(const ClusterOptions &options)
{
    auto reply = call(options, op("ping"));
    return reply && (*reply)["ok"].toBool();
}

namespace {

std::vector<std::string> readLines(const std::string &path)
{
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

// The live minicluster-noded of `node` (run/noded-NODE.pid, verified), or 0.
pid_t nodePid(const ClusterOptions &o, const std::string &node)
{
    return verifiedPid(o, o.layout.run() + "/noded-" + node + ".pid", "minicluster-noded", node);
}

bool nodeAlive(const ClusterOptions &o, const std::string &node)
{
    return nodePid(o, node) > 0;
}

// The run/noded-NODE.pid files whose node daemon still lives.
std::vector<std::string> liveNodePidFiles(const ClusterOptions &o)
{
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto &entry : std::filesystem::directory_iterator(o.layout.run(), ec)) {
        std::string name = entry.path().filename().string();
        if (name.rfind("noded-", 0) == 0 && name.size() > 10
            && name.compare(name.size() - 4, 4, ".pid") == 0
            && nodeAlive(o, name.substr(6, name.size() - 10))) {
            files.push_back(entry.path().string());
        }
    }
    return files;
}

bool anyNodeAlive(const ClusterOptions &o)
{
    return !liveNodePidFiles(o).empty();
}

bool startController(const ClusterOptions &o)
{
    pid_t ctld = startDaemon(
        {o.binDir + "/minicluster-ctld", "--dir", o.layout.dir}, o.layout.log() + "/ctld.log");
    if (ctld < 0 || !waitFor([&] { return isUp(o); }, std::chrono::seconds(10))) {
        std::fprintf(stderr, "minicluster: the controller did not start; see %s/ctld.log\n",
            o.layout.log().c_str());
        return false;
    }
    return true;
}

void startNode(
    const ClusterOptions &o, const std::string &node, const std::vector<std::string> &args)
{
    std::vector<std::string> argv
        = {o.binDir + "/minicluster-noded", "--dir", o.layout.dir, "--node", node};
    argv.insert(argv.end(), args.begin(), args.end());
    pid_t pid = startDaemon(argv, o.layout.log() + "/noded-" + node + ".log");
    std::ofstream(o.layout.run() + "/noded-" + node + ".pid") << pid << '\n';
}

// The storage node (minicluster-stored): quotas snapshot and scratch purge on the cluster clock.
pid_t storagePid(const ClusterOptions &o)
{
    return verifiedPid(o, o.layout.run() + "/stored.pid", "minicluster-stored");
}

bool storageAlive(const ClusterOptions &o)
{
    return storagePid(o) > 0;
}

void startStorage(const ClusterOptions &o, emu::SandboxMode mode)
{
    pid_t pid = startDaemon({o.binDir + "/minicluster-stored", "--dir", o.layout.dir, "--sandbox",
                                std::string(emu::modeName(mode))},
        o.layout.log() + "/stored.log");
    std::ofstream(o.layout.run() + "/stored.pid") << pid << '\n';
}

// The login node's watchdog (minicluster-logind, mc/emu/login_watcher.h).
pid_t logindPid(const ClusterOptions &o)
{
    return verifiedPid(o, o.layout.run() + "/logind.pid", "minicluster-logind");
}

bool logindAlive(const ClusterOptions &o)
{
    return logindPid(o) > 0;
}

void startLogind(const ClusterOptions &o)
{
    std::string limits = readFirstLine(o.layout.run() + "/limits");
    pid_t pid = startDaemon({o.binDir + "/minicluster-logind", "--dir", o.layout.dir, "--limits",
                                limits.empty() ? std::string("rlimit") : limits},
        o.layout.log() + "/logind.log");
    std::ofstream(o.layout.run() + "/logind.pid") << pid << '\n';
}

// With users on ids of their own, run/ is the daemons' (it is bound into every node, read-only):
// the users reach the sockets they talk to and the storage node's usage snapshot that
// diskusage_report reads, and their own shell history, by name; they cannot list run/ nor read
// the daemons' pid files and settings or a classmate's history or purge notes. Done after the
// daemons have written theirs; sockets keep the modes their daemons gave them.
void hideRunFiles(const ClusterOptions &o)
{
    namespace fs = std::filesystem;
    if (recordedMode(o) != emu::SandboxMode::Bubblewrap || !proto::usersIsolated()) {
        return;
    }
    const auto traverse = fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec;
    const auto readable = fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read
        | fs::perms::others_read;
    const auto own = fs::perms::owner_read | fs::perms::owner_write;
    std::error_code ec;
    for (const auto &dir :
        {o.layout.run(), o.layout.run() + "/history", o.layout.run() + "/storage"}) {
        fs::permissions(dir, traverse, ec);
    }
    for (const auto &dir : {o.layout.run(), o.layout.run() + "/storage"}) {
        for (const auto &entry : fs::directory_iterator(dir, ec)) {
            if (entry.is_regular_file(ec)) {
                fs::permissions(
                    entry.path(), entry.path().filename() == "usage.tsv" ? readable : own, ec);
            }
        }
    }
    for (const auto &entry : fs::directory_iterator(o.layout.run() + "/history", ec)) {
        fs::permissions(entry.path(), own, ec); // each one its user's (prepareCluster)
    }
}

// The cluster runs in part (a daemon died): start what is missing with the settings it was
// started with, so the controller reloads its queue and the nodes rejoin.
int restart(
    const ClusterOptions &o, bool ctldUp, const std::vector<std::string> &nodeArgs, bool quiet)
{
    SetupResult setup = prepareCluster(o.layout, o.preset, o.binDir, recordedMode(o));
    if (!setup.ok) {
        std::fprintf(stderr, "minicluster: %s\n", setup.error.c_str());
        return 1;
    }
    std::vector<std::string> started;
    if (!ctldUp) {
        if (!startController(o)) {
            return 1;
        }
        started.push_back("controller");
    }
    for (const auto &node : setup.nodes) {
        if (!nodeAlive(o, node)) {
            startNode(o, node, nodeArgs);
            started.push_back(node);
        }
    }
    if (!storageAlive(o)) {
        startStorage(o, recordedMode(o));
        started.push_back("storage1");
    }
    if (!logindAlive(o)) {
        startLogind(o);
        started.push_back("login1");
    }
    if (!waitFor([&] { return allNodesUp(o); }, std::chrono::seconds(10))) {
        std::fprintf(stderr, "minicluster: some nodes did not register; see %s/noded-*.log\n",
            o.layout.log().c_str());
        return 1;
    }
    hideRunFiles(o);
    if (!quiet) {
        if (started.empty()) {
            std::printf("minicluster: the cluster in %s is already up\n", o.layout.dir.c_str());
        } else {
            std::string list;
            for (const auto &s : started) {
                list += (list.empty() ? "" : " ") + s;
            }
            std::printf("minicluster: restarted %s in %s\n", list.c_str(), o.layout.dir.c_str());
        }
    }
    return 0;
}

} // namespace

// `minicluster up` and `status` say it in the same words: whether a student's jobs are out of
// a classmate's reach.
static std::string usersIsolation(bool bubblewrap)
{
    return bubblewrap ? proto::isolationDetail()
                      : "not isolated (the plain fallback runs every user's jobs as your own uid "
                        "on this computer: classmates can read and kill each other's work)";
}

int up(const ClusterOptions &o, bool quiet)
{
    if (o.presetGiven && std::filesystem::exists(o.layout.etc() + "/slurm.conf")) {
        // The preset only seeds a new directory: said, rather than ignored silently.
        std::fprintf(stderr,
            "minicluster: --preset %s ignored: %s already holds a cluster, whose etc/slurm.conf "
            "and etc/minicluster.conf are kept.\n"
            "minicluster: to start fresh with the %s preset, use a new directory (--dir) or "
            "`minicluster --dir %s down` and remove that directory first.\n",
            o.preset.c_str(), o.layout.dir.c_str(), o.preset.c_str(), o.layout.dir.c_str());
    }
    std::vector<std::string> nodeArgsSaved = readLines(o.layout.run() + "/noded-args");
    bool ctldUp = isUp(o);
    if (!ctldUp && controllerPid(o) > 0) { // a second controller would take over its socket
        std::fprintf(stderr,
            "minicluster: the controller (pid %d) of %s does not answer; `minicluster down` "
            "stops it\n",
            static_cast<int>(controllerPid(o)), o.layout.dir.c_str());
        return 1;
    }
    if (ctldUp || (!nodeArgsSaved.empty() && anyNodeAlive(o))) {
        return restart(o, ctldUp, nodeArgsSaved, quiet);
    }
    emu::SandboxProbe probe;
    if (o.sandbox == "plain") {
        probe.detail = "chosen with --sandbox plain";
    } else {
        probe = emu::probeSandbox();
        if (o.sandbox == "bubblewrap" && probe.mode != emu::SandboxMode::Bubblewrap) {
            std::fprintf(stderr, "minicluster: --sandbox bubblewrap: %s\n", probe.detail.c_str());
            return 1;
        }
    }
    emu::LimitProbe limits = emu::probeLimits(o.limits);
    if (!limits.ok) {
        std::fprintf(
            stderr, "minicluster: --limits %s: %s\n", o.limits.c_str(), limits.detail.c_str());
        return 1;
    }
    SetupResult setup = prepareCluster(o.layout, o.preset, o.binDir, probe.mode);
    if (!setup.ok) {
        std::fprintf(stderr, "minicluster: %s\n", setup.error.c_str());
        return 1;
    }
    for (const auto &w : setup.warnings) {
        std::fprintf(stderr, "minicluster: warning: %s\n", w.c_str());
    }
    if (!setup.notImplemented.empty()) {
        std::string keys;
        for (const auto &key : setup.notImplemented) {
            keys += (keys.empty() ? "" : ", ") + key;
        }
        std::fprintf(stderr,
            "minicluster: etc/slurm.conf sets keys minicluster does not implement (accepted, "
            "without effect): %s\n",
            keys.c_str());
    }
    std::vector<std::string> nodeArgs = {"--sandbox", std::string(emu::modeName(probe.mode)),
        "--kill-wait", std::to_string(setup.killWait), "--limits",
        std::string(emu::limitModeName(limits.mode)), "--time-scale", std::to_string(o.timeScale)};
    {
        std::ofstream mode(o.layout.run() + "/sandbox");
        mode << emu::modeName(probe.mode) << '\n' << probe.detail << '\n';
        std::ofstream limitsFile(o.layout.run() + "/limits");
        limitsFile << emu::limitModeName(limits.mode) << '\n' << limits.detail << '\n';
        if (o.timeScale > 1) {
            limitsFile << "the cluster clock runs " << o.timeScale << " times faster\n";
        }
        std::ofstream args(o.layout.run() + "/noded-args");
        for (const auto &a : nodeArgs) {
            args << a << '\n';
        }
    }
    if (!startController(o)) {
        return 1;
    }
    if (o.timeScale > 1) { // the one cluster clock, which time limits follow as all else
        Json speed = op("clock");
        speed.set("speed", o.timeScale);
        call(o, speed);
    }
    for (const auto &node : setup.nodes) {
        startNode(o, node, nodeArgs);
    }
    startStorage(o, probe.mode);
    startLogind(o);
    if (!waitFor([&] { return allNodesUp(o); }, std::chrono::seconds(10))) {
        std::fprintf(stderr, "minicluster: some nodes did not register; see %s/noded-*.log\n",
            o.layout.log().c_str());
        return 1;
    }
    hideRunFiles(o);
    if (!quiet) {
        std::printf("minicluster: cluster up in %s (%zu compute nodes, sandbox: %s, limits: %s)\n",
            o.layout.dir.c_str(), setup.nodes.size(),
            std::string(emu::modeName(probe.mode)).c_str(),
            std::string(emu::limitModeName(limits.mode)).c_str());
        if (probe.mode != emu::SandboxMode::Bubblewrap || !proto::usersIsolated()) {
            std::printf("minicluster: users are %s\n",
                usersIsolation(probe.mode == emu::SandboxMode::Bubblewrap).c_str());
        }
    }
    return 0;
}

// `signal` to every node daemon, the storage node and logind that still run (verified).
static void signalDaemons(const ClusterOptions &o, int signal)
{
    for (const auto &file : liveNodePidFiles(o)) {
        const std::string name = std::filesystem::path(file).filename().string();
        if (pid_t pid = nodePid(o, name.substr(6, name.size() - 10)); pid > 0) {
            ::kill(pid, signal);
        }
    }
    for (pid_t pid : {storagePid(o), logindPid(o)}) {
        if (pid > 0) {
            ::kill(pid, signal);
        }
    }
}

static bool daemonsGone(const ClusterOptions &o)
{
    return !anyNodeAlive(o) && !storageAlive(o) && !logindAlive(o);
}

// Waits for the daemons to leave; those still there after 10 s get SIGKILL.
static void awaitDaemons(const ClusterOptions &o)
{
    if (waitFor([&] { return daemonsGone(o); }, std::chrono::seconds(10))) {
        return;
    }
    std::printf("minicluster: some daemons of %s did not stop within 10 s: killing them (see %s)\n",
        o.layout.dir.c_str(), o.layout.log().c_str());
    signalDaemons(o, SIGKILL);
    waitFor([&] { return daemonsGone(o); }, std::chrono::seconds(5));
}

namespace {

// Says what `down` does to the jobs that run (issue #18): they are killed, and the next `up`
// finds them lost on their nodes (docs/design.md, "At most once"). False when the
// controller did not answer.
bool sayRunningJobsStop(const ClusterOptions &o)
{
    Json request = op("jobs");
    request.set("states", proto::stringList({"RUNNING", "COMPLETING"}));
    request.set("fields", proto::stringList({"job_id"}));
    auto reply = call(o, request);
    const std::size_t running = reply ? (*reply)["jobs"].size() : 0;
    if (running == 0) {
        return reply.has_value();
    }
    std::printf("minicluster: stopping %zu running job%s: the next `minicluster up` requeues "
                "%s, to run again from the beginning about two minutes later (BeginTime; output "
                "files start over); jobs submitted with --no-requeue and salloc/srun "
                "allocations end NODE_FAIL instead\n",
        running, running == 1 ? "" : "s", running == 1 ? "it" : "them");
    return true;
}

} // namespace

int down(const ClusterOptions &o)
{
    const pid_t ctld = controllerPid(o);
    if (!sayRunningJobsStop(o) || !call(o, op("shutdown"))) {
        if (ctld > 0) {
            // It holds the socket and does not answer (stopped, or hung): killed, and the
            // daemons it would have told to leave are told here.
            std::printf("minicluster: the controller (pid %d) did not answer within "
                        "MessageTimeout=%d s: killing it\n",
                static_cast<int>(ctld), messageTimeout(o));
            ::kill(ctld, SIGKILL);
            waitFor([&] { return controllerPid(o) == 0 || ::kill(ctld, 0) != 0; },
                std::chrono::seconds(5));
        } else if (daemonsGone(o)) {
            std::printf("minicluster: the cluster in %s is not running\n", o.layout.dir.c_str());
            return 0;
        }
        // The controller is gone (it crashed, was killed, or was just killed here): the
        // daemons get SIGTERM instead, and stop their jobs.
        signalDaemons(o, SIGTERM);
        awaitDaemons(o);
        std::printf("minicluster: cluster in %s stopped (its controller %s)\n",
            o.layout.dir.c_str(), ctld > 0 ? "did not answer" : "was not running");
        return 0;
    }
    if (ctld > 0 && !waitFor([&] { return controllerPid(o) != ctld; }, std::chrono::seconds(5))
        && controllerPid(o) == ctld) {
        ::kill(ctld, SIGKILL);
    }
    if (pid_t logind = logindPid(o); logind > 0) {
        ::kill(logind, SIGTERM);
    }
    // The nodes and the storage node leave when the controller tells them; "stopped" is said
    // only once they are gone, so an `up` right after finds nothing of the old cluster.
    awaitDaemons(o);
    std::printf("minicluster: cluster in %s stopped\n", o.layout.dir.c_str());
    return 0;
}

int status(const ClusterOptions &o)
{
    auto reply = call(o, op("cluster"));
    if (!reply && controllerPid(o) > 0) {
        std::printf("cluster directory: %s\ncontroller: not answering (pid %d did not answer "
                    "within MessageTimeout=%d s; `minicluster down` stops the cluster)\n",
            o.layout.dir.c_str(), static_cast<int>(controllerPid(o)), messageTimeout(o));
        return 3;
    }
    if (!reply) {
        std::printf("cluster directory: %s\ncontroller: not running (start it with "
                    "`minicluster up`)\n",
            o.layout.dir.c_str());
        return 3;
    }
    std::ifstream modeFile(o.layout.run() + "/sandbox");
    std::string mode;
    std::string detail;
    std::getline(modeFile, mode);
    std::getline(modeFile, detail);
    std::printf("cluster: %s\ncluster directory: %s\ncontroller: running (pid %s)\n"
                "sandbox: %s (%s)\n",
        (*reply)["cluster_name"].toString().c_str(), o.layout.dir.c_str(),
        readFirstLine(o.layout.run() + "/ctld.pid").c_str(), mode.c_str(), detail.c_str());
    std::printf("users: %s\n", usersIsolation(mode == "bubblewrap").c_str());
    std::ifstream limitsFile(o.layout.run() + "/limits");
    std::string limitsMode;
    std::string limitsDetail;
    std::getline(limitsFile, limitsMode);
    std::getline(limitsFile, limitsDetail);
    std::printf("limits: %s (%s): --time, --mem, --cpus-per-task and a pids limit are enforced "
                "on the nodes\n",
        limitsMode.c_str(), limitsDetail.c_str());
    for (std::string extra; std::getline(limitsFile, extra);) {
        std::printf("  %s\n", extra.c_str());
    }
    std::string loginPolicy = readFirstLine(o.layout.run() + "/login-policy");
    std::printf("login node policy: %s\n",
        loginPolicy.empty() ? "not enforced (minicluster-logind is not running)"
                            : loginPolicy.c_str());
    const auto sessions
        = emu::parseLoginPolicy(base::fileText(o.layout.etc() + "/minicluster.conf"));
    std::printf("login node limits: %s%s\n", emu::describeLoginLimits(sessions).c_str(),
        limitsMode == "rlimit"
            ? (proto::hostRoot() ? " (no cgroup here: not enforced)"
                                 : " (no cgroup here: processes only, by RLIMIT_NPROC)")
            : "");
    std::printf("nodes:\n");
    for (const auto &n : (*reply)["nodes"].items()) {
        std::string reason = n["reason"].toString();
        std::printf("  %-8s %-10s %d/%d CPUs allocated%s\n", n["name"].toString().c_str(),
            n["state"].toString().c_str(), static_cast<int>(n["alloc_cpus"].toInt()),
            static_cast<int>(n["cpus"].toInt()),
            reason.empty() ? "" : (" (" + reason + ")").c_str());
    }
    return 0;
}

int shell(const ClusterOptions &o, const std::optional<std::string> &command)
{
    if (!isUp(o)) {
        int rc = up(o, true);
        if (rc != 0) {
            return rc;
        }
    }
    emu::SandboxMode mode = recordedMode(o);
    std::string user = defaultUser(o);
    auto users = sched::parseSiteUsers(base::fileText(o.layout.etc() + "/minicluster.conf"));
    const sched::SiteUser *u = users.find(user);
    if (!u) {
        std::fprintf(stderr, "minicluster: no user '%s' in %s/minicluster.conf\n", user.c_str(),
            o.layout.etc().c_str());
        return 1;
    }
    emu::SandboxView view = emu::sandboxView(mode, o.layout, user, o.binDir);
    if (command) {
        // Interactive shells note their commands through the profile; a `-c` command is noted
        // here, so that lessons see it (as typed on login1, in the home directory).
        emu::HistoryEntry entry;
        entry.time = emu::wallClockNow();
        entry.host = "login1";
        entry.cwd = "/home/" + user;
        entry.command = *command;
        emu::appendHistory(o.layout, user, entry);
    }
    std::vector<std::string> env
        = ws::shellEnvironment(view.home, user, view.binDir + ":/usr/local/bin:/usr/bin:/bin",
            {"MINICLUSTER_SOCKET=" + view.runDir + "/ctld.sock",
                "SLURM_CONF=" + view.etcDir + "/slurm.conf"},
            {"TERM", "LANG", "LC_ALL", "COLORTERM", "DISPLAY", "ASAN_OPTIONS", "UBSAN_OPTIONS",
                "LSAN_OPTIONS"});
    std::vector<std::string> bash;
    if (mode == emu::SandboxMode::Bubblewrap) {
        bash = {"/bin/bash", "--login"};
        if (command) {
            bash.insert(bash.end(), {"-c", *command});
        }
    } else {
        env.push_back("MINICLUSTER_HOSTNAME=login1");
        env.push_back("MINICLUSTER_USER=" + user);
        env[4]
            = "PATH=" + o.layout.run() + "/shim:" + view.binDir + ":/usr/local/bin:/usr/bin:/bin";
        if (command) {
            env.push_back("BASH_ENV=" + o.layout.etc() + "/profile");
            bash = {"/bin/bash", "-c", *command};
        } else {
            bash = {"/bin/bash", "--noprofile", "--rcfile", o.layout.etc() + "/profile", "-i"};
        }
    }
    emu::SandboxSpec spec;
    spec.mode = mode;
    spec.hostname = "login1";
    spec.uid = u->uid;
    spec.gid = u->gid;
    spec.mounts = emu::nodeMounts(o.layout, "login1", o.binDir);
    spec.mounts.push_back({"/etc/profile", o.layout.etc() + "/profile", false});
    // `minicluster lesson` works in this shell too (lesson_shell.h): what it reads and writes.
    std::error_code ec;
    std::filesystem::create_directories(o.layout.state() + "/lessons", ec);
    std::filesystem::create_directories(o.layout.dir + "/workstation/home/" + user, ec);
    if (mode == emu::SandboxMode::Bubblewrap && proto::usersIsolated()) {
        // Users with ids of their own write their progress themselves: anyone may add a file,
        // no one may list, replace or remove another's (1733, as /tmp without the listing).
        std::filesystem::permissions(o.layout.state() + "/lessons",
            std::filesystem::perms::owner_all | std::filesystem::perms::group_write
                | std::filesystem::perms::group_exec | std::filesystem::perms::others_write
                | std::filesystem::perms::others_exec | std::filesystem::perms::sticky_bit,
            ec);
        const std::string progress = o.layout.state() + "/lessons/" + user + ".json";
        // Made by a lesson command outside (as root): the user's again. None yet: the user's
        // first lesson command in a shell makes it, as its own.
        [[maybe_unused]] int rc
            = ::lchown(progress.c_str(), static_cast<uid_t>(proto::isolatedId(u->uid)),
                static_cast<gid_t>(proto::isolatedId(u->gid)));
    }
    for (auto &m : emu::lessonMounts(o.layout, user, o.binDir)) {
        spec.mounts.push_back(std::move(m));
    }
    spec.passwdFile = o.layout.etc() + "/passwd";
    spec.groupFile = o.layout.etc() + "/group";
    spec.hostsFile = o.layout.etc() + "/hosts";
    spec.workDir = view.home;
    spec.dieWithParent = true;
    auto argv = emu::sandboxArgv(spec, bash);
    if (mode == emu::SandboxMode::Plain && ::chdir(view.home.c_str()) != 0) {
        std::perror(view.home.c_str());
    }
    // Everything this shell starts is on login1, watched by the login node's policy and
    // bounded with the user's other sessions by its MemoryMax and TasksMax.
    const auto policy = emu::parseLoginPolicy(base::fileText(o.layout.etc() + "/minicluster.conf"));
    if (auto limits = emu::parseLimitMode(readFirstLine(o.layout.run() + "/limits"))) {
        std::string why;
        if (!emu::joinLoginSlice(o.layout, *limits, user, policy, why)) {
            std::fprintf(stderr, "minicluster: login1's memory and process limits are off: %s\n",
                why.c_str());
        }
    }
    emu::registerLoginShell(o.layout, ::getpid());
    return ws::execWithEnvironment(std::move(argv), std::move(env));
}

namespace {

ws::WorkstationOptions workstationOptions(const ClusterOptions &o)
{
    ws::WorkstationOptions w;
    w.layout = o.layout;
    w.binDir = o.binDir;
    w.user = defaultUser(o);
    w.clusterName
        = sched::parseSlurmConf(base::fileText(o.layout.etc() + "/slurm.conf")).config.clusterName;
    w.mode = recordedMode(o);
    return w;
}

} // namespace

int workstation(const ClusterOptions &o, const std::optional<std::string> &command)
{
    if (!isUp(o)) {
        int rc = up(o, true);
        if (rc != 0) {
            return rc;
        }
    }
    return ws::workstationShell(workstationOptions(o), command);
}

int sshdStdio(const ClusterOptions &o, const std::string &user)
{
    return ws::sshdStdio(workstationOptions(o), user);
}

int gui(const ClusterOptions &o)
{
    if (!isUp(o)) {
        int rc = up(o, false);
        if (rc != 0) {
            return rc;
        }
    }
    std::string exe = o.binDir + "/minicluster-gui";
    std::string dir = o.layout.dir;
    ::execl(exe.c_str(), exe.c_str(), "--dir", dir.c_str(), static_cast<char *>(nullptr));
    std::fprintf(stderr, "minicluster: cannot run %s: %s\n", exe.c_str(), std::strerror(errno));
    return 127;
}

} // namespace mc::launch
