#pragma once
// The controller's fairshare part: the decayed CPU time each user's jobs used (the ledger the
// multifactor priority and sshare read), and how much of each running job is charged already.
//
// Invariants: a job's CPU time (allocated CPUs x seconds run) reaches the ledger once. While a
// batch job runs, every PriorityCalcPeriod charges what it used since its last charge and moves
// its mark to `now`; its end charges only the rest and forgets the mark. salloc/srun
// allocations are charged at their end only. Charges of one user never go back in time.

#include "mc/proto/json.h"
#include "mc/sched/job.h"
#include "mc/sched/priority.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/slurm_conf.h"

#include <map>

namespace mc::ctl {

class Fairshare {
public:
    // Every site user counts in the share split from the start. `config` and `users` outlive
    // this object (the controller owns all three).
    Fairshare(const sched::ClusterConfig &config, const sched::SiteUsers &users);

    const sched::FairShareLedger &ledger() const { return m_ledger; }
    // A finished job (or one read back from the store): its CPU time not charged yet, up to its
    // end (`now` when it has none).
    void chargeEnded(const sched::Job &job, sched::Seconds now);
    // Every PriorityCalcPeriod (checked at each pass): what running batch jobs used since
    // their last charge.
    void chargeRunning(const std::map<sched::JobId, sched::Job> &jobs, sched::Seconds now);
    // The `shares` reply (sshare): one row per account, then one per user of it, among the
    // `users` and `accounts` the request names (all by default).
    proto::Json shares(const proto::Json &request, sched::Seconds now) const;

private:
    const sched::ClusterConfig &m_config;
    const sched::SiteUsers &m_users;
    sched::FairShareLedger m_ledger;
    std::map<sched::JobId, sched::Seconds> m_chargedUntil; // running jobs, charged up to then
    sched::Seconds m_lastCharge = 0; // the last PriorityCalcPeriod charge
};

} // namespace mc::ctl
