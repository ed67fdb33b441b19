#pragma once
// The job options that sbatch, salloc and srun take alike, applied by one function, as Slurm's
// slurm_opt.c applies common_options[] for its three commands: the values as given, Slurm's
// checks with its words and exit codes, then the one job spec (sched::JobSpec) filled from
// them, whose submit request is the record codec's (record::submitRequest). The simulator's
// scenario lines and the GUI's Submit form speak sbatch and read their options here too.
//
// Each command applies its own options first (sbatch's --wrap, --signal, --wait...; srun's step
// options and its -w, -x and --exclusive, whose refusals Slurm leaves to the controller there)
// and hands every other one to applyJobOption(). Std-only (mc_job_options): the simulator links
// it without the commands.

#include "mc/cmd/job_option_table.h"
#include "mc/cmd/option_parser.h"
#include "mc/sched/job.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mc::cmd {

// The common options as given; unset or empty: not given, and the spec keeps its default.
struct JobOptionValues {
    std::optional<std::string> account, jobName, partition, qos;
    std::optional<std::string> comment; // --comment, as given
    std::string constraint, array, dependency; // as given; the controller checks them
    std::string beginText; // --begin as given (checked); resolved on the caller's clock
    std::optional<sched::Seconds> timeLimit; // kInfinite for --time=0 or UNLIMITED
    std::optional<sched::Seconds> timeMin;
    std::optional<sched::MiB> mem, memPerCpu, memPerGpu;
    std::optional<int> nodes, ntasks, cpusPerTask, ntasksPerNode;
    std::optional<int> gpusPerNode; // --gres=gpu:N, --gpus-per-node=N
    bool gpusPerNodeGiven = false; // the last of the two was --gpus-per-node
    std::optional<int> gpus; // --gpus=N over the job (the controller spreads it)
    std::optional<int> gpusPerTask, cpusPerGpu; // --gpus-per-task, --cpus-per-gpu
    std::string gpuType; // the type named by a GPU option ("a100"); empty: any
    // A malformed GPU request, or a GRES other than gpu: each command says when it refuses it
    // (sbatch at submission, srun and salloc at once), with Slurm's words (gresError()).
    bool badGres = false;
    std::vector<std::string> nodeList, excludeNodes; // expanded hostlists
    bool exclusive = false, hold = false;
    std::int64_t nice = 0;
    // --mail-type in Slurm's words and order ("BEGIN,END"); --mail-user. minicluster sends no
    // mail, as a cluster without a mailer: the request is kept and shown.
    std::string mailType, mailUser;
};

// Why an option ends the run: "<program>: error: <message>" after `preamble` (a line Slurm
// prints before it, as is), with `exitCode` (1 for Slurm's error_exit and parse_int(), 255
// for exit(-1) after an option error).
struct OptionError {
    OptionError(std::string text, int code = 255, std::string before = {})
        : message(std::move(text))
        , exitCode(code)
        , preamble(std::move(before))
    { }
    std::string message;
    int exitCode;
    std::string preamble;
};

// Whether `id` is one of the options applyJobOption() knows.
bool isCommonJobOption(int id);

// Applies one common option (`arg` as given, nullopt when none) to `values`; `now` checks
// --begin. nullopt when it is applied; an id it does not know is left alone.
std::optional<OptionError> applyJobOption(JobOptionValues &values, const OptionDef &def,
    const std::optional<std::string> &arg, sched::Seconds now);

// Slurm's refusal of a malformed GPU request (`badGres`), exit 1.
OptionError gresError();

// Slurm's check of -n against -N (slurm_opt.c, for sbatch, srun and salloc alike): fewer tasks
// than nodes cannot all be used, so the node count becomes the task count. Returns Slurm's
// warning ("can't run 1 processes on 2 nodes, setting nnodes to 1"), which each command prints
// as "<program>: Warning: ..."; nullopt when the counts fit or one was not given.
std::optional<std::string> fitNodesToTasks(JobOptionValues &values);

// Writes the options of `values` that were given over `spec`, whose other fields keep the
// caller's defaults (name, user, qos...). Without -n the tasks are counted as sbatch counts
// them (--ntasks-per-node on each of the -N nodes); srun and salloc count their own. --begin is
// not resolved here (beginText, on the caller's clock).
void fillJobSpec(const JobOptionValues &values, sched::JobSpec &spec);

} // namespace mc::cmd
