#pragma once
// The public job object (docs/protocol.md: a job of a `jobs` or `acct` reply, the members of
// kJobKeys plus those the controller or the accounting view add) decoded once, for the commands
// that print jobs: they read typed members and spell no key.
//
// A member is what the reply carried, nothing derived: the reply may lack it (not asked for with
// `fields`, not applying to this job, or a controller that does not send it), so a member that
// some reader falls back on with a value of its own is an optional (`numCpus.value_or(1)`); the
// others hold the type's empty value when absent, as proto::Json's reads give it.

#include "mc/proto/json.h"
#include "mc/proto/row_table.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mc::record {

// A step of a reply decoded once, on the same terms as JobObject: a running step of `steps`
// (sstat, scontrol show step) or one of the `steps` of an `acct` job (seff, sacct).
struct StepObject {
    std::int64_t jobId = 0; // running steps only; an acct step's job is the enclosing one
    std::string stepId; // "batch", "extern", or the step's number (`step` of older stores)
    std::optional<std::string> name;
    std::string user; // the job's (running steps)
    std::optional<std::string> state;
    std::int64_t startTime = 0;
    std::int64_t endTime = 0; // 0 while it runs
    std::int64_t exitCode = 0;
    std::int64_t exitSignal = 0;
    std::vector<std::string> nodes;
    std::optional<std::int64_t> ntasks;
    std::optional<std::int64_t> numCpus;
    // Usage sampled on the node (so far, for a running step).
    std::int64_t totalCpuMs = 0;
    std::int64_t maxRssKb = 0;
    std::int64_t aveRssKb = 0;

    // Read when present, sent by no controller yet.
    std::int64_t uid = 0;
    std::string partition;
    std::optional<std::int64_t> timeLimit;
    std::string tres;
    std::optional<std::string> srunHost;
    std::int64_t srunPid = 0;

    bool operator==(const StepObject &) const = default;
};

struct JobObject {
    std::int64_t jobId = 0;
    std::string name;
    std::string user;
    std::int64_t uid = 0;
    std::optional<std::int64_t> gid;
    std::string account;
    std::string partition;
    std::optional<std::string> qos;
    std::string state; // the long name, "PENDING"
    std::string stateShort; // "PD"
    std::string reason; // Slurm's reason name, "None"
    std::int64_t submitTime = 0; // seconds since the epoch, 0: unknown
    std::optional<std::int64_t> eligibleTime;
    std::int64_t startTime = 0;
    std::int64_t endTime = 0;
    std::optional<std::int64_t> timeLimit; // seconds; sched::kInfinite for none
    std::vector<std::string> nodes; // the nodes held, expanded
    std::optional<std::int64_t> numNodes;
    std::optional<std::int64_t> numCpus;
    std::optional<std::int64_t> numTasks;
    std::optional<std::int64_t> cpusPerTask;
    std::int64_t minMemory = 0; // MiB, per CPU when memPerCpu, else per node
    bool memPerCpu = false;
    std::int64_t nice = 0;
    std::int64_t exitCode = 0;
    std::int64_t exitSignal = 0;
    std::string workDir;
    std::string stdOut; // sbatch's patterns, as given ("" for the default)
    std::string stdErr;
    std::string stdIn;
    std::string command;
    std::optional<std::string> batchHost;
    std::int64_t priority = 0;
    std::int64_t arrayJobId = 0; // 0: not an array
    std::optional<std::int64_t> arrayTaskId; // absent for a job or an array's pending record
    std::string arrayTaskStr; // the pending tasks of an array record, "4-10%2"
    std::optional<std::int64_t> arrayMaxTasks; // the array's %N, on each of its tasks
    std::string dependency; // what it still waits on, as the controller words it
    std::int64_t plannedStart = 0;
    std::int64_t restarts = 0;
    std::string hold; // "user", "admin" or ""
    std::string constraint;
    std::int64_t timeMin = 0;
    std::string gres; // per node, "gpu:a100:2"
    std::int64_t gpus = 0; // per node, held
    std::vector<std::vector<int>> gpuIds; // per node of `nodes`
    std::string gpuAllocType;
    std::string tresPerJob; // "gres:gpu:2"
    std::string tresPerTask;
    std::string cpusPerTres;
    std::string memPerTres;
    std::int64_t gpusReq = 0; // the whole job's GPUs, held or asked for
    bool exclusive = false;
    std::vector<std::string> reqNodes;
    std::vector<std::string> excNodes;
    std::int64_t preemptEnd = 0;
    bool interactive = false;
    std::vector<std::int64_t> waitingFor; // the jobs a pending job waits on
    std::optional<std::string> comment;
    std::vector<int> nodeCpus; // the CPUs held on each node of an uneven layout
    std::string mailType;
    std::string mailUser;
    std::int64_t suspendTime = 0; // the last suspension or resumption (scontrol suspend), 0: none
    std::int64_t suspended = 0; // seconds of the suspensions that are over

