// The cluster clock and what follows from it (docs/design.md, "One cluster clock"): the
// `clock` request, time limits (TIMEOUT at the limit, KillWait), --signal's warning, and the
// conversion of a node's wall-clock end time to the cluster's.
#include "mc/ctl/controller.h"
#include "replies.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobState;

ClusterClock::ClusterClock(std::function<double()> wall)
    : m_wall(std::move(wall))
{
    if (!m_wall) {
        m_wall = [] {
            using namespace std::chrono;
            return duration<double>(system_clock::now().time_since_epoch()).count();
        };
    }
}

Seconds ClusterClock::now() const
{
    return at(m_wall());
}

Seconds ClusterClock::at(double wall) const
{
    return static_cast<Seconds>(std::floor(wall * m_speed + m_offset));
}

std::int64_t ClusterClock::wallMs(Seconds seconds) const
{
    return std::llround(static_cast<double>(seconds) * 1000.0 / m_speed);
}

void ClusterClock::setSpeed(double speed)
{
    const double wall = m_wall();
    const double current = wall * m_speed + m_offset;
    m_speed = speed;
    m_offset = current - wall * speed; // `now` goes on from where it was
}

void ClusterClock::advance(Seconds seconds)
{
    m_offset += static_cast<double>(seconds);
}

void ClusterClock::restore(double speed, double offset)
{
    m_speed = speed;
    m_offset = offset;
}

void Controller::setClock(ClusterClock *clock)
{
    m_clock = clock;
    if (!m_clock) {
        return;
    }
    const auto speed = m_store.meta("clock_speed_micro");
    const auto offset = m_store.meta("clock_offset");
    if (speed && offset && *speed > 0) {
        m_clock->restore(static_cast<double>(*speed) / 1e6, static_cast<double>(*offset));
    }
}

Json Controller::clockRequest(const Json &request, Seconds now)
{
    if (!m_clock) {
        return failure("minicluster does not support changing the clock here", kNotSupported);
    }
    if (request["speed"].isNumber()) {
        const double speed = request["speed"].toDouble();
        if (!(speed > 0) || speed > 1e6) {
            return failure("clock speed must be above 0", kNotSupported);
        }
        m_clock->setSpeed(speed);
    }
    if (request["advance"].isNumber()) {
        const auto seconds = request["advance"].toInt();
        if (seconds < 0) {
            return failure("the cluster clock cannot go back", kNotSupported);
        }
        m_clock->advance(seconds);
    }
    // A request with neither is a question: nothing to save, nobody to tell.
    const bool changed = request["speed"].isNumber() || request["advance"].isNumber();
    if (changed) {
        m_store.setMeta("clock_speed_micro", std::llround(m_clock->speed() * 1e6));
        m_store.setMeta("clock_offset", std::llround(m_clock->offset()));
    }
    const Seconds current = std::max(now, m_clock->now());
    Json reply = success();
    reply.set("now", current);
    reply.set("speed", m_clock->speed());
    reply.set("offset", m_clock->offset());
    if (changed && publish) {
        Json event = Json::object();
        event.set("event", "clock");
        event.set("now", current);
        event.set("speed", m_clock->speed());
        publish(event);
    }
    if (changed) {
        enforceTimeLimits(current); // limits that a fast-forward passed end at the limit
    }
    return reply;
}

namespace {

// The limit of a job, if it has one.
std::optional<Seconds> limitOf(const Job &job)
{
    if (job.timeLimit <= 0 || job.timeLimit == sched::kInfinite) {
        return std::nullopt;
    }
    return job.timeLimit;
}

// sbatch --signal's "[B:]<number>@<seconds>": the signal, how long before the limit, and
// whether it goes to the batch shell (B:) or to the job's steps.
struct Warning {
    int signal = 0;
    Seconds before = 0;
    bool batch = false;
};

std::optional<Warning> warningOf(const std::string &spec)
{
    const auto at = spec.find('@');
    if (at == std::string::npos) {
        return std::nullopt;
    }
    Warning w;
    w.batch = spec.rfind("B:", 0) == 0;
    const std::size_t from = w.batch ? 2 : 0;
    w.signal = std::atoi(spec.substr(from, at - from).c_str());
    w.before = std::atoll(spec.c_str() + at + 1);
    if (w.signal <= 0) {
        return std::nullopt;
    }
    return w;
}

} // namespace

