#pragma once
// A discrete-event replay of a cluster with the real scheduling core and no processes: jobs
// run for the run time they are given, end at their time limit (TIMEOUT) when longer, and the
// scheduler decides at every event time. Used by `minicluster simulate`, the golden scenarios
// and the property checks. Time only moves by events; nothing reads a clock.
//
// At each event time, in order: jobs that end (completion, time limit, preemption grace), then
// the commands given for that time in the order they were given, then one scheduling pass
// (repeated while preemptions free nodes at once).

#include "mc/sched/job.h"
#include "mc/sched/priority.h"
#include "mc/sched/scheduler.h"
#include "mc/sched/slurm_conf.h"

#include <queue>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mc::sim {

using sched::JobId;
using sched::Seconds;

enum class EventKind {
    Submit,
    Start,
    End,
    Requeue,
    Preempt,
    Pending,
    Hold,
    Release,
    NodeDown,
    NodeUp
};

struct SimEvent {
    Seconds time = 0;
    EventKind kind = EventKind::Submit;
    std::string job; // "12", or "12_3" for an array task
    std::string detail; // nodes for Start, state for End, reason for Pending, ...
};

// How a simulated job behaves once started.
struct Behaviour {
    Seconds runTime = 60; // how long the script runs
    int exitCode = 0; // nonzero ends it FAILED
};

struct SimulationOptions {
    std::optional<sched::SchedulerKind> policy; // unset: SchedulerType= of the config
    int reservationDepth = 100;
    bool keepEvents = true; // record the event log (off for large replays)
    // Each pass takes over the node plan of the last one (ScheduleSession); false builds it
    // afresh every pass. The decisions are the same either way (a test compares them).
    bool carryPlan = true;
};

class Simulation {
public:
    Simulation(sched::ClusterConfig config, SimulationOptions options = {});
    Simulation(const Simulation &) = delete; // the index points into the config
    Simulation &operator=(const Simulation &) = delete;

    // Commands, each taking effect at `at` (>= the current time). submit() fills in the
    // partition default time limit and returns the id the job will get (explicit `id` when
    // given, else the next one).
    JobId submit(
        Seconds at, sched::JobSpec spec, Behaviour behaviour, std::optional<JobId> id = {});
    void cancel(Seconds at, JobId job);
    void hold(Seconds at, JobId job, bool admin);
    void release(Seconds at, JobId job, bool admin);
    void requeue(Seconds at, JobId job);
    void failNode(Seconds at, const std::string &node); // running jobs on it are requeued
    void resumeNode(Seconds at, const std::string &node);
    void setPartitionState(Seconds at, const std::string &partition, sched::PartitionState state);
    void at(Seconds at, std::function<void()> action); // e.g. inspect the state at that time

    // Processes every event up to and including `until` (all of them when nullopt).
    void run(std::optional<Seconds> until = std::nullopt);

    Seconds now() const { return m_now; }
    const std::map<std::uint32_t, sched::Job> &jobs() const { return m_jobs; }
    const sched::Job *job(JobId id) const;
    // The last wait decision of a pending job (reason, planned start, what it waits for).
    const sched::WaitDecision *lastWait(JobId id) const;
    const std::vector<SimEvent> &events() const { return m_events; }
    const std::vector<sched::NodeUsage> &nodes() const { return m_nodes; }
    const sched::ClusterConfig &config() const { return m_config; }
    const sched::FairShareLedger &fairshare() const { return m_fairshare; }
    // Starts that began while a higher-priority job waited, with that job's reserved start
    // at the time (property: the reserved job must not start later than that).
    struct Reservation {
        JobId job;
        Seconds plannedStart;
    };
    const std::vector<Reservation> &reservations() const { return m_reservations; }
    std::string displayId(const sched::Job &job) const;
    // Passes run so far.
    std::size_t passes() const { return m_passes; }

private:
    struct Command {
        Seconds time;
        std::uint64_t seq;
        std::function<void()> action;
        bool submit = false; // only adds a job (the last pass stays valid for the others)
        bool operator>(const Command &o) const
        {
            return time != o.time ? time > o.time : seq > o.seq;
        }
    };
    struct Ending {
        Seconds time;
        std::uint32_t job;
        std::uint64_t generation;
        bool operator>(const Ending &o) const
        {
            return time != o.time ? time > o.time : job > o.job;
        }
    };

