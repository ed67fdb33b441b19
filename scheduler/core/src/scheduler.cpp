#include "mc/sched/scheduler.h"

#include "mc/sched/eligibility.h"
#include "mc/sched/policy.h"
#include "mc/sched/preemption.h"
#include "mc/sched/schedule_pass.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <unordered_map>

namespace mc::sched {
namespace {

int ceilDiv(int a, int b)
{
    return (a + b - 1) / b;
}

// Looks among the jobs of the pass: enough for dependencies on jobs still in the queue; an
// unknown target counts as finished well (it was purged).
class PassLookup {
public:
    explicit PassLookup(const SchedulerInput &input)
    {
        for (const auto *list : {&input.pending, &input.running}) {
            for (const Job *job : *list) {
                m_byId.emplace(job->id.value, job);
                if (job->arrayJobId != 0) {
                    m_arrays[job->arrayJobId].push_back(job);
                }
                auto key = job->spec.user + '\n' + job->spec.name;
                auto [it, inserted] = m_oldest.try_emplace(key, job->id);
                if (!inserted && job->id < it->second) {
                    it->second = job->id;
                }
            }
        }
        m_lookup.find = [this](JobId id) -> const Job * {
            auto it = m_byId.find(id.value);
            return it == m_byId.end() ? nullptr : it->second;
        };
        m_lookup.arrayMembers = [this](std::uint32_t id) {
            auto it = m_arrays.find(id);
            return it == m_arrays.end() ? std::vector<const Job *>{} : it->second;
        };
        m_lookup.singletonBlocked = [this](const Job &self) {
            auto it = m_oldest.find(self.spec.user + '\n' + self.spec.name);
            return it != m_oldest.end() && it->second < self.id;
        };
    }
    const JobLookup &lookup() const { return m_lookup; }

private:
    std::unordered_map<std::uint32_t, const Job *> m_byId;
    std::unordered_map<std::uint32_t, std::vector<const Job *>> m_arrays;
    std::unordered_map<std::string, JobId> m_oldest;
    JobLookup m_lookup;
};

std::unique_ptr<Policy> makePolicy(SchedulerKind kind, int depth)
{
    if (kind == SchedulerKind::Builtin) {
        return std::make_unique<FifoPolicy>(depth);
    }
    return std::make_unique<BackfillPolicy>(depth);
}

} // namespace

JobShape shapeOf(const JobSpec &spec, const ClusterConfig &config)
{
    JobShape shape;
    const int tasks = std::max(1, spec.ntasks);
    const int perTask = std::max(1, spec.cpusPerTask);
    shape.nodes = std::max(1, spec.nodes);
    int tasksPerNode = ceilDiv(tasks, shape.nodes);
    if (spec.ntasksPerNode > 0) {
        tasksPerNode = spec.ntasksPerNode;
        if (spec.ntasksGiven) {
            shape.nodes = std::max(shape.nodes, ceilDiv(tasks, spec.ntasksPerNode));
        }
    } else if (shape.nodes == 1) {
        int widest = 0;
        for (const auto &n : config.nodes) {
            widest = std::max(widest, n.cpus);
        }
        if (widest > 0 && tasks * perTask > widest && perTask <= widest) {
            const int perNode = widest / perTask; // tasks one node can hold
            shape.nodes = ceilDiv(tasks, perNode);
            tasksPerNode = ceilDiv(tasks, shape.nodes);
        }
    }
    shape.cpusPerNode = tasksPerNode * perTask;
    if (spec.memPerNode) {
        shape.memPerNode = *spec.memPerNode;
    } else if (spec.memPerCpu) {
        shape.memPerNode = *spec.memPerCpu * shape.cpusPerNode;
    } else if (config.defMemPerCpu) {
        shape.memPerNode = *config.defMemPerCpu * shape.cpusPerNode;
    } else if (config.defMemPerNode) {
        shape.memPerNode = *config.defMemPerNode;
    }
    shape.gpusPerNode = spec.gpusPerNode;
    const PartitionConfig *part = config.partition(spec.partition);
    shape.exclusive = spec.exclusive || (part && part->exclusive);
    return shape;
}

Scheduler::Scheduler(SchedulerOptions options)
    : m_options(options)
{ }

SchedulePlan Scheduler::run(const SchedulerInput &input) const
{
    SchedulePlan plan;
    const ClusterConfig &config = *input.config;
    const PriorityContext priorityContext = makePriorityContext(config, input.fairshare);
    std::optional<PassLookup> passLookup;
    const bool anyDependency = std::any_of(input.pending.begin(), input.pending.end(),
        [](const Job *job) { return !job->spec.dependency.empty(); });
    if (!input.lookup && anyDependency) {
        passLookup.emplace(input);
    }
    static const JobLookup kEmpty;
    const JobLookup &lookup
        = input.lookup ? *input.lookup : (passLookup ? passLookup->lookup() : kEmpty);

    std::unordered_map<std::uint32_t, int> runningTasks; // array id -> tasks running
    for (const Job *job : input.running) {
        if (job->arrayJobId != 0) {
            ++runningTasks[job->arrayJobId];
        }
    }

    SchedulePass pass(input, plan);
    std::vector<QueueEntry> queue;
    queue.reserve(input.pending.size());
    plan.priorities.reserve(input.pending.size());
    for (const Job *job : input.pending) {
        QueueEntry entry;
        entry.job = job;
        entry.partition = job->spec.partition.empty() ? config.defaultPartition()
                                                      : config.partition(job->spec.partition);
        entry.shape = shapeOf(job->spec, config);
        entry.factors = priorityOf(*job, priorityContext, input.now);
        plan.priorities.push_back({job->id, entry.factors});
        pass.prepare(entry);
        auto running = runningTasks.find(job->arrayJobId);
        const int tasks = running == runningTasks.end() ? 0 : running->second;
        if (auto wait = ineligible(entry, input, lookup, tasks)) {
            plan.waits.push_back(std::move(*wait));
            continue;
        }
        queue.push_back(std::move(entry));
    }
    std::sort(queue.begin(), queue.end(), [](const QueueEntry &a, const QueueEntry &b) {
        if (a.partition->priorityTier != b.partition->priorityTier) {
            return a.partition->priorityTier > b.partition->priorityTier;
        }
        if (a.factors.priority != b.factors.priority) {
            return a.factors.priority > b.factors.priority;
        }
        return a.job->id < b.job->id;
    });

    const auto policy
        = makePolicy(m_options.policy.value_or(config.scheduler), m_options.reservationDepth);
    for (const QueueEntry &entry : queue) {
        const Job &job = *entry.job;
        if (!policy->mayTry(pass, entry)) {
            WaitDecision wait{job.id, Reason::Priority, std::nullopt, {}, {}, {}};
            wait.waitingFor.push_back(*pass.firstBlocked(entry.partition->name));
            plan.waits.push_back(std::move(wait));
            continue;
        }
        // An array record starts as many tasks as fit and its throttle allows.
        const bool isArray = !job.arrayPending.empty();
        std::size_t started = 0;
        const std::size_t total = isArray ? job.arrayPending.size() : 1;
        auto running = runningTasks.find(job.arrayJobId);
        int active = running == runningTasks.end() ? 0 : running->second;
        while (started < total
            && (!isArray || job.arrayMaxRunning == 0 || active < job.arrayMaxRunning)) {
            auto fit = policy->tryNow(pass, entry);
            if (!fit) {
                break;
            }
            const bool shortened = fit->second != job.timeLimit;
            std::optional<std::uint32_t> task;
            if (isArray) {
                task = job.arrayPending[started];
            }
            pass.start(entry, fit->first, fit->second, task, shortened);
            ++started;
            ++active;
        }
        if (started == total) {
            continue;
        }
        if (isArray && job.arrayMaxRunning > 0 && active >= job.arrayMaxRunning) {
            plan.waits.push_back({job.id, Reason::JobArrayTaskLimit, std::nullopt, {}, {}, {}});
            continue;
        }
        auto preemptions = choosePreemptions(pass, entry);
        WaitDecision wait = policy->onBlocked(pass, entry);
        if (!preemptions.empty()) {
            wait.reason = Reason::Resources;
            wait.waitingFor.clear();
            Seconds at = input.now;
            for (const auto &p : preemptions) {
                wait.waitingFor.push_back(p.victim);
                at = std::max(at, p.endAt);
            }
            wait.plannedStart = at;
            plan.preemptions.insert(plan.preemptions.end(), preemptions.begin(), preemptions.end());
        }
        plan.waits.push_back(std::move(wait));
    }
    return plan;
}

SchedulePlan schedule(const ClusterConfig &config, const std::vector<NodeUsage> &nodes,
    const std::vector<const Job *> &pending, Seconds now)
{
    SchedulerInput input;
    input.config = &config;
    input.nodes = nodes;
    for (auto &n : input.nodes) {
        if (const NodeConfig *conf = config.node(n.name); conf && n.gpus == 0) {
            n.gpus = conf->gpus;
        }
    }
    input.pending = pending;
    input.now = now;
    return Scheduler().run(input);
}

} // namespace mc::sched
