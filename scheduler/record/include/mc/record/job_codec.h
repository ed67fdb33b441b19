#pragma once
// Job <-> JSON, the one mapping used for the wire (docs/protocol.md) and for the stored record:
// no other file spells a job's keys.

#include "mc/proto/json.h"
#include "mc/sched/job.h"

#include <array>
#include <bitset>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mc::record {

// The kind of value a member of the submit spec holds.
enum class SpecKind { Number, Bool, String, StringList };

// Every member of the submit spec (sched::JobSpec's fields, in their order) with its kind: the
// members specToJson() writes, specFromJson() reads and the controller type-checks. Absent or
// null is "not given". A field added to JobSpec gets its key here and in both functions (the
// round-trip test in tests/unit/record fails until it does).
inline constexpr std::array<std::pair<std::string_view, SpecKind>, 50> kSpecKeys{{
    {"name", SpecKind::String},
    {"user", SpecKind::String},
    {"uid", SpecKind::Number},
    {"gid", SpecKind::Number},
    {"account", SpecKind::String},
    {"partition", SpecKind::String},
    {"qos", SpecKind::String},
    {"work_dir", SpecKind::String},
    {"script", SpecKind::String},
    {"command", SpecKind::String},
    {"argv", SpecKind::StringList},
    {"env", SpecKind::StringList},
    {"std_out", SpecKind::String},
    {"std_err", SpecKind::String},
    {"std_in", SpecKind::String},
    {"time_limit", SpecKind::Number},
    {"nodes", SpecKind::Number},
    {"ntasks", SpecKind::Number},
    {"ntasks_given", SpecKind::Bool},
    {"cpus_per_task", SpecKind::Number},
    {"cpus_per_task_given", SpecKind::Bool},
    {"mem_per_node", SpecKind::Number},
    {"mem_per_cpu", SpecKind::Number},
    {"submit_host", SpecKind::String},
    {"open_mode", SpecKind::String},
    {"signal", SpecKind::String},
    {"requeue", SpecKind::Bool},
    {"hold", SpecKind::Bool},
    {"nice", SpecKind::Number},
    {"ntasks_per_node", SpecKind::Number},
    {"gpus_per_node", SpecKind::Number},
    {"gpu_type", SpecKind::String},
    {"gpus_per_node_given", SpecKind::Bool},
    {"gpus_per_job", SpecKind::Number},
    {"gpus_per_task", SpecKind::Number},
    {"cpus_per_gpu", SpecKind::Number},
    {"mem_per_gpu", SpecKind::Number},
    {"exclusive", SpecKind::Bool},
    {"node_list", SpecKind::StringList},
    {"exclude", SpecKind::StringList},
    {"constraint", SpecKind::String},
    {"time_min", SpecKind::Number},
    {"begin", SpecKind::Number},
    {"dependency", SpecKind::String},
    {"array", SpecKind::String},
    {"interactive", SpecKind::Bool},
    {"comment", SpecKind::String},
    {"test_only", SpecKind::Bool},
    {"mail_type", SpecKind::String},
    {"mail_user", SpecKind::String},
}};

// The submit spec as `submit` carries it (the request's "job" member).
proto::Json specToJson(const sched::JobSpec &spec);
sched::JobSpec specFromJson(const proto::Json &json);
// `{"op": "submit", "job": specToJson(spec)}`.
proto::Json submitRequest(const sched::JobSpec &spec);

// The members jobToJson() writes, in its order (optional ones only when they apply).
inline constexpr std::array<std::string_view, 64> kJobKeys{"job_id", "name", "user", "uid", "gid",
    "account", "partition", "qos", "state", "state_short", "reason", "submit_time", "eligible_time",
    "start_time", "end_time", "time_limit", "nodes", "num_nodes", "num_cpus", "num_tasks",
    "cpus_per_task", "min_memory", "mem_per_cpu", "nice", "exit_code", "exit_signal", "work_dir",
    "std_out", "std_err", "std_in", "command", "batch_host", "priority", "array_job_id",
    "array_task_id", "array_task_str", "array_max_tasks", "dependency", "planned_start", "restarts",
    "hold", "constraint", "time_min", "gres", "gpus", "gpu_ids", "gpu_alloc_type", "tres_per_job",
    "tres_per_task", "cpus_per_tres", "mem_per_tres", "gpus_req", "exclusive", "req_nodes",
    "exc_nodes", "preempt_end", "interactive", "waiting_for", "comment", "node_cpus", "mail_type",
    "mail_user", "suspend_time", "suspended"};

// A subset of kJobKeys: what a `jobs` or `acct` request with `fields` asks for.
class JobKeys {
public:
    static JobKeys all();
    // The named members; names that are not job members are ignored here.
    static JobKeys of(const std::vector<std::string> &names);
    bool has(std::size_t index) const { return m_bits.test(index); }

private:
    std::bitset<kJobKeys.size()> m_bits;
};

// The public job object of docs/protocol.md (no script or environment), or the members of it
// that `keys` names.
proto::Json jobToJson(const sched::Job &job, const JobKeys &keys = JobKeys::all());
// The same members written straight to text as rows of JSON values (`form: "rows"` of `jobs`
// and `acct`, docs/protocol.md), for thousands of jobs per reply without a Json tree.
class JobRowWriter {
public:
    // `columns`: the names a request's `fields` gives, in its order; a name that is not a job
    // member stays null unless the caller fills its cell().
    explicit JobRowWriter(const std::vector<std::string> &columns);
    // Fills the row's cells from `job` (cells of members that do not apply stay empty: null).
    void encode(const sched::Job &job);
    // The current row's cell of column `index` (JSON text; empty is null), for members the
    // caller computes (waiting_for, explanation, ...).
    std::string &cell(int index) { return m_cells[static_cast<std::size_t>(index)]; }
    // Appends the current row, `[v,...]`, to `out`.
    void appendRow(std::string &out) const;

private:
    std::vector<std::string> m_names;
    std::vector<std::string> m_cells;
    std::array<int, kJobKeys.size()> m_columnOf{};
};

// Everything, for storage: the public object plus "spec" with script, env and argv.
proto::Json jobToRecord(const sched::Job &job);
std::optional<sched::Job> jobFromRecord(const proto::Json &record);

// The pending tasks of an array record as squeue %K shows them ("4-10%2"); empty otherwise.
std::string arrayTaskStr(const sched::Job &job);

} // namespace mc::record