    // Jobs by id in a sorted vector: the passes walk the pending and running tables in id
    // order far more often than jobs come and go.
    template <typename T> class IdTable {
    public:
        using Entry = std::pair<std::uint32_t, T>;
        auto begin() const { return m_entries.begin(); }
        auto end() const { return m_entries.end(); }
        bool empty() const { return m_entries.empty(); }
        std::size_t size() const { return m_entries.size(); }
        T *find(std::uint32_t id)
        {
            auto it = lowerBound(id);
            return it != m_entries.end() && it->first == id ? &it->second : nullptr;
        }
        void insertOrAssign(std::uint32_t id, T value)
        {
            auto it = lowerBound(id);
            if (it != m_entries.end() && it->first == id) {
                it->second = std::move(value);
            } else {
                m_entries.insert(it, Entry{id, std::move(value)});
            }
        }
        void erase(std::uint32_t id)
        {
            auto it = lowerBound(id);
            if (it != m_entries.end() && it->first == id) {
                m_entries.erase(it);
            }
        }

    private:
        typename std::vector<Entry>::iterator lowerBound(std::uint32_t id)
        {
            return std::lower_bound(m_entries.begin(), m_entries.end(), id,
                [](const Entry &e, std::uint32_t key) { return e.first < key; });
        }
        std::vector<Entry> m_entries;
    };
    struct RunningJob {
        sched::Job *job; // into m_jobs
        std::vector<std::size_t> nodes; // indices into m_nodes
    };

    void log(EventKind kind, const sched::Job &job, std::string detail);
    void endDue();
    void pass();
    void apply(sched::SchedulePlan &plan, bool &immediate);
    sched::Job &pendingJob(JobId id);
    void startJob(const sched::StartDecision &start);
    void finish(sched::Job &job, sched::JobState state, int exitCode);
    void requeueRunning(sched::Job &job);
    void allocate(const sched::Job &job, int sign);
    void scheduleEnd(const sched::Job &job);
    std::size_t nodeIndex(const std::string &name) const;

    sched::ClusterConfig m_config;
    SimulationOptions m_options;
    sched::ScheduleSession m_scheduler;
    sched::JobLookup m_lookup; // over the whole job table (dependencies may name finished jobs)
    // Since the last pass, only submissions happened (`m_fresh`): the next one may append.
    bool m_dirty = true;
    std::vector<std::uint32_t> m_fresh;
    sched::FairShareLedger m_fairshare;
    Seconds m_now = 0;
    std::uint64_t m_seq = 0;
    std::uint32_t m_nextId = 1;
    std::size_t m_passes = 0;
    std::priority_queue<Command, std::vector<Command>, std::greater<>> m_commands;
    std::priority_queue<Ending, std::vector<Ending>, std::greater<>> m_endings;
    std::priority_queue<Seconds, std::vector<Seconds>, std::greater<>> m_wakes;
    std::map<std::uint32_t, sched::Job> m_jobs;
    std::map<std::uint32_t, Behaviour> m_behaviour;
    std::map<std::uint32_t, std::uint64_t> m_generation;
    std::map<std::uint32_t, sched::JobShape> m_shapes; // of running jobs
    std::map<std::uint32_t, sched::WaitDecision> m_waits;
    IdTable<sched::Job *> m_pending; // into m_jobs (its nodes are stable)
    // With the node indices of each running job, for allocate() and the passes.
    IdTable<RunningJob> m_running;
    std::vector<sched::NodeUsage> m_nodes;
    std::map<std::string, std::size_t> m_nodeIndex;
    std::optional<sched::ClusterIndex> m_clusterIndex;
    std::vector<SimEvent> m_events;
    std::vector<Reservation> m_reservations;
    std::set<std::uint32_t> m_reserved; // jobs in m_reservations
};

} // namespace mc::sim
