#include "mc/cmd/sbatch.h"

#include "../shared/cluster_view.h"
#include "../shared/json_out.h"
#include "../shared/text.h"
#include "mc/record/job_codec.h"
#include "mc/record/job_object.h"
#include "mc/sched/batch_script.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_state.h"
#include "mc/sched/time_format.h"
#include "sbatch_foreign.h"
#include "sbatch_job_options.h"
#include "sbatch_options.h"
#include "sbatch_script.h"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <thread>

namespace mc::cmd {
namespace {

using namespace sbatch;
using proto::Json;

constexpr std::string_view kTryHelp = "Try \"sbatch --help\" for more information\n";

// A global key of the cluster's slurm.conf (lower-case `key`), as written.
std::optional<std::string> slurmConfKey(const Context &ctx, const std::string &key)
{
    const auto text = ctx.readSlurmConf ? ctx.readSlurmConf() : std::nullopt;
    const auto keys = text ? slurmConfKeys(*text) : std::map<std::string, std::string>();
    const auto it = keys.find(key);
    return it == keys.end() ? std::nullopt : std::optional<std::string>(it->second);
}

// Whether slurm.conf's GresTypes names gpu: without it sbatch's GRES plugin knows no GPU and
// refuses every GPU request itself. Without a slurm.conf to read, the controller judges.
bool knowsGpus(const Context &ctx)
{
    if (!ctx.readSlurmConf || !ctx.readSlurmConf()) {
        return true;
    }
    const auto types = slurmConfKey(ctx, "grestypes");
    const auto names = splitList(types.value_or(""));
    return std::any_of(names.begin(), names.end(),
        [](const std::string &name) { return equalsIgnoreCase(name, "gpu"); });
}

// What sbatch settles itself before the submission: a GPU request its GRES plugin refuses,
// --begin on the cluster's clock, --test-only.
std::optional<Outcome> setSchedulerRequests(
    sched::JobSpec &spec, const JobOptions &opts, const Context &ctx)
{
    const bool gpus = opts.gpus || opts.gpusPerNode || opts.gpusPerTask || opts.cpusPerGpu
        || opts.memPerGpu || !opts.gpuType.empty();
    if (opts.badGres || (gpus && !knowsGpus(ctx))) {
        return failure(gresError().message, gresError().exitCode);
    }
    if (!opts.beginText.empty()) {
        spec.begin = sched::parseTimeSpec(opts.beginText, clusterNow(ctx)).value_or(ctx.now);
    }
    spec.testOnly = opts.testOnly;
    return std::nullopt;
}

// sbatch --wait (sbatch.c _job_wait()): asks until every record of the job (an array's tasks
// too) is finished; the exit status is the largest of their exit codes, 1 for one ended by a
// signal. Slurm asks every 2 s, then less often; this asks sooner, then every second.
int waitForJob(std::int64_t jobId, const Context &ctx)
{
    Json request = Json::object();
    request.set("op", "jobs");
    Json ids = Json::array();
    ids.push(jobId);
    request.set("job_ids", std::move(ids));
    int pauseMs = 100;
    while (true) {
        std::this_thread::sleep_for(std::chrono::milliseconds(pauseMs));
        pauseMs = std::min(1000, pauseMs * 2);
        auto reply = ctx.controller ? ctx.controller(request) : std::nullopt;
        if (!reply || !(*reply)["ok"].toBool(true)) {
            *ctx.err << "sbatch: error: Currently unable to load job state information, "
                        "retrying: Unable to contact slurm controller (connect failure)\n";
            continue;
        }
        const auto &jobs = (*reply)["jobs"].items();
        if (jobs.empty()) {
            *ctx.err << "sbatch: error: Job " << jobId
                     << " no longer found and exit code not found\n";
            return 0;
        }
        int code = 0;
        bool complete = true;
        for (const auto &json : jobs) {
            const record::JobObject job = record::jobObjectFromJson(json);
            auto state = sched::parseJobState(job.state);
            if (!state || !sched::isFinished(*state)) {
                complete = false;
                break;
            }
            code = std::max(code, job.exitSignal != 0 ? 1 : static_cast<int>(job.exitCode));
        }
        if (complete) {
            return code;
        }
    }
}

// sbatch --test-only: Slurm's slurm_job_will_run() answer, on stderr.
Outcome testOnlyOutcome(const Json &reply)
{
    const record::JobObject job = record::jobObjectFromJson(reply); // the job object's members
    std::string line = "sbatch: Job " + std::to_string(job.jobId) + " to start at "
        + sched::formatTimestamp(job.plannedStart) + " using "
        + std::to_string(job.numCpus.value_or(0)) + " processors on nodes "
        + sched::compressHostlist(job.nodes) + " in partition " + job.partition + "\n";
    return Outcome{{}, std::move(line), 0};
}

// The line slurmctld sends before "Batch job submission failed: <error>" when it can name the
// cause: the partition it does not know, or a node too small for the memory or the CPUs asked
// per node. Empty when Slurm has none (a node list or an exclusion that leaves no node).
std::string submitFailureCause(const std::string &error, const sched::JobSpec &spec, Context &ctx)
{
    std::string loadError;
    const auto cluster = loadClusterView(ctx, loadError);
    const std::string &requested = spec.partition;
    if (error == "Invalid partition name specified") {
        for (const std::string &name : splitList(requested)) {
            if (!cluster || !cluster->partition(name)) {
                return "invalid partition specified: " + name;
            }
        }
        return {};
    }
    if (error != "Requested node configuration is not available" || !cluster) {
        return {};
    }
    const PartitionView *partition = nullptr;
    for (const PartitionView &p : cluster->partitions) {
        if (requested.empty() ? p.isDefault : splitList(requested).front() == p.name) {
            partition = &p;
        }
    }
    int maxCpus = 0;
    std::int64_t maxMemory = 0;
    for (const NodeView &node : cluster->nodes) {
        if (!partition
            || std::find(partition->nodes.begin(), partition->nodes.end(), node.name)
                != partition->nodes.end()) {
            maxCpus = std::max(maxCpus, node.cpus);
            maxMemory = std::max(maxMemory, node.memory);
        }
    }
    const std::int64_t cpusPerTask = spec.cpusPerTask;
    const std::int64_t tasksPerNode = spec.ntasksPerNode > 0 ? spec.ntasksPerNode : 1;
    if (cpusPerTask * tasksPerNode > maxCpus) {
        return "CPU count per node can not be satisfied";
    }
    if (spec.memPerNode.value_or(0) > maxMemory || spec.memPerCpu.value_or(0) > maxMemory) {
        return "Memory specification can not be satisfied";
    }
    return {};
}

// "sbatch: error: <cause>\n", or nothing without a cause.
std::string causeLine(const std::string &cause)
{
    return cause.empty() ? std::string() : errorLine(kProgram, cause);
}

// The requests minicluster answers on sbatch's side, as slurmctld answers them on a cluster
// like it: no reservations, licenses only if slurm.conf has Licenses= (which minicluster does
// not act on), --deadline refused when past and else not supported (nothing would end the job
// at its deadline).
std::optional<Outcome> settleClusterRequests(const JobOptions &opts, Context &ctx)
{
    if (!opts.deadlineText.empty()) {
        const auto deadline = sched::parseTimeSpec(opts.deadlineText, clusterNow(ctx));
        if (deadline && *deadline < clusterNow(ctx)) {
            return failure("Batch job submission failed: Requested time limit is invalid "
                           "(missing or exceeds some limit)",
                kExitError);
        }
        return notSupported(kProgram, "--deadline", kExitError);
    }
    if (!opts.licenses.empty()) {
        if (slurmConfKey(ctx, "licenses")) {
            return notSupported(kProgram, "--licenses", kExitError);
        }
        return failure("Batch job submission failed: Invalid license specification", kExitError);
    }
    if (!opts.reservation.empty()) {
        return failure("Batch job submission failed: Requested reservation is invalid", kExitError);
    }
    return std::nullopt;
}

// -M/--clusters: minicluster is one cluster, so the list must name it (any case) or "all".
// Each other name gets Slurm's "No cluster" line; with none left, its "can't be reached" line
// and exit 1. Returns the cluster's name in `name` when it is named.
std::optional<Outcome> settleClusters(const std::string &list, Context &ctx, std::string &name)
{
    const std::optional<std::string> local = clusterName(ctx);
    if (!local) {
        return failure("Unable to contact slurm controller (connect failure)", kExitError);
    }
    std::string err;
    for (const std::string &each : splitList(list)) {
        if (equalsIgnoreCase(each, *local) || equalsIgnoreCase(each, "all")) {
            name = *local;
        } else {
            err += errorLine(kProgram, "No cluster '" + each + "' known by database.");
        }
    }
    *ctx.err << err;
    if (name.empty()) {
        return failure("'" + list
                + "' can't be reached now, or it is an invalid entry for --cluster.  Use "
                  "'sacctmgr list clusters' to see available clusters.",
            kExitError);
    }
    return std::nullopt;
}

} // namespace

int Sbatch::run()
{
    auto finish = [this](const Outcome &outcome) {
        *m_ctx.out << outcome.out;
        *m_ctx.err << outcome.err;
        return outcome.exitCode;
    };

    // First pass, as Slurm's process_options_first_pass(): the whole command line, in order.
    const ParseResult cli
        = parseOptions(optionTable(), m_ctx.args, kProgram, Ordering::StopAtOperand);
    JobOptions early;
    for (const auto &option : cli.options) {
        if (auto end = apply(early, *option.def, option.value, Source::CommandLine, m_ctx)) {
            return finish(*end);
        }
    }
    if (!cli.ok()) {
        return finish(Outcome{{}, cli.error + std::string(kTryHelp), kExitBadOption});
    }
    if (early.wrap && !cli.operands.empty()) {
        return finish(failure("Script arguments not permitted with --wrap option", kExitError));
    }

    // The script.
    std::string script;
    std::string command = "(null)";
    std::string defaultName = "sbatch";
    if (early.wrap) {
        script = wrapScript(*early.wrap);
        defaultName = "wrap";
    } else if (cli.operands.empty()) {
        script = m_ctx.readStdin ? m_ctx.readStdin() : std::string();
    } else {
        const std::string &name = cli.operands.front();
        auto path = resolveScript(name, early.chdir.value_or(m_ctx.cwd), m_ctx);
        auto text = path ? readFile(*path) : std::nullopt;
        if (!text) {
            return finish(failure("Unable to open file " + path.value_or(name), kExitError));
        }
        script = std::move(*text);
        command = *path;
        defaultName = baseName(*path);
    }
    if (auto problems = scriptProblems(script); !problems.empty()) {
        return finish(Outcome{{}, problems, kExitError});
    }

    // Second pass: #SBATCH lines, then SBATCH_* variables, then the command line again.
    JobOptions opts;
    const auto words = sched::parseDirectives(script);
    const ParseResult directives
        = parseOptions(optionTable(), words, kProgram, Ordering::StopAtOperand);
    for (const auto &option : directives.options) {
        if (isEarlyPassOption(option.def->id)) {
            continue;
        }
        if (auto end = apply(opts, *option.def, option.value, Source::Directive, m_ctx)) {
            return finish(*end);
        }
    }
    if (!directives.ok()) {
        return finish(Outcome{{}, directives.error + std::string(kTryHelp), kExitBadOption});
    }
    if (!directives.operands.empty()) {
        return finish(
            failure("Invalid directive found in batch script: " + directives.operands.front(),
                kExitBadOption));
    }
    if (!early.ignorePbs && !opts.ignorePbs) { // #PBS and #BSUB lines, as Slurm maps them
        const ForeignDirectives foreign = foreignDirectives(script);
        for (const MappedOption &option : foreign.options) {
            if (auto end
                = apply(opts, *findOption(option.id), option.value, Source::Directive, m_ctx)) {
                return finish(*end);
            }
        }
        if (foreign.error) {
            return finish(*foreign.error);
        }
    }
    if (auto end = applyEnvironment(opts, m_ctx)) {
        return finish(*end);
    }
    for (const auto &option : cli.options) {
        if (!isEarlyPassOption(option.def->id)) {
            apply(opts, *option.def, option.value, Source::CommandLine, m_ctx);
        }
    }
    if (early.quiet && (early.verbose || opts.verbose)) {
        return finish(failure("don't specify both --verbose (-v) and --quiet (-Q)", kExitError));
    }
    if (auto end = settleMemory(opts)) {
        return finish(*end);
    }
    std::string cluster; // -M's cluster: named in sbatch's answer
    if (!opts.clusters.empty()) {
        if (auto end = settleClusters(opts.clusters, m_ctx, cluster)) {
            return finish(*end);
        }
    }
    if (opts.nodes == 0) { // slurmctld's refusal (it also uses up a job id there)
        return finish(
            failure("Batch job submission failed: Node count specification invalid", kExitError));
    }
    if (auto warning = fitNodesToTasks(opts); warning && !early.quiet) {
        *m_ctx.err << "sbatch: Warning: " << *warning << '\n';
    }

    // The request.
    const std::string workDir = opts.chdir.value_or(m_ctx.cwd);
    auto fullPath = [&workDir](const std::optional<std::string> &path) {
        return path ? absolutePath(*path, workDir) : std::string();
    };
    sched::JobSpec spec;
    spec.name = defaultName;
    spec.user = m_ctx.user.name;
    spec.uid = m_ctx.user.uid;
    spec.gid = m_ctx.user.gid;
    spec.qos = ""; // empty: the controller's default
    spec.workDir = workDir;
    spec.script = script;
    spec.command = command;
    if (!cli.operands.empty()) {
        spec.argv.assign(cli.operands.begin() + 1, cli.operands.end());
    }
    spec.env = exportedEnvironment(opts.exportSpec, m_ctx);
    spec.stdOut = fullPath(opts.stdOut);
    spec.stdErr = fullPath(opts.stdErr);
    spec.stdIn = opts.stdIn ? fullPath(opts.stdIn) : std::string("/dev/null");
    spec.openAppend = opts.openAppend;
    spec.signal = opts.signal;
    spec.requeue = opts.requeue;
    spec.submitHost = m_ctx.hostname;
    fillJobSpec(opts, spec);
    if (auto end = setSchedulerRequests(spec, opts, m_ctx)) {
        return finish(*end);
    }
    if (auto end = settleClusterRequests(opts, m_ctx)) {
        return finish(*end);
    }
    if (m_ctx.quotaWarnings && !opts.testOnly) {
        // The storage node's word, before the job goes: it may fail writing its output there.
        for (const std::string &warning : m_ctx.quotaWarnings()) {
            *m_ctx.err << "sbatch: warning: " << warning << '\n';
        }
    }
    const Json request = record::submitRequest(spec);

    auto reply = m_ctx.controller ? m_ctx.controller(request) : std::nullopt;
    if (!reply && opts.testOnly) {
        return finish(Outcome{{},
            "allocation failure: Unable to contact slurm controller (connect failure)\n",
            kExitError});
    }
    if (reply && opts.testOnly && !(*reply)["ok"].toBool()) {
        const std::string error = (*reply)["error"].toString();
        return finish(Outcome{{},
            causeLine(submitFailureCause(error, spec, m_ctx)) + "allocation failure: " + error
                + "\n",
            kExitError});
    }
    if (!reply) {
        return finish(failure("Batch job submission failed: Unable to contact slurm controller "
                              "(connect failure)",
            kExitError));
    }
    if (!(*reply)["ok"].toBool()) {
        const std::string error = (*reply)["error"].toString();
        Outcome failed = failure("Batch job submission failed: " + error, kExitError);
        failed.err = causeLine(submitFailureCause(error, spec, m_ctx)) + failed.err;
        return finish(failed);
    }
    if (opts.testOnly) {
        return finish(testOnlyOutcome(*reply));
    }
    if (!early.quiet) {
        const std::string id = std::to_string((*reply)["job_id"].toInt());
        if (opts.parsable) {
            *m_ctx.out << id << (cluster.empty() ? "" : ";" + cluster) << '\n';
        } else {
            *m_ctx.out << "Submitted batch job " << id
                       << (cluster.empty() ? "" : " on cluster " + cluster) << '\n';
        }
    }
    if (opts.wait) {
        m_ctx.out->flush();
        return waitForJob((*reply)["job_id"].toInt(), m_ctx);
    }
    return 0;
}

} // namespace mc::cmd
