#pragma once
// The controller: owns the queue and node usage, applies the scheduler's decisions, keeps the
// job store durable, and tells node daemons and subscribers what changed. Transport-free: the
// Server feeds it requests and reports; NodeGateway and `publish` carry its orders and events
// out. Time comes in as `now` on every call.
//
// Its parts, each with its state and invariants in its header: the jobs and their rows
// (JobTable, job_table.h), the nodes and their running steps (NodeTable, node_table.h), the
// fairshare ledger (Fairshare, fairshare.h) and what sacct reads (AccountingViews,
// accounting_views.h); the requests it answers are one table (request_table.cpp).
//
// Job life here: submit -> PENDING (committed before the reply) -> RUNNING (launch order sent)
// -> COMPLETING after scancel -> COMPLETED / FAILED / CANCELLED (end report committed, then
// acknowledged to the node).

#include "mc/acct/job_store.h"
#include "mc/ctl/accounting_views.h"
#include "mc/ctl/fairshare.h"
#include "mc/ctl/job_table.h"
#include "mc/ctl/node_table.h"
#include "mc/proto/json.h"
#include "mc/record/job_codec.h"
#include "mc/record/job_end.h"
#include "mc/record/step_end.h"
#include "mc/sched/job.h"
#include "mc/sched/scheduler.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/slurm_conf.h"

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>

namespace mc::ctl {

using sched::Seconds;

// How orders reach node daemons. `launch` returns false when the node is not connected.
class NodeGateway {
public:
    virtual ~NodeGateway() = default;
    virtual bool send(const std::string &node, const proto::Json &order) = 0;
};

// True when slurm.conf text sets PrologFlags with Contain (what makes Slurm create the extern
// step of every job). The core's parser accepts the key without keeping it.
bool prologFlagsContain(const std::string &slurmConf);

// The cluster's time: wall clock * speed + offset (instructors speed it up or jump ahead).
// Changing the speed keeps `now` continuous; the state is saved in the job store so that a
// restarted controller keeps the same time. The one clock of the cluster: everything that
// dates or times a job reads it (docs/design.md, "One cluster clock").
class ClusterClock {
public:
    explicit ClusterClock(std::function<double()> wall = {});
    Seconds now() const;
    // The cluster time of a wall-clock instant (seconds since the epoch), at today's speed
    // and offset: a node's report of when a process ended.
    Seconds at(double wall) const;
    // How many wall milliseconds `seconds` of cluster time last at today's speed.
    std::int64_t wallMs(Seconds seconds) const;
    double wall() const { return m_wall(); } // the wall clock it reads (seconds since the epoch)
    double speed() const { return m_speed; }
    double offset() const { return m_offset; }
    void setSpeed(double speed); // > 0
    void advance(Seconds seconds); // >= 0
    void restore(double speed, double offset);

private:
    std::function<double()> m_wall; // seconds since the epoch, fractional
    double m_speed = 1.0;
    double m_offset = 0.0;
};

class Controller {
public:
    Controller(sched::ClusterConfig config, sched::SiteUsers users, acct::JobStore &store,
        NodeGateway &gateway);
    // Its parts hold references to its members (the configuration, the store, the jobs).
    Controller(const Controller &) = delete;
    Controller &operator=(const Controller &) = delete;

    // Reloads unfinished jobs and the job id counter from the store.
    bool restore(std::string &error);
    // After restore(): jobs whose partition or nodes slurm.conf no longer has end as Slurm
    // ends them at its start (NODE_FAIL, NodeDown; a running batch job that only lost a node
    // is requeued), stored before any client is served.
    void endJobsOfVanishedConfig(Seconds now);

    // Called with every job or node change (docs/protocol.md events).
    std::function<void(const proto::Json &event)> publish;

    // One row of the request table (request_table.cpp), the one list of the requests the
    // controller answers: handleRequest() dispatches by it, and the Server reads `changes` to
    // run a scheduling pass right after a request (not at the next 1 s tick). An op missing
    // from the table is answered "Unknown request: <op>". The Server keeps three requests
    // about the connection itself: node_register, subscribe and shutdown.
    struct Request {
        std::string_view op;
        proto::Json (*handle)(Controller &controller, const proto::Json &request, Seconds now);
        // Whether this request may change what a scheduling pass decides (the queue, the
        // nodes, the clock); never null.
        bool (*changes)(const proto::Json &request);
        // Whether its reply carries the cluster clock as `now` (srun's step requests do not).
        bool stampsNow = true;
    };
    static std::span<const Request> requests();
    static const Request *findRequest(std::string_view op); // null: not in the table

