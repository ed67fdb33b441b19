#include "mc/ctl/fairshare.h"

#include "replies.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace mc::ctl {

using proto::Json;
using sched::Job;
using sched::JobId;
using sched::Seconds;

Fairshare::Fairshare(const sched::ClusterConfig &config, const sched::SiteUsers &users)
    : m_config(config)
    , m_users(users)
    , m_ledger(config.priority.decayHalfLife)
{
    for (const auto &u : m_users.users) {
        m_ledger.addUser(u.name);
    }
}

void Fairshare::chargeEnded(const Job &job, Seconds now)
{
    if (job.startTime <= 0) {
        return;
    }
    const Seconds end = job.endTime > 0 ? job.endTime : now;
    Seconds from = job.startTime;
    if (auto charged = m_chargedUntil.find(job.id); charged != m_chargedUntil.end()) {
        from = std::max(from, charged->second); // the periodic charges took the rest
        m_chargedUntil.erase(charged);
    }
    const double cpuSeconds = static_cast<double>(job.allocCpus)
        * static_cast<double>(std::max<Seconds>(0, end - from));
    m_ledger.charge(job.spec.user, cpuSeconds, std::max(now, end));
}

void Fairshare::chargeRunning(const std::map<JobId, Job> &jobs, Seconds now)
{
    // Slurm's priority/multifactor decay thread: every PriorityCalcPeriod the usage of the
    // running jobs since the last pass goes to the ledger, so a long job lowers its user's
    // fairshare while it runs, not only once it ends. salloc/srun allocations are not charged
    // (nor at their end).
    if (now - m_lastCharge < std::max<Seconds>(1, m_config.priority.calcPeriod)) {
        return;
    }
    m_lastCharge = now;
    for (const auto &[id, job] : jobs) {
        if (!job.isActive() || job.startTime <= 0 || job.spec.interactive) {
            continue;
        }
        const auto charged = m_chargedUntil.try_emplace(id, job.startTime).first;
        const Seconds from = std::max(job.startTime, charged->second);
        if (now > from) {
            m_ledger.charge(job.spec.user,
                static_cast<double>(job.allocCpus) * static_cast<double>(now - from), now);
            charged->second = now;
        }
    }
}

Json Fairshare::shares(const Json &request, Seconds now) const
{
    const double total = m_ledger.totalUsage(now);
    std::map<std::string, std::vector<const sched::SiteUser *>> byAccount;
    for (const auto &u : m_users.users) {
        if (request["users"].size() && !listed(request["users"], u.name)) {
            continue;
        }
        if (request["accounts"].size() && !listed(request["accounts"], u.defaultAccount)) {
            continue;
        }
        byAccount[u.defaultAccount].push_back(&u);
    }
    const double accounts = std::max<double>(1, static_cast<double>(byAccount.size()));
    Json rows = Json::array();
    auto row = [&](const std::string &account, const std::string &user, double normShares,
                   double usage, double fairshare) {
        Json r = Json::object();
        r.set("account", account);
        r.set("user", user);
        r.set("raw_shares", 1);
        r.set("norm_shares", normShares);
        r.set("raw_usage", static_cast<std::int64_t>(std::llround(usage)));
        r.set("norm_usage", total > 0 ? usage / total : 0.0);
        r.set("effective_usage", total > 0 ? usage / total : 0.0);
        r.set("fairshare", fairshare);
        rows.push(std::move(r));
    };
    for (const auto &[account, users] : byAccount) {
        double usage = 0;
        for (const auto *u : users) {
            usage += m_ledger.usage(u->name, now);
        }
        const double shares = 1.0 / accounts;
        const double factor = total > 0 ? std::pow(2.0, -(usage / total) / shares) : 1.0;
        row(account, "", shares, usage, factor);
        for (const auto *u : users) {
            row(account, u->name, m_ledger.normalizedShares(u->name), m_ledger.usage(u->name, now),
                m_ledger.factor(u->name, now));
        }
    }
    Json reply = success();
    reply.set("associations", std::move(rows));
    reply.set("decay_half_life", m_config.priority.decayHalfLife);
    reply.set("now", now);
    return reply;
}

} // namespace mc::ctl
