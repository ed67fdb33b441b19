#include "sacct_select.h"

#include <algorithm>

namespace mc::cmd::sacct {

using sched::JobState;

// Slurm's job selection window: with states, the job was in one of them during [start, end];
// without, it was eligible before `end` and had not ended before `start`.
bool inWindow(const Settings &s, const record::JobObject &job, std::int64_t start, std::int64_t end)
{
    const std::int64_t eligible = job.eligibleTime.value_or(job.submitTime);
    const std::int64_t started = job.startTime;
    const std::int64_t ended = job.endTime;
    if (s.states.empty()) {
        return eligible <= end && (ended == 0 || ended >= start);
    }
    auto state = jobState(job);
    if (!state || std::find(s.states.begin(), s.states.end(), *state) == s.states.end()) {
        return false;
    }
    switch (*state) {
    case JobState::Pending:
        return eligible <= end && (started == 0 || started >= start);
    case JobState::Running:
    case JobState::Suspended:
        return started > 0 && started <= end && (ended == 0 || ended >= start);
    default:
        return ended >= start && ended <= end;
    }
}

// "-j 12" selects job 12 and, when 12 is an array, its tasks; "-j 12_3" one task,
// "-j 12_[1-3]" those tasks.
bool selects(const JobSelector &selector, const record::JobObject &job)
{
    const std::int64_t arrayJob = job.arrayJobId;
    if (!selector.arrayTasks.empty()) {
        const auto &tasks = selector.arrayTasks;
        return arrayJob == selector.id && job.arrayTaskId
            && std::binary_search(
                tasks.begin(), tasks.end(), static_cast<std::uint32_t>(*job.arrayTaskId));
    }
    return selector.id == job.jobId || (arrayJob > 0 && selector.id == arrayJob);
}

bool selected(const Settings &s, const record::JobObject &job, bool byUser)
{
    auto has = [](const std::vector<std::string> &list, std::string_view value) {
        return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
    };
    if (!s.jobs.empty() && std::none_of(s.jobs.begin(), s.jobs.end(), [&](const JobSelector &j) {
            return selects(j, job);
        })) {
        return false;
    }
    if (byUser && s.users && !has(*s.users, job.user)) {
        return false;
    }
    if (!has(s.accounts, job.account) || !has(s.names, job.name)
        || !has(s.partitions, job.partition)) {
        return false;
    }
    if (!s.nodes.empty()) {
        const auto &nodes = job.nodes;
        return std::any_of(nodes.begin(), nodes.end(), [&](const std::string &n) {
            return std::find(s.nodes.begin(), s.nodes.end(), n) != s.nodes.end();
        });
    }
    return true;
}

} // namespace mc::cmd::sacct
