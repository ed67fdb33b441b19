#include "mc/record/job_object.h"

#include "mc/record/job_codec.h"

#include <array>

namespace mc::record {

using proto::Json;

namespace {

// One member's value, as a Json tree or a cell of a proto::RowTable holds it, read with
// proto::Json's typed reads and fallbacks in both cases.
class Value {
public:
    explicit Value(const Json &json)
        : m_json(&json)
    { }
    Value(const proto::RowTable &table, const proto::RowTable::Cell &cell)
        : m_table(&table)
        , m_cell(&cell)
    { }

    bool isNumber() const
    {
        using Kind = proto::RowTable::Cell::Kind;
        return m_json ? m_json->isNumber()
                      : m_cell->kind == Kind::Int || m_cell->kind == Kind::Double;
    }
    bool isString() const
    {
        return m_json ? m_json->isString() : m_cell->kind == proto::RowTable::Cell::Kind::String;
    }
    bool isBool() const
    {
        return m_json ? m_json->isBool() : m_cell->kind == proto::RowTable::Cell::Kind::Bool;
    }
    bool toBool() const { return m_json ? m_json->toBool() : m_table->toBool(*m_cell); }
    std::int64_t toInt() const { return m_json ? m_json->toInt() : m_table->toInt(*m_cell); }
    // A string's characters (empty for other kinds), valid while the Json or the table lives.
    std::string_view view() const { return m_json ? m_json->view() : m_table->view(*m_cell); }
    std::vector<std::string> toStringList() const
    {
        return m_json ? m_json->toStringList() : m_table->toStringList(*m_cell);
    }
    // Calls `f` with each item of an array (none for other kinds); a cell's array is parsed now.
    template <typename F> void forEachItem(F f) const
    {
        if (m_json) {
            for (const Json &item : m_json->items()) {
                f(item);
            }
            return;
        }
        if (m_cell->kind != proto::RowTable::Cell::Kind::Nested) {
            return;
        }
        const Json tree = m_table->toJson(*m_cell);
        for (const Json &item : tree.items()) {
            f(item);
        }
    }

