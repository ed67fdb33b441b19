// The `suspend` and `resume` requests (scontrol suspend/resume, LSF's bstop/bresume): a running
// job stops where it is, keeping its allocation, and goes on later. Slurm 22.05's rules and
// words, as its slurmctld answers them: only an operator may (LSF lets a job's owner, `owner`),
// a pending job "is pending execution", a suspended job suspended again is no error, a running
// one resumed "is not suspended". The nodes freeze the job's processes (the `suspend` order);
// the time limit does not run while the job is suspended (Job::suspendedSecs).
#include "mc/ctl/controller.h"
#include "replies.h"

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobState;

namespace {

inline constexpr int kUnexpectedMessage = 1000; // SLURM_UNEXPECTED_MSG_ERROR
inline constexpr int kNotSuspended = 2087; // ESLURM_JOB_NOT_SUSPENDED

} // namespace

Json Controller::suspendOrResume(const Json &request, Seconds now, bool resume)
{
    const std::string user = request["user"].toString();
    const bool admin = isAdmin(user);
    Json failures = Json::array();
    for (const NamedJob &named : namedJobs(request["job_ids"], now)) {
        auto fail = [&](std::string_view message, int slurmErrno) {
            failures.push(jobFailure(named, message, slurmErrno));
        };
        auto it = named.id ? m_jobs.find(*named.id) : m_jobs.end();
        if (it == m_jobs.end()) {
            // Slurm 22.05's answer for a job it does not know, to users and operators alike.
            fail("Unexpected message received", kUnexpectedMessage);
            continue;
        }
        Job &job = it->second;
        if (!admin && !(request["owner"].toBool() && job.spec.user == user)) {
            fail("Access/permission denied", kAccessDenied);
            continue;
        }
        if (job.isPending()) {
            fail("Job is pending execution", kJobPending);
            continue;
        }
        if (!job.isActive() || job.state == JobState::Completing) {
            fail("Job/step already completing or completed", kAlreadyDone);
            continue;
        }
        if (resume != (job.state == JobState::Suspended)) {
            if (resume) {
                fail("Job is not suspended", kNotSuspended);
            }
            continue; // suspending a suspended job: Slurm says nothing
        }
        if (resume) {
            foldSuspension(job, now);
            job.state = JobState::Running;
        } else {
            job.state = JobState::Suspended;
            job.suspendTime = now;
        }
        persist(job);
        emitJob(job, now);
        Json order = Json::object();
        order.set("op", "suspend");
        order.set("job_id", static_cast<std::int64_t>(job.id.value));
        order.set("resume", resume);
        for (const auto &node : job.nodeList) { // srun steps may run on every node
            m_gateway.send(node, order);
        }
    }
    Json reply = success();
    reply.set("results", std::move(failures));
    return reply;
}

void Controller::foldSuspension(Job &job, Seconds now)
{
    if (job.state == JobState::Suspended) {
        job.suspendedSecs += std::max<Seconds>(0, now - job.suspendTime);
        job.suspendTime = now;
    }
}

} // namespace mc::ctl