    // Read when present, sent by no controller yet (tests and older replies carry them).
    std::optional<std::string> submitHost;
    std::int64_t submitSid = 0;
    std::int64_t ntasksPerNode = 0;
    std::optional<std::int64_t> lastSchedEval;
    std::optional<std::string> group;

    // An `acct` reply's job: its steps, and who cancelled it (a uid).
    std::vector<StepObject> steps;
    std::optional<std::int64_t> cancelledBy;

    // What the controller adds to a job of the `subscribe` reply and of its `job` events (the
    // app reads them): its clock when it sent the job (0: not sent), why a pending job waits or
    // how a started one started, in each language it speaks ("en", "fr" -> the words), and
    // whether it started by backfill (absent for a job without a start decision).
    std::int64_t now = 0;
    std::map<std::string, std::string> explanation;
    std::optional<bool> backfilled;

    bool operator==(const JobObject &) const = default;
};

JobObject jobObjectFromJson(const proto::Json &job);

// The members of JobObject a reply carries, one per key: a command names those it reads (a
// request's `fields`, by jobMemberKey()) and never spells a key. In JobObject's order.
enum class JobMember : std::uint8_t {
    JobId,
    Name,
    User,
    Uid,
    Gid,
    Account,
    Partition,
    Qos,
    State,
    StateShort,
    Reason,
    SubmitTime,
    EligibleTime,
    StartTime,
    EndTime,
    TimeLimit,
    Nodes,
    NumNodes,
    NumCpus,
    NumTasks,
    CpusPerTask,
    MinMemory,
    MemPerCpu,
    Nice,
    ExitCode,
    ExitSignal,
    WorkDir,
    StdOut,
    StdErr,
    StdIn,
    Command,
    BatchHost,
    Priority,
    ArrayJobId,
    ArrayTaskId,
    ArrayTaskStr,
    ArrayMaxTasks,
    Dependency,
    PlannedStart,
    Restarts,
    Hold,
    Constraint,
    TimeMin,
    Gres,
    Gpus,
    GpuIds,
    GpuAllocType,
    TresPerJob,
    TresPerTask,
    CpusPerTres,
    MemPerTres,
    GpusReq,
    Exclusive,
    ReqNodes,
    ExcNodes,
    PreemptEnd,
    Interactive,
    WaitingFor,
    Comment,
    NodeCpus,
    MailType,
    MailUser,
    SuspendTime,
    Suspended,
    SubmitHost,
    SubmitSid,
    NtasksPerNode,
    LastSchedEval,
    Group,
    Steps,
    CancelledBy,
    Now,
    Explanation,
    Backfilled,
};
inline constexpr std::size_t kJobMemberCount = static_cast<std::size_t>(JobMember::Backfilled) + 1;

// The member's key in a reply ("job_id"); the first ones are kJobKeys, in its order.
std::string_view jobMemberKey(JobMember member);

// The jobs of a large `jobs` or `acct` reply (proto::RowTable: `form: "rows"`, or whole objects)
// decoded row by row into JobObject, as jobObjectFromJson() decodes an object. The table's
// columns are matched to members once, when the reader is made; a row then costs one typed
// read per column, and members without a column are not touched. The table must outlive the
// reader.
class JobRowReader {
public:
    explicit JobRowReader(const proto::RowTable &table);
    // Only `members` (what one pass over the rows reads); the table's other columns are skipped.
    JobRowReader(const proto::RowTable &table, std::span<const JobMember> members);

    // Assigns the members the table has a column for from row `row` (a null cell: absent, as
    // jobObjectFromJson() leaves it); the others keep what `job` holds, so a default JobObject,
    // or one read from the same reader before, comes out as jobObjectFromJson() would make it.
    void read(std::size_t row, JobObject &job) const;
    // Whether the table has a column for `member`.
    bool has(JobMember member) const;

private:
    const proto::RowTable *m_table;
    std::vector<std::pair<int, JobMember>> m_columns; // the table's columns that are members
    std::vector<bool> m_has; // by member
};

StepObject stepObjectFromJson(const proto::Json &step);
// A step as the `steps` reply sends it (the controller's running steps): the members a reader
// may fall back on only when set, the others when not their empty value, so that the object
// decodes back equal.
proto::Json stepObjectToJson(const StepObject &step);

} // namespace mc::record