    // Calls `f` with each key and value of an object (none for other kinds), as forEachItem().
    template <typename F> void forEachMember(F f) const
    {
        if (m_json) {
            for (const auto &[key, value] : m_json->members()) {
                f(key, value);
            }
            return;
        }
        if (m_cell->kind != proto::RowTable::Cell::Kind::Nested) {
            return;
        }
        const Json tree = m_table->toJson(*m_cell);
        for (const auto &[key, value] : tree.members()) {
            f(key, value);
        }
    }

private:
    const Json *m_json = nullptr;
    const proto::RowTable *m_table = nullptr;
    const proto::RowTable::Cell *m_cell = nullptr;
};

// A number of a Value or a Json; absent for any other kind.
std::optional<std::int64_t> optionalInt(const auto &value)
{
    return value.isNumber() ? std::optional(value.toInt()) : std::nullopt;
}

template <typename Int> std::vector<Int> intList(const Json &value)
{
    std::vector<Int> out;
    for (const Json &item : value.items()) {
        out.push_back(static_cast<Int>(item.toInt()));
    }
    return out;
}

// The readers of the member tables, by the member's kind: `o` a JobObject or a StepObject, `v`
// a Value or a Json.
template <auto Member> void integer(auto &o, const auto &v)
{
    o.*Member = v.toInt();
}

// Strings are assigned in place: an object read row after row keeps their room.
template <auto Member> void text(auto &o, const auto &v)
{
    (o.*Member).assign(v.view());
}

template <auto Member> void optionalInteger(auto &o, const auto &v)
{
    o.*Member = optionalInt(v);
}

template <auto Member> void optionalText(auto &o, const auto &v)
{
    auto &member = o.*Member;
    if (!v.isString()) {
        member.reset();
    } else if (member) {
        member->assign(v.view());
    } else {
        member.emplace(v.view());
    }
}

template <auto Member> void flag(auto &o, const auto &v)
{
    o.*Member = v.toBool();
}

template <auto Member> void textList(auto &o, const auto &v)
{
    o.*Member = v.toStringList();
}

void gpuIds(JobObject &o, const Value &v)
{
    o.gpuIds.clear();
    v.forEachItem([&o](const Json &node) { o.gpuIds.push_back(intList<int>(node)); });
}

void waitingFor(JobObject &o, const Value &v)
{
    o.waitingFor.clear();
    v.forEachItem([&o](const Json &id) { o.waitingFor.push_back(id.toInt()); });
}

void nodeCpus(JobObject &o, const Value &v)
{
    o.nodeCpus.clear();
    v.forEachItem([&o](const Json &cpus) { o.nodeCpus.push_back(static_cast<int>(cpus.toInt())); });
}

void steps(JobObject &o, const Value &v)
{
    o.steps.clear();
    v.forEachItem([&o](const Json &step) { o.steps.push_back(stepObjectFromJson(step)); });
}

// The explanation in each language the controller speaks ("en" -> the words).
void explanation(JobObject &o, const Value &v)
{
    o.explanation.clear();
    v.forEachMember([&o](const std::string &language, const Json &words) {
        o.explanation.emplace(language, words.toString());
    });
}

// Absent unless the controller said (a job without a start decision).
void backfilled(JobObject &o, const Value &v)
{
    o.backfilled = v.isBool() ? std::optional(v.toBool()) : std::nullopt;
}

// How each member is read from its key: the one list behind jobObjectFromJson() and
// JobRowReader, in JobMember's order.
struct MemberRead {
    JobMember member;
    std::string_view key;
    void (*read)(JobObject &, const Value &);
};

constexpr std::array<MemberRead, kJobMemberCount> kMembers{{
    {JobMember::JobId, "job_id", integer<&JobObject::jobId>},
    {JobMember::Name, "name", text<&JobObject::name>},
    {JobMember::User, "user", text<&JobObject::user>},
    {JobMember::Uid, "uid", integer<&JobObject::uid>},
    {JobMember::Gid, "gid", optionalInteger<&JobObject::gid>},
    {JobMember::Account, "account", text<&JobObject::account>},
    {JobMember::Partition, "partition", text<&JobObject::partition>},
    {JobMember::Qos, "qos", optionalText<&JobObject::qos>},
    {JobMember::State, "state", text<&JobObject::state>},
    {JobMember::StateShort, "state_short", text<&JobObject::stateShort>},
    {JobMember::Reason, "reason", text<&JobObject::reason>},
    {JobMember::SubmitTime, "submit_time", integer<&JobObject::submitTime>},
    {JobMember::EligibleTime, "eligible_time", optionalInteger<&JobObject::eligibleTime>},
    {JobMember::StartTime, "start_time", integer<&JobObject::startTime>},
    {JobMember::EndTime, "end_time", integer<&JobObject::endTime>},
    {JobMember::TimeLimit, "time_limit", optionalInteger<&JobObject::timeLimit>},
    {JobMember::Nodes, "nodes", textList<&JobObject::nodes>},
    {JobMember::NumNodes, "num_nodes", optionalInteger<&JobObject::numNodes>},
    {JobMember::NumCpus, "num_cpus", optionalInteger<&JobObject::numCpus>},
    {JobMember::NumTasks, "num_tasks", optionalInteger<&JobObject::numTasks>},
    {JobMember::CpusPerTask, "cpus_per_task", optionalInteger<&JobObject::cpusPerTask>},
    {JobMember::MinMemory, "min_memory", integer<&JobObject::minMemory>},
    {JobMember::MemPerCpu, "mem_per_cpu", flag<&JobObject::memPerCpu>},
    {JobMember::Nice, "nice", integer<&JobObject::nice>},
    {JobMember::ExitCode, "exit_code", integer<&JobObject::exitCode>},
    {JobMember::ExitSignal, "exit_signal", integer<&JobObject::exitSignal>},
    {JobMember::WorkDir, "work_dir", text<&JobObject::workDir>},
    {JobMember::StdOut, "std_out", text<&JobObject::stdOut>},
    {JobMember::StdErr, "std_err", text<&JobObject::stdErr>},
    {JobMember::StdIn, "std_in", text<&JobObject::stdIn>},
    {JobMember::Command, "command", text<&JobObject::command>},
    {JobMember::BatchHost, "batch_host", optionalText<&JobObject::batchHost>},
    {JobMember::Priority, "priority", integer<&JobObject::priority>},
    {JobMember::ArrayJobId, "array_job_id", integer<&JobObject::arrayJobId>},
    {JobMember::ArrayTaskId, "array_task_id", optionalInteger<&JobObject::arrayTaskId>},
    {JobMember::ArrayTaskStr, "array_task_str", text<&JobObject::arrayTaskStr>},
    {JobMember::ArrayMaxTasks, "array_max_tasks", optionalInteger<&JobObject::arrayMaxTasks>},
    {JobMember::Dependency, "dependency", text<&JobObject::dependency>},
    {JobMember::PlannedStart, "planned_start", integer<&JobObject::plannedStart>},
    {JobMember::Restarts, "restarts", integer<&JobObject::restarts>},
    {JobMember::Hold, "hold", text<&JobObject::hold>},
    {JobMember::Constraint, "constraint", text<&JobObject::constraint>},
    {JobMember::TimeMin, "time_min", integer<&JobObject::timeMin>},
    {JobMember::Gres, "gres", text<&JobObject::gres>},
    {JobMember::Gpus, "gpus", integer<&JobObject::gpus>},
    {JobMember::GpuIds, "gpu_ids", gpuIds},
    {JobMember::GpuAllocType, "gpu_alloc_type", text<&JobObject::gpuAllocType>},
    {JobMember::TresPerJob, "tres_per_job", text<&JobObject::tresPerJob>},
    {JobMember::TresPerTask, "tres_per_task", text<&JobObject::tresPerTask>},
    {JobMember::CpusPerTres, "cpus_per_tres", text<&JobObject::cpusPerTres>},
    {JobMember::MemPerTres, "mem_per_tres", text<&JobObject::memPerTres>},
    {JobMember::GpusReq, "gpus_req", integer<&JobObject::gpusReq>},
    {JobMember::Exclusive, "exclusive", flag<&JobObject::exclusive>},
    {JobMember::ReqNodes, "req_nodes", textList<&JobObject::reqNodes>},
    {JobMember::ExcNodes, "exc_nodes", textList<&JobObject::excNodes>},
    {JobMember::PreemptEnd, "preempt_end", integer<&JobObject::preemptEnd>},
    {JobMember::Interactive, "interactive", flag<&JobObject::interactive>},
    {JobMember::WaitingFor, "waiting_for", waitingFor},
    {JobMember::Comment, "comment", optionalText<&JobObject::comment>},
    {JobMember::NodeCpus, "node_cpus", nodeCpus},
    {JobMember::MailType, "mail_type", text<&JobObject::mailType>},
    {JobMember::MailUser, "mail_user", text<&JobObject::mailUser>},
    {JobMember::SuspendTime, "suspend_time", integer<&JobObject::suspendTime>},
    {JobMember::Suspended, "suspended", integer<&JobObject::suspended>},
    {JobMember::SubmitHost, "submit_host", optionalText<&JobObject::submitHost>},
    {JobMember::SubmitSid, "submit_sid", integer<&JobObject::submitSid>},
    {JobMember::NtasksPerNode, "ntasks_per_node", integer<&JobObject::ntasksPerNode>},
    {JobMember::LastSchedEval, "last_sched_eval", optionalInteger<&JobObject::lastSchedEval>},
    {JobMember::Group, "group", optionalText<&JobObject::group>},
    {JobMember::Steps, "steps", steps},
    {JobMember::CancelledBy, "cancelled_by", optionalInteger<&JobObject::cancelledBy>},
    {JobMember::Now, "now", integer<&JobObject::now>},
    {JobMember::Explanation, "explanation", explanation},
    {JobMember::Backfilled, "backfilled", backfilled},
}};

constexpr bool membersInOrder()
{
    for (std::size_t i = 0; i < kMembers.size(); ++i) {
        if (static_cast<std::size_t>(kMembers[i].member) != i
            || (i < kJobKeys.size() && kMembers[i].key != kJobKeys[i])) {
            return false;
        }
    }
    return true;
}
static_assert(membersInOrder(), "kMembers follows JobMember, and kJobKeys for its first keys");

// The entry of `key` in `table`, looked for at `next` first: objects written by one encoder
// list their members in its order, which the tables follow, so a decoder walking an object's
// members finds each at once. Null for a key of no member.
template <typename Table>
const typename Table::value_type *entryOf(
    const Table &table, std::string_view key, std::size_t next)
{
    if (next < table.size() && table[next].key == key) {
        return &table[next];
    }
    for (const auto &entry : table) {
        if (entry.key == key) {
            return &entry;
        }
    }
    return nullptr;
}

} // namespace

// Each member of the object once, in its order (jobToJson()'s is kMembers'); absent members keep
// JobObject's defaults.
JobObject jobObjectFromJson(const Json &j)
{
    JobObject o;
    if (!j.isObject()) {
        return o;
    }
    std::size_t next = 0;
    for (const auto &[key, value] : j.members()) {
        if (const MemberRead *entry = entryOf(kMembers, key, next)) {
            entry->read(o, Value(value));
            next = static_cast<std::size_t>(entry - kMembers.data()) + 1;
        }
    }
    return o;
}

std::string_view jobMemberKey(JobMember member)
{
    return kMembers[static_cast<std::size_t>(member)].key;
}

JobRowReader::JobRowReader(const proto::RowTable &table)
    : JobRowReader(table, {})
{
    const std::vector<std::string> &columns = table.columns();
    for (const MemberRead &entry : kMembers) {
        const int column = table.column(entry.key);
        if (column >= 0 && static_cast<std::size_t>(column) < columns.size()) {
            m_columns.emplace_back(column, entry.member);
            m_has[static_cast<std::size_t>(entry.member)] = true;
        }
    }
}

JobRowReader::JobRowReader(const proto::RowTable &table, std::span<const JobMember> members)
    : m_table(&table)
    , m_has(kJobMemberCount, false)
{
    const std::vector<std::string> &columns = table.columns();
    for (const JobMember member : members) {
        const int column = table.column(jobMemberKey(member));
        if (column >= 0 && static_cast<std::size_t>(column) < columns.size() && !has(member)) {
            m_columns.emplace_back(column, member);
            m_has[static_cast<std::size_t>(member)] = true;
        }
    }
}

void JobRowReader::read(std::size_t row, JobObject &job) const
{
    for (const auto &[column, member] : m_columns) {
        kMembers[static_cast<std::size_t>(member)].read(
            job, Value(*m_table, m_table->cell(row, column)));
    }
}

bool JobRowReader::has(JobMember member) const
{
    return m_has[static_cast<std::size_t>(member)];
}

namespace {

// How each member of a step is read from its key, in stepRecordToJson()'s order, then the
// running steps' others.
struct StepRead {
    std::string_view key;
    void (*read)(StepObject &, const Json &);
};

// "batch", "extern" or the step's number, a number as a number in older stores.
void stepId(StepObject &o, const Json &v)
{
    o.stepId = v.isInt() ? std::to_string(v.toInt()) : v.toString();
}

const std::array<StepRead, 22> kStepMembers{{
    {"step_id", stepId}, {"name", optionalText<&StepObject::name>},
    {"state", optionalText<&StepObject::state>}, {"exit_code", integer<&StepObject::exitCode>},
    {"exit_signal", integer<&StepObject::exitSignal>},
    {"start_time", integer<&StepObject::startTime>}, {"end_time", integer<&StepObject::endTime>},
    {"nodes", textList<&StepObject::nodes>}, {"num_cpus", optionalInteger<&StepObject::numCpus>},
    {"ntasks", optionalInteger<&StepObject::ntasks>},
    {"total_cpu_ms", integer<&StepObject::totalCpuMs>},
    {"max_rss_kb", integer<&StepObject::maxRssKb>}, {"ave_rss_kb", integer<&StepObject::aveRssKb>},
    {"job_id", integer<&StepObject::jobId>}, {"user", text<&StepObject::user>},
    {"uid", integer<&StepObject::uid>}, {"partition", text<&StepObject::partition>},
    {"time_limit", optionalInteger<&StepObject::timeLimit>}, {"tres", text<&StepObject::tres>},
    {"srun_host", optionalText<&StepObject::srunHost>}, {"srun_pid", integer<&StepObject::srunPid>},
    {"step", nullptr}, // the id of older stores, read only without `step_id`
}};

} // namespace

StepObject stepObjectFromJson(const Json &j)
{
    StepObject o;
    if (!j.isObject()) {
        return o;
    }
    const Json *olderId = nullptr;
    bool hasId = false;
    std::size_t next = 0;
    for (const auto &[key, value] : j.members()) {
        const StepRead *entry = entryOf(kStepMembers, key, next);
        if (!entry) {
            continue;
        }
        next = static_cast<std::size_t>(entry - kStepMembers.data()) + 1;
        if (!entry->read) {
            olderId = &value;
            continue;
        }
        hasId = hasId || entry->read == stepId;
        entry->read(o, value);
    }
    if (!hasId && olderId) {
        stepId(o, *olderId);
    }
    return o;
}

Json stepObjectToJson(const StepObject &o)
{
    Json j = Json::object();
    auto setInt = [&j](std::string_view key, std::int64_t value) {
        if (value != 0) {
            j.set(std::string(key), value);
        }
    };
    auto setText = [&j](std::string_view key, const std::string &value) {
        if (!value.empty()) {
            j.set(std::string(key), value);
        }
    };
    setInt("job_id", o.jobId);
    j.set("step_id", o.stepId);
    setText("user", o.user);
    setInt("uid", o.uid);
    setText("partition", o.partition);
    if (o.name) {
        j.set("name", *o.name);
    }
    if (o.state) {
        j.set("state", *o.state);
    }
    setInt("start_time", o.startTime);
    setInt("end_time", o.endTime);
    setInt("exit_code", o.exitCode);
    setInt("exit_signal", o.exitSignal);
    j.set("nodes", proto::stringList(o.nodes));
    if (o.ntasks) {
        j.set("ntasks", *o.ntasks);
    }
    if (o.numCpus) {
        j.set("num_cpus", *o.numCpus);
    }
    j.set("total_cpu_ms", o.totalCpuMs);
    j.set("max_rss_kb", o.maxRssKb);
    j.set("ave_rss_kb", o.aveRssKb);
    if (o.timeLimit) {
        j.set("time_limit", *o.timeLimit);
    }
    setText("tres", o.tres);
    if (o.srunHost) {
        j.set("srun_host", *o.srunHost);
    }
    setInt("srun_pid", o.srunPid);
    return j;
}

} // namespace mc::record
