#pragma once
// The controller's durable memory: every job record and every step record, in one SQLite file
// (state/ctld.sqlite). A submission is committed here before the controller replies to it; a
// restarted controller reloads its queue from here; sacct reads the same records.

#include "mc/acct/database.h"
#include "mc/proto/json.h"
#include "mc/record/step.h"
#include "mc/sched/job.h"

#include <optional>
#include <string>
#include <vector>

namespace mc::acct {

// One step of a job as sacct lists it ("batch", "extern", "0", "1", ...): the one struct of
// mc/record/step.h, with its JSON form.
using StepRecord = record::StepRecord;

struct AcctQuery {
    std::vector<std::string> users; // empty: every user
    std::vector<std::uint32_t> jobIds; // empty: every job
    sched::Seconds since = 0; // jobs that were eligible, running or ended at/after this
    // Only jobs in a final state (the controller takes the others from memory): then the
    // query reads the end_time index instead of every record.
    bool finishedOnly = false;
};

// PENDING, RUNNING, COMPLETING, SUSPENDED: the jobs a restarted controller reloads.
bool isUnfinished(sched::JobState state);

struct AcctRow {
    sched::Job job;
    std::vector<StepRecord> steps;
};

class JobStore {
public:
    // Opens or creates the database and brings its schema up to date.
    bool open(const std::string &path, std::string &error);

    // Inserts or replaces the job's record (one transaction; durable on return). A spec with a
    // script or an environment stores them apart (job_scripts), once: later saves of the same
    // job without them keep the stored ones.
    bool saveJob(const sched::Job &job, std::string &error);
    // The script and environment saveJob stored for `job` into `spec`; false if none.
    bool loadScript(sched::JobId job, sched::JobSpec &spec);
    // Drops the scripts and environments of jobs that ended before `before` (issue #18; their
    // records stay), keeping scripts with `keepScript` (AccountingStoreFlags=job_script) and
    // environments with `keepEnv` (job_env), as Slurm keeps only those. An array's script,
    // stored under its id, goes with the last of its tasks. False with `error` on a refusal.
    bool dropFinishedScripts(
        std::int64_t before, bool keepScript, bool keepEnv, std::string &error);
    bool saveStep(const StepRecord &step, std::string &error);

    // Jobs that are neither finished nor gone: the queue to reload after a restart.
    std::vector<sched::Job> loadUnfinished(std::string &error);
    // Highest job id ever handed out (0 for a new cluster).
    std::uint32_t lastJobId();
    void setLastJobId(std::uint32_t id);
    // Small durable settings of the controller (the cluster clock): nullopt when never set.
    std::optional<std::int64_t> meta(const std::string &key);
    void setMeta(const std::string &key, std::int64_t value);

    // The finished records (no steps) whose id or array id is `id`, by id: what a dependency
    // on a job no longer in the controller's memory is judged on.
    std::vector<sched::Job> finishedJobs(std::uint32_t id);
    // Jobs by id; `jobIds` match a job's id or its array's id (every task of an array).
    std::vector<AcctRow> query(const AcctQuery &query, std::string &error);
    // The step records of one job, in the order they were first stored.
    std::vector<StepRecord> steps(sched::JobId job);

    Database &database() { return m_db; } // tests: Database::refuseWrites

private:
    Database m_db;
    std::optional<Statement> m_steps; // prepared once: sacct reads the steps of many jobs
};

} // namespace mc::acct
