#include "srun_common.h"

#include "../shared/text.h"
#include "mc/proto/client.h"
#include "mc/proto/socket.h"
#include "mc/record/job_codec.h"
#include "mc/record/step_end.h"
#include "mc/sched/gres.h"
#include "mc/sched/hostlist.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <poll.h>
#include <pwd.h>
#include <unistd.h>

extern char **environ;

namespace mc::cmd::interactive {

using proto::Json;

namespace {

// srun's (opt.c env_vars[]), those that are options a user sets. The job's own description
// that salloc and sbatch export (SLURM_NTASKS, SLURM_JOB_NUM_NODES, SLURM_NPROCS,
// SLURM_NTASKS_PER_NODE, SLURM_JOB_NAME) is not read back as options: a step's defaults come
// from the job itself, on the controller, which gives the same counts.
constexpr std::array kSrunEnv{
    EnvOption{"SLURM_ACCOUNT", "account"},
    EnvOption{"SLURM_ACCTG_FREQ", "acctg-freq"},
    EnvOption{"SLURM_BCAST", "bcast"},
    EnvOption{"SLURM_BURST_BUFFER", "bb"},
    EnvOption{"SLURM_CLUSTERS", "clusters"},
    EnvOption{"SLURM_COMPRESS", "compress"},
    EnvOption{"SLURM_CONSTRAINT", "constraint"},
    EnvOption{"SLURM_CORE_SPEC", "core-spec"},
    EnvOption{"SLURM_CPU_BIND", "cpu-bind"},
    EnvOption{"SLURM_CPU_FREQ_REQ", "cpu-freq"},
    EnvOption{"SLURM_CPUS_PER_GPU", "cpus-per-gpu"},
    EnvOption{"SLURM_CPUS_PER_TASK", "cpus-per-task"},
    EnvOption{"SLURM_DEPENDENCY", "dependency"},
    EnvOption{"SLURM_DISTRIBUTION", "distribution"},
    EnvOption{"SLURM_EPILOG", "epilog"},
    EnvOption{"SLURM_EXACT", "exact"},
    EnvOption{"SLURM_EXCLUSIVE", "exclusive"},
    EnvOption{"SLURM_EXPORT_ENV", "export"},
    EnvOption{"SRUN_EXPORT_ENV", "export"},
    EnvOption{"SLURM_GPUS", "gpus"},
    EnvOption{"SLURM_GPU_BIND", "gpu-bind"},
    EnvOption{"SLURM_GPU_FREQ", "gpu-freq"},
    EnvOption{"SLURM_GPUS_PER_NODE", "gpus-per-node"},
    EnvOption{"SLURM_GPUS_PER_TASK", "gpus-per-task"},
    EnvOption{"SLURM_GRES", "gres"},
    EnvOption{"SLURM_GRES_FLAGS", "gres-flags"},
    EnvOption{"SLURM_HINT", "hint"},
    EnvOption{"SLURM_KILL_BAD_EXIT", "kill-on-bad-exit"},
    EnvOption{"SLURM_LABELIO", "label"},
    EnvOption{"SLURM_MEM_BIND", "mem-bind"},
    EnvOption{"SLURM_MEM_PER_CPU", "mem-per-cpu"},
    EnvOption{"SLURM_MEM_PER_GPU", "mem-per-gpu"},
    EnvOption{"SLURM_MEM_PER_NODE", "mem"},
    EnvOption{"SLURM_MPI_TYPE", "mpi"},
    EnvOption{"SLURM_NETWORK", "network"},
    EnvOption{"SLURM_NO_KILL", "no-kill"},
    EnvOption{"SLURM_OPEN_MODE", "open-mode"},
    EnvOption{"SLURM_OVERCOMMIT", "overcommit"},
    EnvOption{"SLURM_OVERLAP", "overlap"},
    EnvOption{"SLURM_PARTITION", "partition"},
    EnvOption{"SLURM_POWER", "power"},
    EnvOption{"SLURM_PROFILE", "profile"},
    EnvOption{"SLURM_PROLOG", "prolog"},
    EnvOption{"SLURM_QOS", "qos"},
    EnvOption{"SLURM_REMOTE_CWD", "chdir"},
    EnvOption{"SLURM_RESERVATION", "reservation"},
    EnvOption{"SLURM_RESV_PORTS", "resv-ports"},
    EnvOption{"SLURM_SIGNAL", "signal"},
    EnvOption{"SLURM_SPREAD_JOB", "spread-job"},
    EnvOption{"SLURM_STDERRMODE", "error"},
    EnvOption{"SLURM_STDINMODE", "input"},
    EnvOption{"SLURM_STDOUTMODE", "output"},
    EnvOption{"SLURM_TASK_EPILOG", "task-epilog"},
    EnvOption{"SLURM_TASK_PROLOG", "task-prolog"},
    EnvOption{"SLURM_THREAD_SPEC", "thread-spec"},
    EnvOption{"SLURM_THREADS", "threads"},
    EnvOption{"SLURM_THREADS_PER_CORE", "threads-per-core"},
    EnvOption{"SLURM_TIMELIMIT", "time"},
    EnvOption{"SLURM_UNBUFFEREDIO", "unbuffered"},
    EnvOption{"SLURM_USE_MIN_NODES", "use-min-nodes"},
    EnvOption{"SLURM_WAIT", "wait"},
    EnvOption{"SLURM_WCKEY", "wckey"},
};

// salloc's (salloc/opt.c env_vars[]), for the options its table has.
constexpr std::array kSallocEnv{
    EnvOption{"SALLOC_ACCOUNT", "account"},
    EnvOption{"SALLOC_CONSTRAINT", "constraint"},
    EnvOption{"SALLOC_CPUS_PER_GPU", "cpus-per-gpu"},
    EnvOption{"SALLOC_EXCLUSIVE", "exclusive"},
    EnvOption{"SALLOC_GPUS", "gpus"},
    EnvOption{"SALLOC_GPUS_PER_NODE", "gpus-per-node"},
    EnvOption{"SALLOC_GPUS_PER_TASK", "gpus-per-task"},
    EnvOption{"SALLOC_GRES", "gres"},
    EnvOption{"SALLOC_HINT", "hint"},
    EnvOption{"SLURM_HINT", "hint"},
    EnvOption{"SALLOC_IMMEDIATE", "immediate"},
    EnvOption{"SALLOC_MEM_PER_CPU", "mem-per-cpu"},
    EnvOption{"SALLOC_MEM_PER_GPU", "mem-per-gpu"},
    EnvOption{"SALLOC_MEM_PER_NODE", "mem"},
    EnvOption{"SALLOC_NO_KILL", "no-kill"},
    EnvOption{"SALLOC_OVERCOMMIT", "overcommit"},
    EnvOption{"SALLOC_PARTITION", "partition"},
    EnvOption{"SALLOC_QOS", "qos"},
    EnvOption{"SALLOC_SIGNAL", "signal"},
    EnvOption{"SALLOC_TIMELIMIT", "time"},
};

bool g_quiet = false; // -Q: informational lines are not printed, errors are

std::int64_t wallMs()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

} // namespace

std::span<const OptionDef> srunOptions()
{
    return jobOptionTable(kSrunCommand);
}

std::span<const OptionDef> sallocOptions()
{
    return jobOptionTable(kSallocCommand);
}

std::span<const EnvOption> srunEnvironment()
{
    return kSrunEnv;
}

std::span<const EnvOption> sallocEnvironment()
{
    return kSallocEnv;
}

bool applyEnvironment(const char *program, std::span<const OptionDef> table,
    std::span<const EnvOption> vars, Options &opts, const Context &ctx, Outcome &end)
{
    for (const auto &var : vars) {
        const std::optional<std::string> value = ctx.getenv(var.variable);
        if (!value) {
            continue;
        }
        const OptionDef *def = nullptr;
        for (const auto &d : table) {
            def = d.longName == var.option ? &d : def;
        }
        if (!def) {
            continue;
        }
        ParsedOption option{def, *value};
        if (def->arg == ArgKind::None) {
            const std::string text = toLower(*value);
            if (text == "0" || text == "no") {
                continue; // the flag stays unset
            }
            option.value.reset();
        } else if (def->arg == ArgKind::Optional && value->empty()) {
            option.value.reset();
        }
        if (!def->supported) {
            end = notSupported(program, std::string(var.variable) + " (" + optionName(*def) + ")");
            return false;
        }
        if (!apply(program, opts, option, ctx, end)) {
            return false;
        }
    }
    return true;
}

void say(const char *program, const std::string &line)
{
    if (g_quiet) {
        return;
    }
    std::fprintf(stderr, "%s: %s\n", program, line.c_str());
}

void sayError(const char *program, const std::string &line)
{
    std::fprintf(stderr, "%s: error: %s\n", program, line.c_str());
}

// srun --cpu-bind=: Slurm's keywords, comma-separated; false (exit 1) with Slurm's words.
static bool checkCpuBind(const std::string &value, Outcome &end)
{
    static constexpr const char *kHelpText
        = "CPU bind options:\n"
          "    --cpu-bind=         Bind tasks to CPUs\n"
          "        q[uiet]         quietly bind before task runs (default)\n"
          "        v[erbose]       verbosely report binding before task runs\n"
          "        no[ne]          don't bind tasks to CPUs (default)\n"
          "        rank            bind by task rank\n"
          "        map_cpu:<list>  specify a CPU ID binding for each task\n"
          "                        where <list> is <cpuid1>,<cpuid2>,...<cpuidN>\n"
          "        mask_cpu:<list> specify a CPU ID binding mask for each task\n"
          "                        where <list> is <mask1>,<mask2>,...<maskN>\n"
          "        rank_ldom       bind task by rank to CPUs in a NUMA locality domain\n"
          "        map_ldom:<list> specify a NUMA locality domain ID for each task\n"
          "                        where <list> is <ldom1>,<ldom2>,...<ldomN>\n"
          "        mask_ldom:<list>specify a NUMA locality domain ID mask for each task\n"
          "                        where <list> is <mask1>,<mask2>,...<maskN>\n"
          "        sockets         auto-generated masks bind to sockets\n"
          "        cores           auto-generated masks bind to cores\n"
          "        threads         auto-generated masks bind to threads\n"
          "        ldoms           auto-generated masks bind to NUMA locality domains\n"
          "        help            show this help message\n";
    auto fail = [&](const std::string &message) {
        end = Outcome{{},
            errorLine("srun", message) + "srun: fatal: Failed to parse --cpu-bind= values.\n", 1};
        return false;
    };
    const std::string lower = toLower(value);
    // map_cpu:0,1 and mask_cpu:0x3,0xc carry commas inside their list: a list runs to the end.
    std::size_t pos = 0;
    while (pos <= lower.size()) {
        std::string token;
        std::string original;
        bool takesList = false;
        for (const char *listed : {"map_cpu", "mask_cpu", "map_ldom", "mask_ldom"}) {
            std::string key = listed;
            if (lower.compare(pos, key.size(), key) == 0
                && (pos + key.size() == lower.size() || lower[pos + key.size()] == ':'
                    || lower[pos + key.size()] == ',')) {
                token = key;
                takesList = true;
                std::size_t colon = pos + key.size();
                if (colon >= lower.size() || lower[colon] != ':' || colon + 1 >= lower.size()) {
                    return fail("missing list for \"--cpu-bind=" + key + ":<list>\"");
                }
                pos = lower.size() + 1;
                break;
            }
        }
        if (takesList) {
            continue;
        }
        std::size_t comma = lower.find(',', pos);
        if (comma == std::string::npos) {
            comma = lower.size();
        }
        token = lower.substr(pos, comma - pos);
        original = value.substr(pos, comma - pos);
        pos = comma + 1;
        if (token == "help") {
            end = Outcome{kHelpText, {}, 1};
            return false;
        }
        static const char *const kWords[] = {"q", "quiet", "v", "verbose", "no", "none", "rank",
            "rank_ldom", "sockets", "cores", "threads", "ldoms"};
        bool known = false;
        for (const char *w : kWords) {
            known = known || token == w;
        }
        if (!known) {
            return fail("unrecognized --cpu-bind argument \"" + original + "\"");
        }
    }
    return true;
}

// -m/--distribution as Slurm 22.05 reads it: {*|block|cyclic|arbitrary|plane=<size>}, then up
// to two levels of {*|block|cyclic|fcyclic}, then ,Pack or ,NoPack. False with Slurm's words.
static bool parseDistribution(
    const std::string &value, const Context &ctx, Options &opts, std::string &error)
{
    error = "Invalid --distribution specification";
    const std::string lower = toLower(value);
    if (lower.rfind("plane", 0) == 0) {
        // plane=<size>, or plain "plane" with the size in $SLURM_DIST_PLANESIZE (as srun
        // exports it to its tasks).
        const auto inherited = ctx.getenv("SLURM_DIST_PLANESIZE");
        auto size = lower.size() > 6 && lower[5] == '=' ? parseInteger(lower.substr(6))
            : lower == "plane" && inherited             ? parseInteger(*inherited)
                                                        : std::optional<std::int64_t>();
        if (!size || *size <= 0 || *size > 0x7fffffff) {
            error = "Invalid plane size or size not specified\n" + std::string("srun: error: ")
                + error;
            return false;
        }
        opts.distribution = Distribution::Plane;
        opts.distributionGiven = true;
        opts.planeSize = static_cast<int>(*size);
        return true;
    }
    std::string levels = lower.substr(0, lower.find(','));
    if (levels.empty()) {
        return false;
    }
    if (auto comma = lower.find(','); comma != std::string::npos) {
        std::string flag = lower.substr(comma + 1);
        if (flag != "pack" && flag != "nopack") {
            return false;
        }
    }
    std::vector<std::string> parts;
    for (std::size_t at = 0; at <= levels.size();) {
        auto colon = levels.find(':', at);
        if (colon == std::string::npos) {
            colon = levels.size();
        }
        parts.push_back(levels.substr(at, colon - at));
        at = colon + 1;
    }
    if (parts.size() > 3) {
        return false;
    }
    for (std::size_t i = 1; i < parts.size(); ++i) {
        if (parts[i] != "*" && parts[i] != "block" && parts[i] != "cyclic"
            && parts[i] != "fcyclic") {
            return false;
        }
    }
    opts.distributionGiven = true; // "*" too: Slurm then says block
    if (parts[0] == "*" || parts[0] == "block") {
        opts.distribution = Distribution::Block;
    } else if (parts[0] == "cyclic") {
        opts.distribution = Distribution::Cyclic;
    } else if (parts[0] == "arbitrary" && parts.size() == 1) {
        error = "-m arbitrary (tasks placed by $SLURM_HOSTFILE) is not supported by minicluster";
        return false;
    } else {
        return false;
    }
    return true;
}

// --hint as Slurm checks it (proc_args.c verify_hint); `help` prints Slurm's list.
static bool checkHint(const char *program, const std::string &value, Outcome &end)
{
    std::string rest = value;
    for (std::size_t i = 0; i + 1 < rest.size(); ++i) {
        if (rest[i] == ',' && !std::isdigit(static_cast<unsigned char>(rest[i + 1]))) {
            rest[i] = ';';
        }
    }
    for (std::size_t at = 0; at <= rest.size();) {
        auto stop = rest.find(';', at);
        if (stop == std::string::npos) {
            stop = rest.size();
        }
        std::string token = rest.substr(at, stop - at);
        at = stop + 1;
        const std::string lower = toLower(token);
        if (lower == "help") {
            end = Outcome{"Application hint options:\n"
                          "    --hint=             Bind tasks according to application hints\n"
                          "        compute_bound   use all cores in each socket\n"
                          "        memory_bound    use only one core in each socket\n"
                          "        [no]multithread [don't] use extra threads with in-core "
                          "multi-threading\n"
                          "        help            show this help message\n",
                {}, 1};
            return false;
        }
        if (lower != "compute_bound" && lower != "memory_bound" && lower != "multithread"
            && lower != "nomultithread") {
            end = Outcome{{},
                errorLine(
                    program, "unrecognized --hint argument \"" + token + "\", see --hint=help"),
                1};
            return false;
        }
    }
    return true;
}

// parse_int() of Slurm's proc_args.c: a whole non-negative number (above zero when `positive`),
// else its words and exit 1.
static std::optional<int> slurmInt(const char *program, const std::string &value,
    std::string_view name, Outcome &end, bool positive = false)
{
    auto v = parseInteger(value);
    if (!v || *v < (positive ? 1 : 0) || *v > 0x7fffffff) {
        end = Outcome{{},
            errorLine(
                program, "Invalid numeric value \"" + value + "\" for " + std::string(name) + "."),
            1};
        return std::nullopt;
    }
    return static_cast<int>(*v);
}

// How the command reports the controller's refusal of its submission, before the reason.
static std::string failedSubmission(std::string_view program)
{
    return program == "srun" ? "Unable to allocate resources: " : "Job submit/allocate failed: ";
}

bool apply(const char *program, Options &opts, const ParsedOption &option, const Context &ctx,
    Outcome &end)
{
    const OptionDef &def = *option.def;
    const std::string value = option.value.value_or("");
    // A value Slurm's option table refuses ends the command with exit(-1): status 255.
    auto bad = [&](const std::string &message, int exitCode = 255) {
        end = Outcome{{}, errorLine(program, message), exitCode};
        return false;
    };
    // parse_int(): a whole number, else exit 1.
    auto count = [&](std::optional<int> &target, std::string_view name, bool positive) {
        target = slurmInt(program, value, name, end, positive);
        return target.has_value();
    };
    // -w and -x: a hostlist expression. Slurm leaves a malformed one to the controller, whose
    // refusal the command reports as a failed submission (exit 1).
    auto hostlist = [&](std::vector<std::string> &names) {
        auto expanded = sched::expandHostlist(value);
        if (!expanded) {
            return bad(failedSubmission(program) + "Invalid node name specified", 1);
        }
        names = *expanded;
        return true;
    };
    if (!def.supported) {
        end = notSupported(program, optionName(def));
        return false;
    }
    switch (def.id) {
    case kAccelBind:
        // Slurm's check (v, g or n); there is no GPU or NIC topology to bind to here.
        if (value.find_first_of("vgn") == std::string::npos) {
            return bad("Invalid --accel-bind specification");
        }
        break;
    case kDistribution: {
        std::string error;
        if (!parseDistribution(value, ctx, opts, error)) {
            return bad(error);
        }
        break;
    }
    case kExact:
        opts.exact = true;
        break;
    case kExport:
        opts.exportEnv = value;
        break;
    case kHint:
        if (!checkHint(program, value, end)) {
            return false;
        }
        break;
    case kKillOnBadExit:
        if (option.value) {
            auto v = slurmInt(program, value, "--kill-on-bad-exit", end);
            if (!v) {
                return false;
            }
            opts.killOnBadExit = *v != 0;
        } else {
            opts.killOnBadExit = true;
        }
        break;
    case kMpi:
        opts.mpi = value;
        break;
    case kMultiProg:
        opts.multiProg = true;
        break;
    case kNoKill: {
        const std::string lower = toLower(value);
        if (option.value && lower != "set" && lower != "off" && lower != "no") {
            return bad("Invalid --no-kill specification");
        }
        break;
    }
    case kOverlap:
        opts.overlap = true;
        break;
    case kPreserveEnv:
        opts.preserveEnv = true;
        break;
    case kInteractive:
        opts.interactive = true;
        break;
    case kUnbuffered:
        break; // the tasks write straight to srun's own descriptors: nothing is buffered
    case kWaitSeconds:
        return count(opts.waitSeconds, "--wait", false);
    case kChdir:
        opts.chdir = value;
        break;
    case kExclude:
        if (!hostlist(opts.excludeNodes)) {
            return false;
        }
        break;
    case kCpuBind:
        // Checked as Slurm checks it, then left to the cluster's TaskPlugin=task/cgroup: tasks
        // stay within the job's CPUs and no per-task affinity is set, as on a cluster without
        // task/affinity (the reference cluster's setup). `help` prints Slurm's list.
        if (!checkCpuBind(value, end)) {
            return false;
        }
        break;
    case kExclusive:
        opts.exclusive = true;
        break;
    case kHelp:
    case kUsage:
        end = Outcome{"Usage: " + std::string(program)
                + " [OPTIONS(0)...] [ : [OPTIONS(N)...]] executable(0) [args(0)...]\n"
                  "See `man "
                + program + "` for the options minicluster implements.\n",
            {}, 0};
        return false;
    case kImmediate:
        if (!option.value) {
            opts.immediate = 0;
            return true;
        }
        return count(opts.immediate, "immediate", false); // Slurm's words: no dashes
    case kJobId: {
        std::optional<int> id;
        if (!count(id, "--jobid", true)) {
            return false;
        }
        opts.jobId = static_cast<std::uint32_t>(*id);
        break;
    }
    case kLabel:
        opts.label = true;
        break;
    case kNodelist:
        if (!hostlist(opts.nodeList)) {
            return false;
        }
        break;
    case kPty:
        opts.pty = true;
        break;
    case kQuiet:
        opts.quiet = true;
        g_quiet = true;
        break;
    case kVerbose:
        opts.verbose += 1;
        break;
    case kVersion:
        end = Outcome{kSlurmVersion, {}, 0};
        return false;
    default:
        if (auto error = applyJobOption(opts, def, option.value, ctx.now)) {
            end = Outcome{
                {}, error->preamble + errorLine(program, error->message), error->exitCode};
            return false;
        }
        if (opts.badGres) { // refused at once, as srun's and salloc's GRES check does
            return bad(gresError().message, gresError().exitCode);
        }
        // -N 0 is the controller's to refuse in Slurm, with the words of the command's failed
        // submission.
        if (def.id == kNodes && opts.nodes == 0) {
            return bad(failedSubmission(program) + "Node count specification invalid", 1);
        }
        break;
    }
    return true;
}

namespace {

// Input variables first, then the command line, whose options win; a malformed command line
// ends the run after the options before the bad word, as getopt_long() reports it (exit 255).
CommandLine parseCommandLine(const char *program, std::span<const OptionDef> table,
    std::span<const EnvOption> vars, const Context &ctx)
{
    CommandLine line;
    auto parsed = parseOptions(table, ctx.args, program, Ordering::StopAtOperand);
    Outcome end;
    if (!applyEnvironment(program, table, vars, line.opts, ctx, end)) {
        line.end = end;
        return line;
    }
    // The memory options are one request: a command-line one replaces those of the
    // environment, and two of either kind are refused (slurm_opt.c _validate_memory_options).
    Options &o = line.opts;
    const Options fromEnv = o;
    o.mem.reset();
    o.memPerCpu.reset();
    o.memPerGpu.reset();
    for (const auto &option : parsed.options) {
        if (!apply(program, line.opts, option, ctx, end)) {
            line.end = end;
            return line;
        }
    }
    if (!parsed.ok()) {
        line.end = Outcome{{}, parsed.error + tryHelp(program), 255};
        return line;
    }
    auto memCount = [](const Options &x) {
        return (x.mem ? 1 : 0) + (x.memPerCpu ? 1 : 0) + (x.memPerGpu ? 1 : 0);
    };
    const std::string fatal = std::string(program) + ": fatal: ";
    if (memCount(o) > 1) {
        line.end = Outcome{
            {}, fatal + "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive.\n", 1};
        return line;
    }
    if (memCount(o) == 0 && memCount(fromEnv) > 1) {
        line.end = Outcome{{},
            fatal
                + "SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually "
                  "exclusive.\n",
            1};
        return line;
    }
    if (memCount(o) == 0) {
        o.mem = fromEnv.mem;
        o.memPerCpu = fromEnv.memPerCpu;
        o.memPerGpu = fromEnv.memPerGpu;
    }
    if (auto warning = fitNodesToTasks(o)) { // printed before -Q takes effect, as in Slurm
        std::fprintf(stderr, "%s: Warning: %s\n", program, warning->c_str());
    }
    line.command = std::move(parsed.operands);
    return line;
}

} // namespace

CommandLine parseSrunCommandLine(const Context &ctx)
{
    CommandLine line = parseCommandLine("srun", srunOptions(), srunEnvironment(), ctx);
    if (!line.end && line.command.empty()) {
        line.end = Outcome{{}, "srun: fatal: No command given to execute.\n", 1};
    }
    return line;
}

CommandLine parseSallocCommandLine(const Context &ctx)
{
    return parseCommandLine("salloc", sallocOptions(), sallocEnvironment(), ctx);
}

// Link --------------------------------------------------------------------------------------

Link::~Link()
{
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

bool Link::connect(std::string &error)
{
    m_fd = proto::connectUnix(proto::controllerSocketPath(), error);
    return m_fd >= 0;
}

bool Link::send(const Json &message)
{
    return m_fd >= 0 && proto::writeAll(m_fd, message.dump() + "\n");
}

bool Link::hasBuffered() const
{
    return !m_events.empty() || m_buffer.find('\n') != std::string::npos;
}

std::optional<Json> Link::next(int timeoutMs)
{
    if (!m_events.empty()) {
        Json e = std::move(m_events.front());
        m_events.erase(m_events.begin());
        return e;
    }
    std::int64_t deadline = timeoutMs >= 0 ? wallMs() + timeoutMs : -1;
    while (true) {
        if (auto nl = m_buffer.find('\n'); nl != std::string::npos) {
            auto message = Json::parse(std::string_view(m_buffer).substr(0, nl));
            m_buffer.erase(0, nl + 1);
            if (message) {
                return message;
            }
            continue;
        }
        int wait
            = deadline < 0 ? -1 : static_cast<int>(std::max<std::int64_t>(0, deadline - wallMs()));
        pollfd p{m_fd, POLLIN, 0};
        int r = ::poll(&p, 1, wait);
        if (r < 0 && errno == EINTR) {
            if (deadline >= 0 && wallMs() >= deadline) {
                return std::nullopt;
            }
            continue;
        }
        if (r <= 0) {
            return std::nullopt;
        }
        char buffer[65536];
        ssize_t n = ::read(m_fd, buffer, sizeof buffer);
        if (n <= 0) {
            return std::nullopt;
        }
        m_buffer.append(buffer, static_cast<std::size_t>(n));
    }
}

std::optional<Json> Link::call(const Json &request)
{
    if (!send(request)) {
        return std::nullopt;
    }
    // At most MessageTimeout for the reply, as every Slurm client (issue #18).
    const std::int64_t deadline = wallMs() + std::int64_t{proto::messageTimeout()} * 1000;
    std::vector<Json> events;
    while (true) {
        auto message = next(static_cast<int>(std::max<std::int64_t>(0, deadline - wallMs())));
        if (!message && wallMs() >= deadline) {
            return proto::timedOutReply();
        }
        if (!message) {
            return std::nullopt;
        }
        if (message->contains("event")) {
            events.push_back(std::move(*message));
            continue;
        }
        m_events.insert(m_events.end(), events.begin(), events.end());
        return message;
    }
}

// Allocation --------------------------------------------------------------------------------

Json allocationRequest(const Options &opts, const std::string &defaultName)
{
    Me me = currentUser();
    sched::JobSpec spec;
    spec.name = defaultName;
    spec.user = me.name;
    spec.uid = me.uid;
    spec.gid = me.gid;
    spec.qos = ""; // empty: the controller's default
    spec.workDir = opts.chdir ? absolutePath(*opts.chdir, currentDir()) : currentDir();
    spec.command = defaultName;
    spec.interactive = true;
    spec.submitHost = shortHostName();
    fillJobSpec(opts, spec);
    // Without -n: one task per node (or --ntasks-per-node of them), as Slurm counts.
    if (!opts.ntasks) {
        spec.ntasks = opts.ntasksPerNode.value_or(1) * opts.nodes.value_or(1);
        spec.ntasksGiven = false;
    }
    return record::submitRequest(spec);
}

std::optional<Allocation> allocate(const char *program, Link &link, const Options &opts,
    const std::string &defaultName, bool watch, std::int64_t &jobId, int &exitCode)
{
    if (!submitAllocation(program, link, opts, defaultName, jobId, exitCode)) {
        return std::nullopt;
    }
    return awaitAllocation(program, link, opts, watch, jobId, exitCode);
}

bool submitAllocation(const char *program, Link &link, const Options &opts,
    const std::string &defaultName, std::int64_t &jobId, int &exitCode)
{
    const bool salloc = std::strcmp(program, "salloc") == 0;
    exitCode = 1;
    std::string error;
    if (!link.connect(error)) {
        sayError(program,
            "Unable to allocate resources: Unable to contact slurm controller (connect failure)");
        return false;
    }
    auto reply = link.call(allocationRequest(opts, defaultName));
    if (!reply) {
        sayError(program,
            "Unable to allocate resources: Unable to contact slurm controller (connect failure)");
        return false;
    }
    if (!(*reply)["ok"].toBool()) {
        std::string why = (*reply)["error"].toString();
        if (why == "Invalid partition name specified" && opts.partition) {
            sayError(program, "invalid partition specified: " + *opts.partition);
        }
        sayError(program,
            std::string(salloc ? "Job submit/allocate failed: " : "Unable to allocate resources: ")
                + why);
        return false;
    }
    jobId = (*reply)["job_id"].toInt();
    exitCode = 0;
    return true;
}

std::optional<Allocation> awaitAllocation(const char *program, Link &link, const Options &opts,
    bool watch, std::int64_t jobId, int &exitCode)
{
    const bool salloc = std::strcmp(program, "salloc") == 0;
    exitCode = 1;
    const std::string id = std::to_string(jobId);
    // The scheduling pass right after a submission usually starts it: one look first, and
    // the event stream (whose snapshot lists every recent job) only when it waits or when
    // the caller wants to hear of its end (salloc).
    Json look = Json::object();
    look.set("op", "jobs");
    Json ids = Json::array();
    ids.push(jobId);
    look.set("job_ids", std::move(ids));
    auto seen = link.call(look);
    std::optional<record::JobObject> job;
    std::string clusterName;
    if (seen && (*seen)["jobs"].size() == 1) {
        job = record::jobObjectFromJson((*seen)["jobs"].items().front());
    }
    if (!job || job->state == "PENDING" || watch) {
        Json subscribe = Json::object();
        subscribe.set("op", "subscribe");
        auto snapshot = link.call(subscribe);
        if (!snapshot) {
            sayError(program, "Unable to allocate resources: Unable to contact slurm controller");
            return std::nullopt;
        }
        clusterName = (*snapshot)["cluster_name"].toString();
        // Only the job asked for is decoded: the snapshot lists every recent job.
        const std::string_view idKey = record::jobMemberKey(record::JobMember::JobId);
        for (const auto &j : (*snapshot)["jobs"].items()) {
            if (j[idKey].toInt() == jobId) {
                job = record::jobObjectFromJson(j);
            }
        }
    }
    bool queued = false;
    std::int64_t deadline = opts.immediate ? wallMs() + *opts.immediate * 1000 : -1;
    while (!job || job->state == "PENDING") {
        if (job && !queued) {
            // The first pass after the submission decides whether it waits.
            auto message = link.next(50);
            if (message) {
                if (auto changed = jobEvent(*message, jobId)) {
                    job = std::move(changed);
                }
                continue;
            }
            queued = true;
            if (salloc) {
                say(program, "Pending job allocation " + id);
            }
            say(program, "job " + id + " queued and waiting for resources");
            continue;
        }
        int wait
            = deadline < 0 ? -1 : static_cast<int>(std::max<std::int64_t>(0, deadline - wallMs()));
        auto message = link.next(wait);
        if (!message) {
            if (deadline >= 0 && wallMs() >= deadline) {
                release(link, jobId, 0, 0);
                sayError(program,
                    std::string("Unable to allocate resources: ")
                        + (salloc ? "Connection timed out" : "Requested nodes are busy"));
                if (salloc) {
                    say(program, "Job allocation " + id + " has been revoked.");
                }
                return std::nullopt;
            }
            sayError(program, "Unable to allocate resources: lost contact with the controller");
            return std::nullopt;
        }
        if (auto changed = jobEvent(*message, jobId)) {
            job = std::move(changed);
        }
    }
    if (job->state != "RUNNING") {
        sayError(program, "Unable to allocate resources: Job/step already completing or completed");
        return std::nullopt;
    }
    if (queued) {
        say(program, "job " + id + " has been allocated resources");
    }
    if (salloc) {
        say(program, "Granted job allocation " + id);
    }
    if (clusterName.empty()) {
        Json ping = Json::object();
        ping.set("op", "ping");
        if (auto pong = link.call(ping)) {
            clusterName = (*pong)["cluster_name"].toString();
        }
    }
    exitCode = 0;
    return Allocation{std::move(*job), std::move(clusterName)};
}

std::optional<record::JobObject> jobEvent(const Json &message, std::int64_t jobId)
{
    // The id first: the stream carries every job's changes, and only this job's are decoded.
    const Json &job = message["job"];
    if (message["event"].toString() != "job"
        || job[record::jobMemberKey(record::JobMember::JobId)].toInt() != jobId) {
        return std::nullopt;
    }
    return record::jobObjectFromJson(job);
}

void release(Link &link, std::int64_t jobId, int exitCode, int exitSignal)
{
    record::AllocRelease request;
    request.job = sched::JobId{static_cast<std::uint32_t>(jobId)};
    request.exit = {exitCode, exitSignal};
    link.call(record::allocReleaseToJson(request));
}

// Environment -------------------------------------------------------------------------------

std::vector<std::string> processEnvironment()
{
    std::vector<std::string> env;
    for (char **e = environ; e && *e; ++e) {
        env.emplace_back(*e);
    }
    return env;
}

void setAllocationEnv(std::vector<std::string> &env, const record::JobObject &job,
    const std::optional<std::string> &clusterName, const Options &opts)
{
    const std::vector<std::string> &nodes = job.nodes;
    int numNodes = std::max<int>(1, static_cast<int>(nodes.size()));
    int cpus = static_cast<int>(job.numCpus.value_or(1));
    std::string nodeList = sched::compressHostlist(nodes);
    std::string id = std::to_string(job.jobId);
    std::vector<int> cpusPerNode(static_cast<std::size_t>(numNodes), cpus / numNodes);
    int ntasks = static_cast<int>(job.numTasks.value_or(1));
    std::vector<int> tasksPerNode = sched::blockTaskCounts(ntasks, numNodes);
    if (job.nodeCpus.size() == nodes.size() && !nodes.empty()) {
        // An uneven layout (4,2): the tasks fill the first nodes, as the allocation does.
        const int perTask = std::max(1, opts.cpusPerTask.value_or(1));
        for (std::size_t k = 0; k < nodes.size(); ++k) {
            cpusPerNode[k] = job.nodeCpus[k];
            tasksPerNode[k] = std::max(1, cpusPerNode[k] / perTask);
        }
    }
    if (clusterName) {
        setEnv(env, "SLURM_CLUSTER_NAME", *clusterName);
    }
    setEnv(env, "SLURM_JOBID", id);
    setEnv(env, "SLURM_JOB_ACCOUNT", job.account);
    setEnv(env, "SLURM_JOB_CPUS_PER_NODE", sched::compressCounts(cpusPerNode));
    setEnv(env, "SLURM_JOB_ID", id);
    setEnv(env, "SLURM_JOB_NAME", job.name);
    setEnv(env, "SLURM_JOB_NODELIST", nodeList);
    setEnv(env, "SLURM_JOB_NUM_NODES", std::to_string(numNodes));
    setEnv(env, "SLURM_JOB_PARTITION", job.partition);
    setEnv(env, "SLURM_JOB_QOS", job.qos.value_or("normal"));
    setEnv(env, "SLURM_NNODES", std::to_string(numNodes));
    setEnv(env, "SLURM_NODELIST", nodeList);
    setEnv(env, "SLURM_NODE_ALIASES", "(null)");
    if (opts.ntasks) {
        setEnv(env, "SLURM_NPROCS", std::to_string(ntasks));
        setEnv(env, "SLURM_NTASKS", std::to_string(ntasks));
    }
    if (opts.cpusPerTask) {
        setEnv(env, "SLURM_CPUS_PER_TASK", std::to_string(*opts.cpusPerTask));
    }
    if (opts.mem) {
        setEnv(env, "SLURM_MEM_PER_NODE", std::to_string(*opts.mem));
    } else if (opts.memPerCpu) {
        setEnv(env, "SLURM_MEM_PER_CPU", std::to_string(*opts.memPerCpu));
    }
    setEnv(env, "SLURM_SUBMIT_DIR", job.workDir.empty() ? currentDir() : job.workDir);
    setEnv(env, "SLURM_SUBMIT_HOST", shortHostName());
    setEnv(env, "SLURM_TASKS_PER_NODE", sched::compressCounts(tasksPerNode));
}

void setGpuOptionEnv(std::vector<std::string> &env, const Options &opts)
{
    const auto typed = [&opts](int count) {
        return (opts.gpuType.empty() ? "" : opts.gpuType + ":") + std::to_string(count);
    };
    if (opts.cpusPerGpu) {
        setEnv(env, "SLURM_CPUS_PER_GPU", std::to_string(*opts.cpusPerGpu));
    }
    if (opts.gpus) {
        setEnv(env, "SLURM_GPUS", typed(*opts.gpus));
    }
    if (opts.gpusPerNode && opts.gpusPerNodeGiven) {
        setEnv(env, "SLURM_GPUS_PER_NODE", typed(*opts.gpusPerNode));
    }
    if (opts.gpusPerTask) {
        setEnv(env, "SLURM_GPUS_PER_TASK", typed(*opts.gpusPerTask));
    }
    if (opts.memPerGpu) {
        setEnv(env, "SLURM_MEM_PER_GPU", std::to_string(*opts.memPerGpu));
    }
}

Me currentUser()
{
    Me me;
    me.uid = ::getuid();
    me.gid = ::getgid();
    const char *emulated = std::getenv("MINICLUSTER_USER");
    if (emulated && *emulated) {
        me.name = emulated;
    } else if (const passwd *pw = ::getpwuid(me.uid)) {
        me.name = pw->pw_name;
        me.gid = pw->pw_gid;
    } else {
        me.name = std::to_string(me.uid);
    }
    return me;
}

std::string shortHostName()
{
    if (const char *shim = std::getenv("MINICLUSTER_HOSTNAME"); shim && *shim) {
        return shim;
    }
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) {
        return {};
    }
    std::string host(name);
    return host.substr(0, host.find('.'));
}

std::string currentDir()
{
    std::unique_ptr<char, decltype(&free)> dir(::getcwd(nullptr, 0), &free);
    return dir ? std::string(dir.get()) : std::string("/");
}

} // namespace mc::cmd::interactive