    // Requests from commands and apps (docs/protocol.md), by the table: ping, submit, jobs,
    // job_scripts, cancel, acct, cluster, hold, release, requeue, suspend, resume, update,
    // priorities, shares,
    // node_update, clock (needs setClock()), config, and srun/salloc's step_create,
    // step_usage, step_end, steps and alloc_release, and scancel's step_signal
    // (controller_steps.cpp).
    proto::Json handleRequest(const proto::Json &request, Seconds now);
    // The snapshot a new subscriber gets.
    proto::Json snapshot(Seconds now) const;

    // Node daemon reports (node_register, job_started, job_ended) and disconnects. A
    // registration is reconciled with the store (its kept end reports, then its running jobs)
    // before any pass; a lost daemon's batch jobs stay RUNNING until its node's next daemon
    // registers (docs/design.md, "At most once").
    void nodeRegistered(const std::string &node, const proto::Json &message, Seconds now);
    // `pass`: a job's end is followed by a scheduling pass at once; false leaves it to the
    // caller (the Server runs one pass for the reports of a loop round, as the simulator one
    // for the ends of an instant).
    void nodeReport(
        const std::string &node, const proto::Json &message, Seconds now, bool pass = true);
    void nodeLost(const std::string &node, Seconds now);

    // Runs a scheduling pass and applies it.
    void schedule(Seconds now);
    // Drops finished jobs older than MinJobAge from memory (they stay in the store).
    void purgeOldJobs(Seconds now);

    const sched::ClusterConfig &config() const { return m_config; }
    const sched::SiteUsers &users() const { return m_users; }

    // The cluster clock the `clock` request changes (owned by the Server; may be null). Its
    // saved speed and offset, if any, are restored into it.
    void setClock(ClusterClock *clock);
    // Passes run so far (tests, benchmarks).
    std::size_t passes() const { return m_passes; }

    // slurm.conf PrologFlags=Contain: every job also gets an "extern" step in accounting.
    void setExternSteps(bool on) { m_externSteps = on; }
    // When the controller started, on the cluster clock: `ping` reports it (scontrol show
    // config's BOOT_TIME). 0: not told.
    void setBootTime(sched::Seconds at) { m_bootTime = at; }

    // Time limits on the cluster clock (controller_time.cpp): jobs past TimeLimit +
    // OverTimeLimit end TIMEOUT at that instant (a batch job COMPLETING until its node reports
    // the processes gone, after SIGTERM and, KillWait later, SIGKILL); --signal's warning is
    // sent `seconds` before the limit. Called every tick and after each clock change.
    void enforceTimeLimits(Seconds now);
    // The next instant after `now` at which enforceTimeLimits() has something to do (the
    // daemon's tick waits no longer), if any.
    std::optional<Seconds> nextTimeEvent(Seconds now) const;
    // The cluster clock's speed (1 without a clock).
    double clockSpeed() const { return m_clock ? m_clock->speed() : 1.0; }

    // Liveness of what runs (controller_inactive.cpp), slurmctld's rules. InactiveLimit: every
    // InactiveLimit/3 s of the cluster clock the salloc/srun of each running allocation is
    // "pinged" through `responds` (true: it answers; false: it is stopped; nullopt: no client
    // known, as after a controller restart: exempt); one unheard of for InactiveLimit*4/3 +
    // MessageTimeout + 1 s ends TIMEOUT, reason InactiveLimit. Batch jobs are exempt; 0: off.
    void enforceInactiveLimit(
        Seconds now, const std::function<std::optional<bool>(sched::JobId)> &responds);
    // BatchStartTimeout: a batch job whose node has not reported it started (job_started)
    // BatchStartTimeout + min(10, MessageTimeout) s of wall time after its launch order is lost
    // with the node: requeued, or NODE_FAIL. Needs setClock() (its wall clock).
    void enforceBatchStartTimeout(Seconds now);

private:
    proto::Json submit(const proto::Json &request, Seconds now);
    proto::Json listJobs(const proto::Json &request, Seconds now) const;
    proto::Json cancel(const proto::Json &request, Seconds now);
    proto::Json clusterInfo() const;
    proto::Json ping(Seconds now) const;

