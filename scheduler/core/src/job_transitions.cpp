#include "mc/sched/job_transitions.h"

#include <algorithm>
#include <numeric>

namespace mc::sched {

Job startJob(Job job, const StartDecision &start, Seconds now)
{
    job.state = JobState::Running;
    job.reason = Reason::None;
    job.startTime = now;
    job.endTime = 0;
    job.nodeList = start.nodes;
    job.batchHost = start.nodes.empty() ? std::string() : start.nodes.front();
    job.allocCpus = start.shape.cpusPerNode * static_cast<int>(start.nodes.size());
    job.nodeCpus.clear();
    if (start.shape.cpusOnNode.size() == start.nodes.size() && !start.shape.exclusive) {
        job.nodeCpus = start.shape.cpusOnNode;
        job.allocCpus = std::accumulate(job.nodeCpus.begin(), job.nodeCpus.end(), 0);
    }
    job.memPerNode = start.shape.memPerNode;
    job.gpusPerNode = start.shape.gpusPerNode;
    job.plannedStart.reset();
    job.preemptEnd.reset();
    if (start.timeLimit) {
        job.timeLimit = *start.timeLimit;
    }
    return job;
}

Job endJob(Job job, JobState state, ExitStatus exit, Seconds now)
{
    job.state = state;
    job.exit = exit;
    job.endTime = now;
    job.preemptEnd.reset();
    job.plannedStart.reset();
    if (state == JobState::Timeout) {
        job.reason = Reason::TimeLimit;
    } else if (state == JobState::Failed) {
        job.reason = Reason::NonZeroExitCode;
    } else if (state == JobState::OutOfMemory) {
        job.reason = Reason::OutOfMemory;
    } else {
        job.reason = Reason::None;
    }
    if (job.startTime == 0 && state == JobState::Cancelled) {
        job.startTime = now; // Slurm sets StartTime to the cancel time for never-run jobs
    }
    return job;
}

Job requeueJob(Job job, Seconds now, Seconds delay)
{
    job.state = JobState::Pending;
    job.reason = Reason::None;
    job.nodeList.clear();
    job.gpuIds.clear();
    job.gpuAllocType.clear();
    job.gpusPerNode = 0;
    job.batchHost.clear();
    job.allocCpus = 0;
    job.nodeCpus.clear();
    job.startTime = 0;
    job.endTime = 0;
    job.eligibleTime = now + delay;
    job.preemptEnd.reset();
    ++job.restarts;
    return job;
}

Job holdJob(Job job, bool admin)
{
    if (admin) {
        job.heldByAdmin = true;
        job.reason = Reason::JobHeldAdmin;
    } else {
        job.spec.hold = true;
        job.reason = Reason::JobHeldUser;
    }
    return job;
}

std::optional<Job> releaseJob(Job job, bool admin)
{
    if (job.heldByAdmin && !admin) {
        return std::nullopt;
    }
    job.heldByAdmin = false;
    job.spec.hold = false;
    job.reason = Reason::None;
    return job;
}

ArraySplit splitArrayTask(Job record, std::uint32_t taskId, JobId id)
{
    ArraySplit split;
    std::erase(record.arrayPending, taskId);
    Job task = record;
    task.arrayPending.clear();
    task.arrayTaskId = taskId;
    if (record.arrayPending.empty()) {
        split.lastTask = true;
        task.id = record.id;
    } else {
        task.id = id;
    }
    split.record = std::move(record);
    split.task = std::move(task);
    return split;
}

bool isOverTime(const Job &job, Seconds now)
{
    return job.isActive() && job.state != JobState::Suspended && job.timeLimit != kInfinite
        && job.runTime(now) >= job.timeLimit;
}

} // namespace mc::sched
