#pragma once
// What srun and salloc share: their job options, the controller link that asks for an
// interactive allocation and waits for it (Slurm's messages, word for word), and the SLURM_*
// variables of an allocation. These commands fork, relay terminals and pass descriptors, so
// they run as processes and are tested through real clusters; their command lines are read in
// process from a Context, as the other commands' are, and tested so.

#include "../shared/outcome.h"
#include "mc/base/env.h"
#include "mc/cmd/context.h"
#include "mc/cmd/job_option_table.h"
#include "mc/cmd/job_options_apply.h"
#include "mc/proto/json.h"
#include "mc/record/job_object.h"
#include "mc/sched/memory.h"
#include "mc/sched/time_format.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mc::cmd::interactive {

// The shared job-option ids (kAccount, kTime, ...), named here as the two commands' own.
using enum JobOptionId;

// Where srun's tasks go among the step's nodes (-m, first level; the socket and core levels
// only choose CPU bindings, which minicluster does not set).
enum class Distribution { Block, Cyclic, Plane };

// srun's and salloc's own options beside the common ones (JobOptionValues, applied by
// applyJobOption()).
struct Options : JobOptionValues {
    std::optional<std::string> chdir;
    std::optional<std::string> exportEnv; // --export: ALL, NONE or [ALL,]NAME[=value],...
    std::optional<std::string> mpi; // --mpi: none, pmi2, pmix...
    Distribution distribution = Distribution::Block;
    // -m was given. Otherwise the tasks are placed as block (cyclic lands them the same when
    // each node gets at most one), and SLURM_DISTRIBUTION follows Slurm's default (srun_main).
    bool distributionGiven = false;
    int planeSize = 0; // -m plane=<size>
    std::optional<int> waitSeconds; // -W: end the step this long after its first task ends
    std::optional<int> immediate;
    std::optional<std::uint32_t> jobId; // srun --jobid
    bool label = false, pty = false, quiet = false;
    bool killOnBadExit = false, multiProg = false, overlap = false, exact = false;
    // -E: the tasks keep the SLURM_NTASKS, SLURM_NNODES, SLURM_TASKS_PER_NODE they inherit
    // (salloc's interactive step: the allocation's, for srun and mpirun typed in it).
    bool preserveEnv = false;
    // --interactive: the job's interactive step (N.interactive), as salloc's shell is under
    // LaunchParameters=use_interactive_step: one task on the first node of the job.
    bool interactive = false;
    int verbose = 0;
};

// Their rows of the shared job-option table: jobOptionTable(kSrunCommand / kSallocCommand).
std::span<const OptionDef> srunOptions();
std::span<const OptionDef> sallocOptions();

// The input environment variables of `man srun` / `man salloc` and the long option each
// stands for, in the order the command reads them (a later one wins: SRUN_EXPORT_ENV over
// SLURM_EXPORT_ENV).
struct EnvOption {
    std::string_view variable;
    std::string_view option;
};
std::span<const EnvOption> srunEnvironment();
std::span<const EnvOption> sallocEnvironment();

// Applies the variables of `vars` set in `ctx`'s environment, as the options of `table` they
// stand for; called before the command line, whose options then win. False as apply().
bool applyEnvironment(const char *program, std::span<const OptionDef> table,
    std::span<const EnvOption> vars, Options &opts, const Context &ctx, Outcome &end);

// Applies one option; returns false when the run ends there (bad value, refused option, --help,
// --version), with what to print ("<program>: error: ...") and the exit code in `end`.
bool apply(const char *program, Options &opts, const ParsedOption &option, const Context &ctx,
    Outcome &end);

