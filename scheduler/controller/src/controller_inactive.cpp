// Liveness of what runs, as slurmctld judges it (docs/design.md, "Timing keys"):
// InactiveLimit ends an salloc/srun allocation whose command stopped answering (slurmctld's
// srun_ping() and job_time_limit()), BatchStartTimeout a batch job its node never reported
// started (_purge_missing_jobs()). Both end jobs through the paths every other end takes.

#include "mc/ctl/controller.h"

#include <algorithm>
#include <cstdio>

namespace mc::ctl {

using sched::Job;
using sched::JobId;
using sched::JobState;

void Controller::enforceInactiveLimit(
    Seconds now, const std::function<std::optional<bool>(JobId)> &responds)
{
    const Seconds limit = m_config.inactiveLimit;
    if (limit <= 0) {
        m_lastActive.clear();
        return;
    }
    std::erase_if(m_lastActive, [this](const auto &entry) {
        auto it = m_jobs.find(entry.first);
        return it == m_jobs.end() || it->second.state != JobState::Running;
    });
    // The ping round first: after a fast-forward, a client that answers is not taken for
    // silent because the clock jumped past its last answer.
    const bool pingNow = now - m_lastPing >= std::max<Seconds>(1, limit / 3);
    if (pingNow) {
        m_lastPing = now;
    }
    // Slurm ends the job once its last answer is this old: its pings are InactiveLimit/3
    // apart, and each waits up to MessageTimeout for the answer.
    const Seconds oldest = now - (limit * 4 / 3 + m_config.messageTimeout + 1);
    std::vector<JobId> silent;
    for (const auto &[id, job] : m_jobs) {
        if (!job.spec.interactive || job.state != JobState::Running) {
            continue; // batch jobs are exempt; suspended jobs are not timed
        }
        const std::optional<bool> answers = responds(id);
        if (!answers) {
            continue; // no client to ask (slurmctld's job without other_port)
        }
        auto last = m_lastActive.try_emplace(id, job.startTime).first;
        if (pingNow && *answers) {
            last->second = now;
        }
        if (last->second <= oldest) {
            silent.push_back(id);
        }
    }
    for (JobId id : silent) {
        Job &job = m_jobs[id];
        std::fprintf(
            stderr, "minicluster-ctld: inactivity time limit reached for JobId=%u\n", id.value);
        endAllocation(job, JobState::Timeout, {}, now, sched::Reason::InactiveLimit);
        m_lastActive.erase(id);
    }
    if (!silent.empty()) {
        schedule(now);
    }
}

void Controller::noteLaunched(const Job &job)
{
    if (m_clock) {
        m_launching[job.id] = {m_clock->wall(), job.startTime};
    }
}

void Controller::enforceBatchStartTimeout(Seconds now)
{
    if (!m_clock) {
        return;
    }
    const double wall = m_clock->wall();
    // slurmctld allows the launch message its own timeout as well (at most 10 s of it).
    const double allowed = static_cast<double>(
        m_config.batchStartTimeout + std::min<Seconds>(10, m_config.messageTimeout));
    std::vector<JobId> missing;
    for (auto it = m_launching.begin(); it != m_launching.end();) {
        auto job = m_jobs.find(it->first);
        if (job == m_jobs.end() || job->second.state != JobState::Running
            || job->second.startTime != it->second.second) {
            it = m_launching.erase(it); // ended, requeued or cancelled meanwhile
            continue;
        }
        if (wall - it->second.first > allowed) {
            missing.push_back(it->first);
            it = m_launching.erase(it);
            continue;
        }
        ++it;
    }
    for (JobId id : missing) {
        Job &job = m_jobs[id];
        std::fprintf(stderr,
            "minicluster-ctld: Batch JobId=%u missing from batch node %s (not found "
            "BatchStartTime after startup)%s\n",
            id.value, job.batchHost.c_str(),
            job.spec.requeue.value_or(true) ? ", Requeuing job" : "");
        // Should the launch still happen, its processes go: the job is no longer theirs.
        loseJob(job, true, now);
    }
    if (!missing.empty()) {
        schedule(now);
    }
}

} // namespace mc::ctl