void Controller::enforceTimeLimits(Seconds now)
{
    const std::optional<Seconds> over = m_config.overTimeLimit; // nullopt: UNLIMITED
    for (auto &[id, job] : m_jobs) {
        const auto limit = limitOf(job);
        // A suspended job's limit waits: suspended seconds are added to its deadline.
        if (!limit || job.state == JobState::Completing || job.state == JobState::Suspended
            || !job.isActive()) {
            continue;
        }
        const Seconds start = job.startTime + job.suspendedSecs;
        const Seconds deadline = start + *limit + over.value_or(0);
        if (job.spec.interactive) {
            if (over && deadline <= now) {
                // The steps' srun see their job end and stop their tasks (srun polls its job).
                endAllocation(job, JobState::Timeout, {}, deadline);
            }
            continue;
        }
        if (job.state != JobState::Running) {
            continue;
        }
        // --signal: timed from the limit itself, whatever OverTimeLimit adds.
        const auto warning = warningOf(job.spec.signal);
        if (warning && !m_warned.contains(id) && start + *limit - warning->before <= now) {
            m_warned.insert(id);
            Json order = Json::object();
            order.set("op", "signal");
            order.set("job_id", static_cast<std::int64_t>(id.value));
            order.set("signal", warning->signal);
            order.set("scope", warning->batch ? "batch" : "steps");
            order.set("warning", true);
            for (const auto &node : job.nodeList) { // steps may run on every node
                if (!warning->batch || node == job.batchHost) {
                    m_gateway.send(node, order);
                }
            }
        }
        if (over && deadline <= now) {
            timeOut(job, deadline);
        }
    }
}

void Controller::timeOut(Job &job, Seconds deadline)
{
    // Slurm's job_time_limit(): TIMEOUT from the limit on, COMPLETING (CG, Reason TimeLimit)
    // until the node reports the processes gone. The end is the limit, however late the clock
    // reached it (a fast-forward): Elapsed never passes TimeLimit + OverTimeLimit.
    job.state = JobState::Completing;
    job.reason = sched::Reason::TimeLimit;
    job.endTime = deadline;
    m_warned.erase(job.id);
    persist(job);
    emitJob(job, deadline);
    Json order = Json::object();
    order.set("op", "signal");
    order.set("job_id", static_cast<std::int64_t>(job.id.value));
    order.set("signal", SIGTERM);
    order.set("cancel", true);
    order.set("timeout", true);
    order.set("time", deadline); // the notice's "CANCELLED AT", on the cluster clock
    // KillWait on the cluster clock: shorter in wall time when the clock runs fast.
    order.set("kill_wait_ms",
        m_clock ? m_clock->wallMs(m_config.killWait) : std::int64_t{m_config.killWait} * 1000);
    m_gateway.send(job.batchHost, order);
}

bool Controller::timingOut(const Job &job)
{
    return job.state == JobState::Completing && job.reason == sched::Reason::TimeLimit
        && !job.cancelledBy;
}

Seconds Controller::reportedEnd(const Job &job, const record::JobEnd &report, Seconds now) const
{
    if (timingOut(job)) {
        return job.endTime; // the limit (timeOut())
    }
    if (!report.endTime) {
        return now;
    }
    if (!m_clock) { // no cluster clock (unit tests): the report's time is the cluster's
        return static_cast<Seconds>(*report.endTime);
    }
    // A node tells its wall clock; the job cannot have ended before it started or after now.
    const Seconds end = m_clock->at(*report.endTime);
    return std::clamp(end, job.startTime, std::max(job.startTime, now));
}

std::optional<Seconds> Controller::nextTimeEvent(Seconds now) const
{
    std::optional<Seconds> next;
    auto consider = [&](Seconds at) {
        if (at > now && (!next || at < *next)) {
            next = at;
        }
    };
    for (const auto &[id, job] : m_jobs) {
        const auto limit = limitOf(job);
        if (!limit || job.state != JobState::Running) {
            continue;
        }
        const Seconds start = job.startTime + job.suspendedSecs; // suspensions do not count
        if (m_config.overTimeLimit) {
            consider(start + *limit + *m_config.overTimeLimit);
        }
        if (const auto warning = warningOf(job.spec.signal); warning && !m_warned.contains(id)) {
            consider(start + *limit - warning->before);
        }
    }
    return next;
}

} // namespace mc::ctl