    // Which members of a job object a request wants (`fields`; all by default).
    struct JobView {
        record::JobKeys keys = record::JobKeys::all();
        bool waitingFor = true, dependency = true, explanation = true, now = true,
             backfilled = true;
        static JobView of(const std::vector<std::string> &fields);
    };
    proto::Json jobJson(const sched::Job &job, Seconds now) const;
    proto::Json jobJson(const sched::Job &job, Seconds now, const JobView &view) const;
    // `job` ended as `report` says (a node's job_ended, or the controller's own end of a job
    // lost with its node); its job id is not read.
    void jobEnded(sched::Job &job, const record::JobEnd &report, Seconds now);
    void failJobsOn(const std::string &node, sched::JobId spared, bool killHere, Seconds now);
    // `job` is lost with its node: requeued (JobRequeue=1) or NODE_FAIL; with `kill` its batch
    // host is told to kill what runs of it there.
    void loseJob(sched::Job &job, bool kill, Seconds now);
    // A node restarting after a job's memory overrun (node_reboot): down, its other jobs lost
    // as in a node failure; back (node_rebooted, or a new registration): up, and the
    // culprit's Comment written (the Inserm site's mechanism).
    void nodeRebooting(NodeInfo &node, sched::JobId culprit, Seconds now);
    void nodeRebooted(NodeInfo &node, Seconds now);
    // `limitKb`: the memory limit the culprit went over (0: not known, not said).
    void noteMemoryOverrun(NodeInfo &node, sched::JobId culprit, std::int64_t limitKb, Seconds now);
    void release(sched::Job &job);
    // Durability (controller_store.cpp). persist() and saveStep() write a record; when the
    // store refuses (a full disk), the record is kept, the cause logged once, and every pass
    // (flushUnsaved) writes it again. While anything is unsaved the controller starts no job,
    // refuses submissions (Slurm's ESLURM_WRITING_TO_FILE) and holds the acknowledgements of
    // end reports (ackEnd), so a node keeps them until they are committed.
    bool persist(const sched::Job &job);
    bool saveStep(const acct::StepRecord &step);
    void storeFailed(const std::string &what, const std::string &error);
    bool flushUnsaved();
    bool storeFailing() const { return !m_unsaved.empty() || !m_unsavedSteps.empty(); }
    void ackEnd(const std::string &node, std::uint32_t job);
    // Applies a node's end report (nothing else: no pass); false when it was not for an
    // active job of that node (a late or repeated report).
    bool applyEndReport(const std::string &node, const record::JobEnd &report, Seconds now);
    void emitJob(const sched::Job &job, Seconds now);
    void emitNode(const NodeInfo &node);
    proto::Json launchOrder(const sched::Job &job) const;

    // Scheduling (controller_schedule.cpp): the pass and how its decisions are applied.
    void applyWaits(sched::SchedulePlan &plan, Seconds now);
    void applyPreemptions(const sched::SchedulePlan &plan, Seconds now);
    void enforcePreemptions(Seconds now);
    void startDecided(const sched::StartDecision &start, Seconds now);
    void publishPlan();
    sched::JobLookup makeLookup() const;
    sched::SchedulerInput schedulerInput(Seconds now) const;
    bool isAdmin(const std::string &user) const;
    std::optional<proto::Json> validate(sched::Job &job, Seconds now);
    // Array tasks by Slurm's ids (controller_array_ids.cpp). A job a request's `job_ids` names:
    // as written ("12", "12_3"), its record (nullopt: no such job or task), and whether it
    // was named by the job's id alone (an array's id names the whole array).
    struct NamedJob {
        std::string text;
        std::optional<sched::JobId> id;
        bool wholeJob = true;
    };
    // Every job `ids` names (numbers, or "12", "12_3", "12_[1-3,5]"), a range of tasks one by
    // one. A task still pending in its array's record is split into a record of its own.
    std::vector<NamedJob> namedJobs(const proto::Json &ids, Seconds now);
    // A per-job failure of cancel, hold, release or requeue: {job_id, job (as named), error,
    // errno}; job_id is the record's id, else the job id of the name.
    static proto::Json jobFailure(const NamedJob &named, std::string_view message, int slurmErrno);
    // Task `taskId` of pending array record `record` as a record of its own (a new id, unless
    // it is the last task: then `record` itself); returns it.
    sched::Job &splitTask(sched::Job &record, std::uint32_t taskId, Seconds now);
    // Requests (controller_ops.cpp).
    proto::Json holdOrRelease(const proto::Json &request, Seconds now, bool hold);
    proto::Json requeue(const proto::Json &request, Seconds now);
    // suspend / resume (controller_suspend.cpp): Slurm's operators (a job's owner with
    // `owner`, LSF's bstop) stop a running job and go on with it; the nodes freeze it.
    proto::Json suspendOrResume(const proto::Json &request, Seconds now, bool resume);
    // Ends the suspension of a job ending while suspended (scancel) in its suspended time.
    void foldSuspension(sched::Job &job, Seconds now);
    proto::Json update(const proto::Json &request, Seconds now);
    proto::Json updateJob(sched::JobId id, const proto::Json &request, Seconds now);
    proto::Json priorities(const proto::Json &request, Seconds now) const;
    proto::Json nodeUpdate(const proto::Json &request, Seconds now);
    proto::Json clockRequest(const proto::Json &request, Seconds now);
    void timeOut(sched::Job &job, Seconds deadline);
    // A batch job timeOut() ended, waiting for its node's end report (kept in the store).
    static bool timingOut(const sched::Job &job);
    // When a job ended, on the cluster clock, from its node's report (a wall-clock time).
    Seconds reportedEnd(const sched::Job &job, const record::JobEnd &report, Seconds now) const;
    proto::Json configInfo(Seconds now) const;
    proto::Json testOnly(sched::Job job, Seconds now) const;

