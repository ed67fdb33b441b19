// Array tasks addressed as Slurm's commands address them (issue #17): `job_ids` of cancel,
// hold, release and requeue may be strings "12", "12_3" or "12_[1-3,5]" as well as numbers. A
// task still pending in its array's record is split off into a record of its own first, as
// slurmctld does, so that it alone is cancelled, held or requeued; the rest of the array
// stays pending as one record (squeue: 12_[1,3-4]).
#include "mc/ctl/controller.h"
#include "mc/sched/job_array.h"
#include "mc/sched/job_transitions.h"

#include <algorithm>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobId;

Job &Controller::splitTask(Job &record, std::uint32_t taskId, Seconds now)
{
    const JobId newId = m_jobs.nextId();
    auto split = sched::splitArrayTask(record, taskId, newId);
    if (split.lastTask) {
        record = std::move(split.task);
        return record;
    }
    m_jobs.takeId(); // newId
    record = std::move(split.record);
    persist(record);
    emitJob(record, now);
    Job &task = m_jobs[newId] = std::move(split.task);
    m_store.setLastJobId(newId.value);
    return task;
}

Json Controller::jobFailure(const NamedJob &named, std::string_view message, int slurmErrno)
{
    const auto spec = sched::parseJobIdSpec(named.text);
    Json r = Json::object();
    r.set("job_id", static_cast<std::int64_t>(named.id ? named.id->value : spec ? spec->job : 0));
    r.set("job", named.text);
    r.set("error", message);
    r.set("errno", slurmErrno);
    return r;
}

std::vector<Controller::NamedJob> Controller::namedJobs(const Json &ids, Seconds now)
{
    std::vector<NamedJob> named;
    for (const auto &item : ids.items()) {
        const std::string text = item.isString() ? item.toString() : std::to_string(item.toInt());
        const auto spec = sched::parseJobIdSpec(text);
        if (!spec) {
            named.push_back(NamedJob{text, std::nullopt, false});
            continue;
        }
        if (spec->tasks.empty()) {
            const bool known = m_jobs.contains(JobId{spec->job});
            named.push_back(
                NamedJob{text, known ? std::optional(JobId{spec->job}) : std::nullopt, true});
            continue;
        }
        for (const std::uint32_t taskId : spec->tasks) {
            const std::string taskText = std::to_string(spec->job) + '_' + std::to_string(taskId);
            Job *task = nullptr;
            Job *record = nullptr; // the array's pending record, holding taskId
            for (auto it = m_jobs.lower_bound(JobId{spec->job}); it != m_jobs.end(); ++it) {
                Job &job = it->second;
                if (job.arrayJobId != spec->job) {
                    continue;
                }
                if (job.arrayTaskId == taskId && job.arrayPending.empty()) {
                    task = &job;
                    break;
                }
                if (std::find(job.arrayPending.begin(), job.arrayPending.end(), taskId)
                    != job.arrayPending.end()) {
                    record = &job;
                }
            }
            if (!task && record && record->isPending()) {
                task = &splitTask(*record, taskId, now);
                persist(*task);
                emitJob(*task, now);
            }
            named.push_back(
                NamedJob{taskText, task ? std::optional(task->id) : std::nullopt, false});
        }
    }
    return named;
}

} // namespace mc::ctl
