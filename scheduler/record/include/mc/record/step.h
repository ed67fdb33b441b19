#pragma once
// A job step (srun inside an allocation): what srun asks for (StepSpec, the `step_create`
// request of docs/protocol.md) and what is kept of it (StepRecord: the store's row, and one
// of the `steps` of an `acct` reply).

#include "mc/proto/json.h"
#include "mc/sched/job.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mc::record {

// Slurm's SLURM_INTERACTIVE_STEP: the step of salloc's shell under
// LaunchParameters=use_interactive_step. Its tasks see SLURM_STEP_ID=4294967290; everywhere a
// step id prints it is "interactive" (N.interactive). Held in an int (the controller's and the
// node's step maps, Slurm's signed accounting column) it is -6, below batch (-5) and extern (-4).
inline constexpr std::uint32_t kInteractiveStep = 0xfffffffa;

// A step id as Slurm prints it: "interactive" for kInteractiveStep (as a uint32 or as its
// signed int), else the number.
std::string stepIdText(std::int64_t id);

// A step id as typed after the job's (12.interactive, 12.4294967290, 12.batch, 12.0): the
// printed form, "interactive" for either spelling of the interactive step.
std::string stepIdFromText(const std::string &text);

struct StepSpec {
    sched::JobId job; // the allocation the step runs in
    std::string user; // who asks: the job's user or root
    int ntasks = 0; // -n; 0: not given (the job's task count, or one per node)
    int nodes = 0; // -N; 0: not given
    int ntasksPerNode = 0; // --ntasks-per-node; 0: not given
    std::vector<std::string> nodeList; // -w, expanded: nodes of the job to run on first
    std::vector<std::string> excludeNodes; // -x, expanded
    int cpusPerTask = 1; // -c
    // --exact, or -c given: the step holds its tasks' CPUs (ntasks x cpusPerTask). Otherwise,
    // as in Slurm, it holds all of the job's CPUs on the nodes it runs on.
    bool exact = false;
    std::string name; // the step's name (the command, or --job-name)
    bool pty = false; // --pty
    // srun --interactive (salloc's shell): the job's one interactive step, one task on its
    // first node, numbered kInteractiveStep; the other options are not read.
    bool interactive = false;

    bool operator==(const StepSpec &) const = default;
};

// `{"op": "step_create", ...}` and back.
proto::Json stepCreateRequest(const StepSpec &spec);
StepSpec stepSpecFromJson(const proto::Json &request);

// The controller's answer to `step_create` (docs/protocol.md): the step it made and the job it
// runs in, as srun launches it.
struct StepGrant {
    std::int64_t stepId = 0; // kInteractiveStep (as a uint32) for salloc's shell
    std::vector<std::string> nodes; // where its tasks run, in order
    std::vector<int> tasksPerNode; // one count per node of `nodes`
    int ntasks = 1;
    // The job, as stored (its spec too: whom the tasks run as, their memory and GPUs), and the
    // cluster's name, which is no member of a job; nullopt when a reply had none.
    std::optional<sched::Job> job;
    std::optional<std::string> clusterName;

    bool operator==(const StepGrant &) const = default;
};

// The members of a `step_create` reply (without `ok` and `now`, the envelope's) and back. The
// reply also carries the step's and the job's node lists compressed (`node_list`), and the
// job's CPUs on its first node, for readers that do not decode the job.
proto::Json stepGrantToJson(const StepGrant &grant);
StepGrant stepGrantFromJson(const proto::Json &reply);

struct StepRecord {
    sched::JobId job;
    std::string step; // "batch", "extern", "interactive", or the step's number
    sched::JobState state = sched::JobState::Running;
    sched::ExitStatus exit;
    sched::Seconds startTime = 0;
    sched::Seconds endTime = 0;
    std::vector<std::string> nodes;
    int cpus = 0;
    // Usage sampled on the node (sacct TotalCPU, MaxRSS, AveRSS; seff).
    std::int64_t totalCpuMs = 0;
    std::int64_t maxRssKb = 0;
    std::int64_t aveRssKb = 0;
    std::string name = {}; // srun's step name (the command, or --job-name); "" = not recorded
    int ntasks = 0; // the step's tasks (sacct NTasks); 0 = not recorded

    bool operator==(const StepRecord &) const = default;
};

// One of the `steps` of an `acct` job (its job is the enclosing one: not written). A batch or
// extern step without a name is shown under its own ("batch"), as sacct shows it.
proto::Json stepRecordToJson(const StepRecord &step);
StepRecord stepRecordFromJson(const proto::Json &json, sched::JobId job);

} // namespace mc::record
