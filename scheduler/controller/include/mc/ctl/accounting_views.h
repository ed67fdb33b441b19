#pragma once
// The controller's accounting views: what sacct reads (`acct`: jobs with their steps, whole or
// as rows; `job_scripts`: the scripts and environments AccountingStoreFlags keeps, for sacct
// -B, --env-vars and scontrol write batch_script), and the sweep that takes finished jobs'
// scripts out of the store once their job is past MinJobAge.
//
// State: whether the sweep ran since the controller started; the rest it reads from the
// controller's configuration, store and job table, all of which outlive it.
//
// Invariants: a view changes no job and writes nothing but the sweep. A job appears once in an
// `acct` reply, in job id order with an array's tasks together in task order: a finished job
// from the store, an unfinished one from memory (its record there is its stored one, so a
// large queue costs no record parsing), taken through its row of the job table. The sweep
// runs at the first purge after a start (what an earlier run left) and at every purge that
// forgot a job, never before MinJobAge: a script outlives its job's record only when
// AccountingStoreFlags says so.
//
// How a job's steps are listed (batch and extern derived from the job while it runs, then the
// srun steps by number) stays in Controller::accountedSteps (controller_steps.cpp, beside the
// steps' own life) and reaches these views as `StepsOf`.

#include "mc/acct/job_store.h"
#include "mc/ctl/job_table.h"
#include "mc/proto/json.h"
#include "mc/sched/job.h"
#include "mc/sched/slurm_conf.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace mc::ctl {

class AccountingViews {
public:
    // The steps `acct` lists for a job, from its `stored` step records.
    using StepsOf = std::function<std::vector<acct::StepRecord>(
        const sched::Job &job, std::vector<acct::StepRecord> stored)>;

    AccountingViews(const sched::ClusterConfig &config, acct::JobStore &store, const JobTable &jobs,
        StepsOf stepsOf);

    // The `acct` reply (docs/protocol.md): the jobs of `users` and `job_ids` (an array's id
    // names its tasks) that ended after `since` or have not ended, with `fields` only, as
    // objects or `form: "rows"`. Comments only with AccountingStoreFlags=job_comment.
    proto::Json accounting(const proto::Json &request, sched::Seconds now) const;
    // The `job_scripts` reply: for each of `job_ids` (and each task of an array's id), its
    // script and environment when kept and `user` may see them (its owner or an operator);
    // null where nothing is kept (Slurm's NONE). `live`: a queued job's script too, as
    // slurmctld keeps it.
    proto::Json jobScripts(const proto::Json &request) const;
    // After a purge of jobs past MinJobAge that forgot `purged` of them.
    void sweepScripts(std::size_t purged, sched::Seconds now);

private:
    const sched::ClusterConfig &m_config;
    acct::JobStore &m_store;
    const JobTable &m_jobs;
    StepsOf m_stepsOf;
    bool m_scriptsSwept = false; // once after a start: what an earlier run left
};

} // namespace mc::ctl
