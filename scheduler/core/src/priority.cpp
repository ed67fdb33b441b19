#include "mc/sched/priority.h"

#include "mc/sched/scheduler.h"

#include <algorithm>
#include <cmath>

namespace mc::sched {
namespace {

constexpr std::int64_t kBasicTop = 4294901760; // 0xFFFF0000, slurmctld's first basic priority

} // namespace

FairShareLedger::FairShareLedger(Seconds halfLife)
    : m_halfLife(halfLife)
{ }

double FairShareLedger::decayed(const Usage &u, Seconds now) const
{
    if (m_halfLife <= 0 || now <= u.at) {
        return u.value;
    }
    return u.value * std::exp2(-static_cast<double>(now - u.at) / static_cast<double>(m_halfLife));
}

void FairShareLedger::charge(const std::string &user, double cpuSeconds, Seconds at)
{
    Usage &u = m_usage[user];
    u.value = decayed(u, at) + cpuSeconds;
    u.at = std::max(u.at, at);
}

void FairShareLedger::addUser(const std::string &user)
{
    m_usage.try_emplace(user);
}

double FairShareLedger::usage(const std::string &user, Seconds now) const
{
    auto it = m_usage.find(user);
    return it == m_usage.end() ? 0.0 : decayed(it->second, now);
}

double FairShareLedger::totalUsage(Seconds now) const
{
    double total = 0;
    for (const auto &[name, u] : m_usage) {
        total += decayed(u, now);
    }
    return total;
}

double FairShareLedger::normalizedShares(const std::string &user) const
{
    const std::size_t users = m_usage.size() + (m_usage.count(user) ? 0 : 1);
    return 1.0 / static_cast<double>(std::max<std::size_t>(1, users));
}

double FairShareLedger::factor(const std::string &user, Seconds now) const
{
    const double total = totalUsage(now);
    if (total <= 0) {
        return 1.0;
    }
    return std::exp2(-(usage(user, now) / total) / normalizedShares(user));
}

PriorityContext makePriorityContext(const ClusterConfig &config, const FairShareLedger *ledger)
{
    PriorityContext context;
    context.config = &config;
    context.fairshare = ledger;
    int cpus = 0;
    for (const auto &n : config.nodes) {
        cpus += n.cpus;
    }
    context.totalCpus = std::max(1, cpus);
    for (const auto &p : config.partitions) {
        context.maxPriorityTier = std::max(context.maxPriorityTier, p.priorityTier);
    }
    return context;
}

PriorityFactors priorityOf(const Job &job, const PriorityContext &context, Seconds now)
{
    PriorityFactors f;
    f.nice = job.spec.nice;
    const ClusterConfig &config = *context.config;
    const PriorityConfig &weights = config.priority;
    if (weights.kind == PriorityKind::Basic) {
        f.priority = std::max<std::int64_t>(1, kBasicTop - static_cast<std::int64_t>(job.id.value));
        return f;
    }
    const Seconds eligible = std::max(job.submitTime, job.eligibleTime);
    if (weights.maxAge > 0 && now > eligible) {
        f.age = std::min(
            1.0, static_cast<double>(now - eligible) / static_cast<double>(weights.maxAge));
    }
    f.fairshare = context.fairshare ? context.fairshare->factor(job.spec.user, now) : 1.0;
    const JobShape shape = shapeOf(job.spec, config);
    const double size = std::min(1.0,
        static_cast<double>(shape.cpusPerNode * shape.nodes)
            / static_cast<double>(context.totalCpus));
    f.jobSize = weights.favorSmall ? 1.0 - size : size;
    if (const PartitionConfig *part = config.partition(job.spec.partition)) {
        f.partition = static_cast<double>(part->priorityTier)
            / static_cast<double>(std::max(1, context.maxPriorityTier));
    }
    // Slurm's QOS factor: the job's QOS priority over the largest of the cluster's QOSes.
    int maxQos = 0;
    for (const auto &q : config.qos) {
        maxQos = std::max(maxQos, q.priority);
    }
    const QosConfig *qos = config.findQos(job.spec.qos.empty() ? "normal" : job.spec.qos);
    f.qos = qos && maxQos > 0 ? static_cast<double>(qos->priority) / static_cast<double>(maxQos)
                              : 0.0;
    const double sum = static_cast<double>(weights.weightAge) * f.age
        + static_cast<double>(weights.weightFairshare) * f.fairshare
        + static_cast<double>(weights.weightJobSize) * f.jobSize
        + static_cast<double>(weights.weightPartition) * f.partition
        + static_cast<double>(weights.weightQos) * f.qos;
    f.priority = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::llround(sum)) - f.nice);
    return f;
}

} // namespace mc::sched
