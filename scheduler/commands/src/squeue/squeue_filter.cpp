#include "squeue_filter.h"

#include "../shared/text.h"
#include "mc/sched/job_array.h"
#include "mc/sched/job_state.h"

#include <algorithm>
#include <array>
#include <functional>
#include <variant>

namespace mc::cmd::squeue {
namespace {

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

bool isActive(const JobView &job)
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
// values, not on JSON lookups: squeue sorts thousands of jobs).
using SortKey = std::variant<std::monostate, std::int64_t, std::string, std::vector<std::string>>;
using Extract = std::function<SortKey(const JobRow &)>;

Extract byText(std::string_view key)
{
    return [key](const JobRow &r) {
        return SortKey{r.job[key].toString()};
    };
}

Extract byNumber(std::string_view key)
{
    return [key](const JobRow &r) {
        return SortKey{r.job[key].toInt()};
    };
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
        return byText("batch_host");
    case 'C':
        return byNumber("num_cpus");
    case 'D':
        return byNumber("num_nodes");
    case 'e':
        return byNumber("end_time");
    case 'i':
        return byNumber("job_id");
    case 'j':
        return byText("name");
    case 'l':
        return byNumber("time_limit");
    case 'L':
        return [](const JobRow &r) {
            return SortKey{r.job["time_limit"].toInt() - timeUsed(r)};
        };
    case 'm':
        return byNumber("min_memory");
    case 'M':
        return [](const JobRow &r) {
            return SortKey{timeUsed(r)};
        };
    case 'N':
        return [](const JobRow &r) {
            return SortKey{r.job["nodes"].toStringList()};
        };
    case 'p':
    case 'Q':
        return byNumber("priority");
    case 'P':
        return byText("partition");
    case 'S':
        return [](const JobRow &r) {
            return SortKey{startTime(r)};
        };
    case 't':
        return byText("state_short");
    case 'T':
        return byText("state");
    case 'u':
        return byText("user");
    case 'U':
        return byNumber("uid");
    case 'V':
        return byNumber("submit_time");
    case 'g':
    case 'G':
        return byNumber("gid");
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

std::optional<std::vector<std::uint32_t>> Filter::tasksOf(const JobView &job) const
{
    const std::int64_t array = job["array_job_id"].toInt(-1);
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

bool Filter::accepts(const JobView &job) const
{
    if (licenses) {
        return false;
    }
    if (!jobIds.empty()
        && std::find(jobIds.begin(), jobIds.end(), job["job_id"].toInt()) == jobIds.end()
        && std::find(jobIds.begin(), jobIds.end(), job["array_job_id"].toInt(-1)) == jobIds.end()) {
        return false;
    }
    if (const auto wanted = tasksOf(job)) {
        // A started task: its own id; the pending record: any of the tasks it still holds.
        if (job["array_task_id"].isInt()) {
            return std::binary_search(wanted->begin(), wanted->end(),
                static_cast<std::uint32_t>(job["array_task_id"].toInt()));
        }
        const auto held = sched::parseArraySpec(job["array_task_str"].toString());
        return held
            && std::any_of(held->taskIds.begin(), held->taskIds.end(), [&](std::uint32_t t) {
                   return std::binary_search(wanted->begin(), wanted->end(), t);
               });
    }
    if (!accounts.empty() && !containsIgnoreCase(accounts, job["account"].view())) {
        return false;
    }
    if (!qos.empty() && !containsIgnoreCase(qos, job["qos"].view())) {
        return false;
    }
    if (!allStates) {
        if (states.empty() ? !isActive(job) : !contains(states, job["state"].view())) {
            return false;
        }
    }
    if (!partitions.empty() && !contains(partitions, job["partition"].view())) {
        return false;
    }
    if (users && !contains(*users, job["user"].view())) {
        return false;
    }
    if (!names.empty() && !contains(names, job["name"].view())) {
        return false;
    }
    if (!nodes.empty()) {
        const auto jobNodes = job["nodes"].toStringList();
        if (std::none_of(jobNodes.begin(), jobNodes.end(),
                [&](const std::string &n) { return contains(nodes, n); })) {
            return false;
        }
    }
    return true;
}

std::optional<char> sortRows(std::vector<JobRow> &rows, std::string_view spec)
{
    std::vector<Extract> keys;
    std::vector<bool> reverse;
    for (std::size_t i = 0; i < spec.size(); ++i) {
        const char key = spec[i];
        if (key == ',' || key == '+' || key == '-') {
            continue;
        }
        auto extract = extractorFor(key);
        if (!extract) {
            return key;
        }
        keys.push_back(std::move(*extract));
        reverse.push_back(i > 0 && spec[i - 1] == '-');
    }
    // Slurm applies the keys from the last to the first, each a stable sort of its own: the same
    // order as one stable sort on all keys, the first one primary. The keys are computed once,
    // in one flat table (row i's at i * width), and row indexes are sorted.
    const std::size_t width = keys.size();
    std::vector<SortKey> values;
    values.reserve(rows.size() * width);
    for (const auto &row : rows) {
        for (const auto &extract : keys) {
            values.push_back(extract(row));
        }
    }
    std::vector<std::uint32_t> order(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = static_cast<std::uint32_t>(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const SortKey *ka = &values[a * width];
        const SortKey *kb = &values[b * width];
        for (std::size_t k = 0; k < width; ++k) {
            if (ka[k] != kb[k]) {
                return reverse[k] ? kb[k] < ka[k] : ka[k] < kb[k];
            }
        }
        return false;
    });
    std::vector<JobRow> sorted;
    sorted.reserve(rows.size());
    for (const std::uint32_t i : order) {
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
