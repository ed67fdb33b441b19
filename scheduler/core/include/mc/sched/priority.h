#pragma once
// Job priority as Slurm computes it. priority/basic: submission order (4294901760 - job id, as
// slurmctld numbers them). priority/multifactor: the weighted sum of age, fairshare, job size,
// partition and QOS factors (each in [0, 1]) minus the nice value. Every factor is kept so
// sprio and sshare can show them. Pure: `now` is given.

#include "mc/sched/job.h"
#include "mc/sched/slurm_conf.h"

#include <cstdint>
#include <map>
#include <string>

namespace mc::sched {

// Decayed CPU usage per user, the input of the fairshare factor. Usage halves every
// PriorityDecayHalfLife (0: never decays).
class FairShareLedger {
public:
    explicit FairShareLedger(Seconds halfLife = 7 * 24 * 3600);

    // Adds `cpuSeconds` of use by `user` at time `at` (times must not go backwards per user).
    void charge(const std::string &user, double cpuSeconds, Seconds at);
    // Makes `user` count in the share split even before any use.
    void addUser(const std::string &user);
    // The user's usage decayed to `now`.
    double usage(const std::string &user, Seconds now) const;
    // Sum of all users' decayed usage at `now`.
    double totalUsage(Seconds now) const;
    // Share of the user: 1 / number of known users (every user has equal shares).
    double normalizedShares(const std::string &user) const;
    // Slurm's classic formula: F = 2^(-(U_user / U_total) / S_user); 1 when nobody used anything.
    double factor(const std::string &user, Seconds now) const;
    std::size_t userCount() const { return m_usage.size(); }

private:
    struct Usage {
        double value = 0;
        Seconds at = 0;
    };
    double decayed(const Usage &u, Seconds now) const;

    Seconds m_halfLife;
    std::map<std::string, Usage> m_usage;
};

struct PriorityFactors {
    double age = 0;
    double fairshare = 0;
    double jobSize = 0;
    double partition = 0;
    double qos = 0;
    int nice = 0;
    std::int64_t priority = 0; // what orders the queue (squeue %Q)
};

// What priority needs to know about the cluster besides the job.
struct PriorityContext {
    const ClusterConfig *config = nullptr;
    const FairShareLedger *fairshare = nullptr; // nullptr: fairshare factor 1 for everyone
    int totalCpus = 1; // of the cluster, for the job size factor
    int maxPriorityTier = 1; // highest PriorityTier of any partition
};

PriorityContext makePriorityContext(const ClusterConfig &config, const FairShareLedger *ledger);

// The factors and the resulting priority of a pending job at `now`. Held jobs keep their
// computed value here; the caller shows 0 for them as Slurm does.
PriorityFactors priorityOf(const Job &job, const PriorityContext &context, Seconds now);

} // namespace mc::sched