    sched::ClusterConfig m_config;
    sched::SiteUsers m_users;
    acct::JobStore &m_store;
    NodeGateway &m_gateway;
    JobTable m_jobs; // the jobs in memory, their rows and the last job id (job_table.h)
    NodeTable m_nodes; // after m_config, which it reads
    bool m_externSteps = false;
    sched::Seconds m_bootTime = 0;
    // Scheduler state (issue #3).
    sched::Scheduler m_scheduler;
    Fairshare m_fairshare; // after m_config and m_users, which it reads
    // `acct` and `job_scripts` (accounting_views.h); after m_store and m_jobs, which it reads.
    AccountingViews m_accounting;
    std::map<sched::JobId, sched::WaitDecision> m_waits; // last decision of each pending job
    // How each job in memory was started (in priority order or by backfill): jobs then say
    // `backfilled` and explain their start (the timeline marks backfilled jobs).
    std::map<sched::JobId, sched::StartDecision> m_starts;
    std::map<sched::JobId, bool> m_preemptKilled; // preempted jobs whose grace time is over
    std::map<sched::JobId, bool> m_requeueOnEnd; // scontrol requeue of a running job (hold?)
    proto::Json m_lastPlan; // the last `plan` event sent
    ClusterClock *m_clock = nullptr;
    std::set<sched::JobId> m_warned; // running jobs whose --signal warning was sent
    // controller_inactive.cpp: when each allocation's client last answered (cluster clock),
    // when the last ping round was, and the launches not yet reported started (wall time of
    // the launch order, with the start it was for).
    std::map<sched::JobId, Seconds> m_lastActive;
    Seconds m_lastPing = 0;
    std::map<sched::JobId, std::pair<double, Seconds>> m_launching;
    void noteLaunched(const sched::Job &job);
    void noteActive(sched::JobId id, Seconds now) { m_lastActive[id] = now; }
    std::size_t m_passes = 0;
    std::set<sched::JobId> m_unsaved; // records the store refused, written again each pass
    std::vector<acct::StepRecord> m_unsavedSteps;
    std::vector<std::pair<std::string, std::uint32_t>> m_heldAcks; // node, job: once saved

    // srun steps (controller_steps.cpp); their state is in m_nodes.
    static acct::StepRecord endedStep(
        sched::JobId job, int stepId, const RunningStep &step, sched::JobState state, Seconds now);
    proto::Json stepCreate(const proto::Json &request, Seconds now);
    proto::Json stepUsage(const proto::Json &request);
    proto::Json stepEnd(const proto::Json &request, Seconds now);
    proto::Json stepEnd(const record::StepEnd &end, Seconds now);
    // scancel JOB.STEP: {job ("12" or "12_3"), step_id, signal (SIGKILL: cancel it), user}.
    // Only that step's tasks get the signal, on its nodes; its job goes on.
    proto::Json stepSignal(const proto::Json &request, Seconds now);
    proto::Json listSteps(const proto::Json &request, Seconds now) const;
    proto::Json allocationRelease(const proto::Json &request, Seconds now);
    // `reason`: the job's end reason (by default from `state`: NonZeroExitCode, TimeLimit).
    void endAllocation(sched::Job &job, sched::JobState state, sched::ExitStatus exit, Seconds now,
        std::optional<sched::Reason> reason = std::nullopt);
    bool jobCancelled(sched::JobId id) const;
    // The steps `acct` lists for `job` (AccountingViews' StepsOf, kept here beside the steps'
    // life), from its `stored` records, in Slurm's order (batch, extern, then the srun steps by
    // number). While the job runs, its batch step and (with PrologFlags=Contain) its extern step
    // are RUNNING: they are stored only when they end, so they are derived here from the job's own
    // record, and a restarted controller shows them again; steps of an earlier run (before a
    // requeue) are not the current run's.
    std::vector<acct::StepRecord> accountedSteps(
        const sched::Job &job, std::vector<acct::StepRecord> stored) const;
    // srun steps still running when their batch job ends go with it (their srun cannot report
    // it): stored CANCELLED 0:15, the SIGTERM Slurm's slurmd sends them, also after scancel.
    void endRunningSteps(const sched::Job &job, Seconds now);
    // The srun steps of `job` stored RUNNING, by number: after a restart, the only trace of
    // those that started before it.
    std::map<int, RunningStep> storedRunningSteps(sched::JobId job);
};

} // namespace mc::ctl
