#include "squeue_filter.h"

#include "../shared/text.h"
#include "mc/sched/job_array.h"
#include "mc/sched/job_state.h"

#include <algorithm>
#include <array>
#include <functional>
#include <type_traits>
#include <variant>

namespace mc::cmd::squeue {
namespace {

using record::JobObject;
using sched::JobState;

bool containsIgnoreCase(const std::vector<std::string> &list, std::string_view value)
{
    return std::any_of(list.begin(), list.end(),
        [&](const std::string &item) { return equalsIgnoreCase(item, value); });
}

bool contains(const std::vector<std::string> &list, std::string_view value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

bool isActive(const JobObject &job)
{
    auto state = jobState(job);
    return state
        && (*state == JobState::Pending || *state == JobState::Running
            || *state == JobState::Suspended || *state == JobState::Completing);
}

// Slurm's states that minicluster never reports, still valid for -t.
constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kOtherStates{{
    {"CONFIGURING", "CF"},
    {"RESIZING", "RS"},
    {"RESV_DEL_HOLD", "RD"},
    {"REQUEUED", "RQ"},
    {"REQUEUE_FED", "RF"},
    {"REQUEUE_HOLD", "RH"},
    {"REVOKED", "RV"},
    {"SIGNALING", "SI"},
    {"SPECIAL_EXIT", "SE"},
    {"STAGE_OUT", "SO"},
    {"STOPPED", "ST"},
}};

// A row's value for one sort key, computed once per row (the rows are then sorted on these
// values: squeue sorts thousands of jobs).
using SortKey = RowSorter::Key;
using Extract = RowSorter::Extract;

// A member as a sort key; an absent optional one sorts as 0 or "".
template <auto Member> SortKey member(const JobRow &r)
{
    const auto &value = r.job->*Member;
    using Type = std::remove_cvref_t<decltype(value)>;
    if constexpr (std::is_same_v<Type, std::optional<std::string>>) {
        return value.value_or(std::string());
    } else if constexpr (std::is_same_v<Type, std::optional<std::int64_t>>) {
        return value.value_or(0);
    } else {
        return value;
    }
}

Extract noOrder()
{
    return [](const JobRow &) {
        return SortKey{};
    };
}

std::optional<Extract> extractorFor(char key)
{
    switch (key) {
    case 'B':
        return member<&JobObject::batchHost>;
    case 'C':
        return member<&JobObject::numCpus>;
    case 'D':
        return member<&JobObject::numNodes>;
    case 'e':
        return member<&JobObject::endTime>;
    case 'i':
        return member<&JobObject::jobId>;
    case 'j':
        return member<&JobObject::name>;
    case 'l':
        return member<&JobObject::timeLimit>;
    case 'L':
        return [](const JobRow &r) {
            return SortKey{r.job->timeLimit.value_or(0) - timeUsed(r)};
        };
    case 'm':
        return member<&JobObject::minMemory>;
    case 'M':
        return [](const JobRow &r) {
            return SortKey{timeUsed(r)};
        };
    case 'N':
        return [](const JobRow &r) {
            return SortKey{r.job->nodes};
        };
    case 'p':
    case 'Q':
        return member<&JobObject::priority>;
    case 'P':
        return member<&JobObject::partition>;
    case 'S':
        return [](const JobRow &r) {
            return SortKey{startTime(r)};
        };
    case 't':
        return member<&JobObject::stateShort>;
    case 'T':
        return member<&JobObject::state>;
    case 'u':
        return member<&JobObject::user>;
    case 'U':
        return member<&JobObject::uid>;
    case 'V':
        return member<&JobObject::submitTime>;
    case 'g':
    case 'G':
        return member<&JobObject::gid>;
    case 'b': // fields that are the same for every minicluster job
    case 'c':
    case 'd':
    case 'f':
    case 'h':
    case 'H':
    case 'I':
    case 'J':
    case 'n':
    case 'O':
    case 'v':
    case 'z':
        return noOrder();
    default:
        return std::nullopt;
    }
}

} // namespace

std::optional<std::vector<std::uint32_t>> Filter::tasksOf(const JobObject &job) const
{
    const std::int64_t array = job.arrayJobId;
    const bool wholeArray = std::find(jobIds.begin(), jobIds.end(), array) != jobIds.end()
        && std::none_of(
            tasks.begin(), tasks.end(), [array](const auto &t) { return t.first == array; });
    if (array <= 0 || wholeArray
        || std::find(jobIds.begin(), jobIds.end(), array) == jobIds.end()) {
        return std::nullopt;
    }
    std::vector<std::uint32_t> wanted;
    for (const auto &[id, ids] : tasks) {
        if (id == array) {
            wanted.insert(wanted.end(), ids.begin(), ids.end());
        }
    }
    std::sort(wanted.begin(), wanted.end());
    return wanted;
}

bool Filter::accepts(const JobObject &job) const
{
    if (licenses) {
        return false;
    }
    if (!jobIds.empty() && std::find(jobIds.begin(), jobIds.end(), job.jobId) == jobIds.end()
        && std::find(jobIds.begin(), jobIds.end(), job.arrayJobId) == jobIds.end()) {
        return false;
    }
    if (const auto wanted = tasksOf(job)) {
        // A started task: its own id; the pending record: any of the tasks it still holds.
        if (job.arrayTaskId) {
            return std::binary_search(
                wanted->begin(), wanted->end(), static_cast<std::uint32_t>(*job.arrayTaskId));
        }
        const auto held = sched::parseArraySpec(job.arrayTaskStr);
        return held
            && std::any_of(held->taskIds.begin(), held->taskIds.end(), [&](std::uint32_t t) {
                   return std::binary_search(wanted->begin(), wanted->end(), t);
               });
    }
    if (!accounts.empty() && !containsIgnoreCase(accounts, job.account)) {
        return false;
    }
    if (!qos.empty() && !containsIgnoreCase(qos, job.qos.value_or(std::string()))) {
        return false;
    }
    if (!allStates) {
        if (states.empty() ? !isActive(job) : !contains(states, job.state)) {
            return false;
        }
    }
    if (!partitions.empty() && !contains(partitions, job.partition)) {
        return false;
    }
    if (users && !contains(*users, job.user)) {
        return false;
    }
    if (!names.empty() && !contains(names, job.name)) {
        return false;
    }
    if (!nodes.empty()) {
        const auto &jobNodes = job.nodes;
        if (std::none_of(jobNodes.begin(), jobNodes.end(),
                [&](const std::string &n) { return contains(nodes, n); })) {
            return false;
        }
    }
    return true;
}

RowSorter::RowSorter(std::string_view spec)
{
    for (std::size_t i = 0; i < spec.size(); ++i) {
        const char key = spec[i];
        if (key == ',' || key == '+' || key == '-') {
            continue;
        }
        auto extract = extractorFor(key);
        if (!extract) {
            m_unknown = m_unknown.value_or(key);
            continue;
        }
        m_keys.push_back(std::move(*extract));
        m_reverse.push_back(i > 0 && spec[i - 1] == '-');
    }
}

void RowSorter::add(const JobRow &row)
{
    for (const auto &extract : m_keys) {
        m_values.push_back(extract(row));
    }
    ++m_rows;
}

std::vector<std::uint32_t> RowSorter::order() const
{
    // Slurm applies the keys from the last to the first, each a stable sort of its own: the same
    // order as one stable sort on all keys, the first one primary. The keys are computed once,
    // in one flat table, and row indexes are sorted.
    const std::size_t width = m_keys.size();
    std::vector<std::uint32_t> order(m_rows);
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<std::uint32_t>(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const SortKey *ka = &m_values[a * width];
        const SortKey *kb = &m_values[b * width];
        for (std::size_t k = 0; k < width; ++k) {
            if (ka[k] != kb[k]) {
                return m_reverse[k] ? kb[k] < ka[k] : ka[k] < kb[k];
            }
        }
        return false;
    });
    return order;
}

std::optional<char> sortRows(std::vector<JobRow> &rows, std::string_view spec)
{
    RowSorter sorter(spec);
    if (sorter.unknownKey()) {
        return sorter.unknownKey();
    }
    for (const auto &row : rows) {
        sorter.add(row);
    }
    std::vector<JobRow> sorted;
    sorted.reserve(rows.size());
    for (const std::uint32_t i : sorter.order()) {
        sorted.push_back(rows[i]);
    }
    rows = std::move(sorted);
    return std::nullopt;
}

std::optional<std::string> stateFilterName(std::string_view text)
{
    if (auto state = sched::parseJobState(text)) {
        return std::string(sched::longName(*state));
    }
    for (const auto &[name, shortName] : kOtherStates) {
        if (equalsIgnoreCase(text, name) || equalsIgnoreCase(text, shortName)) {
            return std::string(name);
        }
    }
    return std::nullopt;
}

std::string_view validStatesList()
{
    return "PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,"
           "BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING,RESV_DEL_HOLD,"
           "REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED";
}

} // namespace mc::cmd::squeue