// srun's or salloc's command line, read in process from `ctx` (its arguments and input
// variables): the options and the command, or how the run ends before anything forks or
// contacts the controller.
struct CommandLine {
    Options opts;
    std::vector<std::string> command; // the operands: a program and its arguments
    std::optional<Outcome> end; // --help, --version, a bad or refused option
};
// srun: the command is required ("srun: fatal: No command given to execute.").
CommandLine parseSrunCommandLine(const Context &ctx);
// salloc: without a command salloc runs the user's shell.
CommandLine parseSallocCommandLine(const Context &ctx);

// "Job allocation ..." and the other lines of Slurm, on stderr, prefixed with the program.
void say(const char *program, const std::string &line);
void sayError(const char *program, const std::string &line);

// A protocol connection with its own line buffer and a timeout on reads; events that arrive
// between a request and its reply are kept for later.
class Link {
public:
    ~Link();
    bool connect(std::string &error);
    bool send(const proto::Json &message);
    // The next message (reply or event); nullopt on timeout (timeoutMs >= 0) or end of stream.
    std::optional<proto::Json> next(int timeoutMs = -1);
    // Sends `request` and returns its reply, setting aside events.
    std::optional<proto::Json> call(const proto::Json &request);
    int fd() const { return m_fd; }
    bool hasBuffered() const;

private:
    int m_fd = -1;
    std::string m_buffer;
    std::vector<proto::Json> m_events;
};

// The submit request of an interactive allocation.
proto::Json allocationRequest(const Options &opts, const std::string &defaultName);

// A running allocation: its job, decoded once from the reply or event that showed it running,
// and the cluster's name (the subscription's snapshot's or ping's: not a member of the job).
struct Allocation {
    record::JobObject job;
    std::string clusterName;
};

// Submits on `link`, subscribes and waits until the job runs, printing Slurm's lines
// (queued, allocated, Granted for salloc). Returns the allocation, or nullopt after printing
// the error (`exitCode` set). With `watch` the link stays subscribed to the controller's
// events afterwards (salloc hears of a revoked allocation).
std::optional<Allocation> allocate(const char *program, Link &link, const Options &opts,
    const std::string &defaultName, bool watch, std::int64_t &jobId, int &exitCode);

// The two halves of allocate(): the submission (false after printing the error), then the
// wait until the job runs.
bool submitAllocation(const char *program, Link &link, const Options &opts,
    const std::string &defaultName, std::int64_t &jobId, int &exitCode);
std::optional<Allocation> awaitAllocation(const char *program, Link &link, const Options &opts,
    bool watch, std::int64_t jobId, int &exitCode);

// The job of `message` when it is a `job` event of job `jobId`, decoded; nullopt for any other
// message (the event stream carries every job's changes).
std::optional<record::JobObject> jobEvent(const proto::Json &message, std::int64_t jobId);

// Ends the allocation (alloc_release) with the command's exit status.
void release(Link &link, std::int64_t jobId, int exitCode, int exitSignal);

// SLURM_* variables of an allocation (salloc's shell, srun's tasks): `env` is changed in place.
// SLURM_CLUSTER_NAME only when `clusterName` is given (even empty).
void setAllocationEnv(std::vector<std::string> &env, const record::JobObject &job,
    const std::optional<std::string> &clusterName, const Options &opts);
// salloc's SLURM_GPUS, SLURM_GPUS_PER_NODE, SLURM_GPUS_PER_TASK, SLURM_CPUS_PER_GPU and
// SLURM_MEM_PER_GPU: the GPU options as given (Slurm's set_env_from_opts(), which sbatch and
// salloc call and srun does not: srun's tasks see them only when inherited).
void setGpuOptionEnv(std::vector<std::string> &env, const Options &opts);
using base::getEnv; // mc/base/env.h
using base::setEnv;
std::vector<std::string> processEnvironment();

// Who runs the command (MINICLUSTER_USER in the plain fallback, else the passwd entry).
struct Me {
    std::string name;
    std::uint32_t uid = 0;
    std::uint32_t gid = 0;
};
Me currentUser();
std::string shortHostName();
std::string currentDir();

} // namespace mc::cmd::interactive
