#include "mc/sched/scheduler.h"

#include "mc/sched/eligibility.h"
#include "mc/sched/gres.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/policy.h"
#include "mc/sched/preemption.h"
#include "mc/sched/schedule_pass.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

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

int widestNode(const ClusterConfig &config)
{
    int widest = 0;
    for (const auto &n : config.nodes) {
        widest = std::max(widest, n.cpus);
    }
    return widest;
}

int widestNode(const ClusterConfig &config, const JobSpec &spec)
{
    const PartitionConfig *part
        = spec.partition.empty() ? config.defaultPartition() : config.partition(spec.partition);
    if (!part || part->nodes.size() == config.nodes.size()) {
        return widestNode(config); // node names are unique: a partition of every node
    }
    // One pass over the cluster's nodes (a lookup by name per partition node would cost
    // nodes x nodes comparisons for every job shaped: 93 % of a 1,000-node replay).
    const std::unordered_set<std::string_view> members(part->nodes.begin(), part->nodes.end());
    int widest = 0;
    for (const auto &node : config.nodes) {
        if (members.count(node.name) > 0) {
            widest = std::max(widest, node.cpus);
        }
    }
    return widest > 0 ? widest : widestNode(config);
}

// The most GPUs (of the job's type, when it names one) a node of the job's partition has.
static int widestGpuNode(const ClusterConfig &config, const JobSpec &spec)
{
    const PartitionConfig *part
        = spec.partition.empty() ? config.defaultPartition() : config.partition(spec.partition);
    int widest = 0;
    for (const auto &node : config.nodes) {
        const bool member = !part
            || std::find(part->nodes.begin(), part->nodes.end(), node.name) != part->nodes.end();
        if (member && (spec.gpuType.empty() || node.gpuType == spec.gpuType)) {
            widest = std::max(widest, node.gpus);
        }
    }
    return widest;
}

JobShape shapeOf(const JobSpec &spec, const ClusterConfig &config)
{
    return shapeOf(spec, config, widestNode(config, spec));
}

JobShape shapeOf(const JobSpec &spec, const ClusterConfig &config, int widest)
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
    } else {
        const int perNode = widest >= perTask ? widest / perTask : 0; // tasks one node holds
        if (shape.nodes == 1 && perNode > 0 && tasks > perNode) {
            shape.nodes = ceilDiv(tasks, perNode);
        }
        if (shape.nodes > 1 && tasks > shape.nodes) {
            const std::vector<int> counts = fillTaskCounts(tasks, shape.nodes, perNode);
            tasksPerNode = counts.front();
            if (counts.back() != counts.front()) {
                for (int count : counts) {
                    shape.cpusOnNode.push_back(count * perTask);
                }
            }
        }
    }
    shape.cpusPerNode = tasksPerNode * perTask;
    // GPUs per node: --gres / --gpus-per-node as given, --gpus spread over the nodes,
    // --gpus-per-task for each task of the node; --cpus-per-gpu and --mem-per-gpu follow them.
    shape.gpusPerNode = std::max(
        {spec.gpusPerNode, ceilDiv(spec.gpusPerJob, shape.nodes), spec.gpusPerTask * tasksPerNode});
    if (spec.gpusPerJob % shape.nodes != 0 && spec.gpusPerNode == 0 && spec.gpusPerTask == 0) {
        // --gpus that the nodes cannot share evenly: Slurm fills the first nodes (2,1). A
        // request the nodes cannot hold keeps the even share, which no node fits (refused).
        shape.gpusOnNode = spreadGpus(spec.gpusPerJob, shape.nodes, widestGpuNode(config, spec));
        if (!shape.gpusOnNode.empty()) {
            shape.gpusPerNode = shape.gpusOnNode.front();
        }
    }
    if (spec.cpusPerGpu > 0) {
        shape.cpusPerNode = std::max(shape.cpusPerNode, spec.cpusPerGpu * shape.gpusPerNode);
        if (!shape.gpusOnNode.empty()) { // CPUs follow each node's GPUs
            std::vector<int> cpus;
            for (std::size_t k = 0; k < shape.gpusOnNode.size(); ++k) {
                const int forTasks
                    = k < shape.cpusOnNode.size() ? shape.cpusOnNode[k] : tasksPerNode * perTask;
                cpus.push_back(std::max(forTasks, spec.cpusPerGpu * shape.gpusOnNode[k]));
            }
            shape.cpusOnNode = cpus;
        }
    }
    if (spec.memPerGpu) {
        shape.memPerNode = *spec.memPerGpu * std::max(1, shape.gpusPerNode);
    } else if (spec.memPerNode) {
        shape.memPerNode = *spec.memPerNode;
    } else if (spec.memPerCpu) {
        shape.memPerNode = *spec.memPerCpu * shape.cpusPerNode;
    } else if (config.defMemPerCpu) {
        shape.memPerNode = *config.defMemPerCpu * shape.cpusPerNode;
    } else if (config.defMemPerNode) {
        shape.memPerNode = *config.defMemPerNode;
    }
    const PartitionConfig *part = config.partition(spec.partition);
    shape.exclusive = spec.exclusive || (part && part->exclusive);
    return shape;
}

Scheduler::Scheduler(SchedulerOptions options)
    : m_options(options)
{ }

// One pass over a copy of the input; kept alive by a ScheduleSession so that jobs submitted
// after it can be decided as if they had been at the end of its queue.
class PassRunner {
public:
    // `previous`: the last pass of the same session, whose planner this one takes over.
    PassRunner(const SchedulerInput &input, const SchedulerOptions &options,
        PassRunner *previous = nullptr)
        : m_input(input)
        , m_pass(m_input, m_plan, previous ? &previous->m_pass : nullptr)
        , m_policy(makePolicy(
              options.policy.value_or(input.config->scheduler), options.reservationDepth))
        , m_context(makePriorityContext(*input.config, input.fairshare))
    {
        const bool anyDependency = std::any_of(m_input.pending.begin(), m_input.pending.end(),
            [](const Job *job) { return !job->spec.dependency.empty(); });
        if (!m_input.lookup && anyDependency) {
            m_passLookup.emplace(m_input);
        }
        for (const Job *job : m_input.running) {
            if (job->arrayJobId != 0) {
                ++m_runningTasks[job->arrayJobId];
            }
        }
    }

    SchedulePlan runAll() { return decideAll(m_input.pending); }

    // nullopt when the jobs would not all come after the queue of the pass.
    std::optional<SchedulePlan> append(const std::vector<const Job *> &jobs, Seconds now)
    {
        if (now < m_input.now || m_input.config->priority.kind != PriorityKind::Basic
            || (!m_input.lookup && m_passLookup)) {
            return std::nullopt;
        }
        m_input.now = now;
        m_pass.planner().advanceTo(now);
        m_plan = SchedulePlan{};
        for (const Job *job : jobs) {
            if (!job->spec.dependency.empty() && !m_input.lookup) {
                return std::nullopt;
            }
            const QueueEntry entry = makeEntry(job);
            if (m_last && !(before(*m_last, entry))) {
                return std::nullopt; // it would sort among the jobs already decided
            }
        }
        return decideAll(jobs);
    }

private:
    const JobLookup &lookup() const
    {
        static const JobLookup kEmpty;
        return m_input.lookup ? *m_input.lookup : (m_passLookup ? m_passLookup->lookup() : kEmpty);
    }

    QueueEntry makeEntry(const Job *job) const
    {
        const ClusterConfig &config = *m_input.config;
        QueueEntry entry;
        entry.job = job;
        entry.partition = job->spec.partition.empty() ? config.defaultPartition()
                                                      : config.partition(job->spec.partition);
        entry.shape = shapeOf(job->spec, config, widestIn(job->spec));
        entry.factors = priorityOf(*job, m_context, m_input.now);
        return entry;
    }

    // Queue order: partition PriorityTier, then priority, then job id.
    static bool before(const QueueEntry &a, const QueueEntry &b)
    {
        const int ta = a.partition ? a.partition->priorityTier : 0;
        const int tb = b.partition ? b.partition->priorityTier : 0;
        if (ta != tb) {
            return ta > tb;
        }
        if (a.factors.priority != b.factors.priority) {
            return a.factors.priority > b.factors.priority;
        }
        return a.job->id < b.job->id;
    }

    SchedulePlan decideAll(const std::vector<const Job *> &jobs)
    {
        SchedulePlan &plan = m_plan;
        std::vector<QueueEntry> queue;
        queue.reserve(jobs.size());
        plan.priorities.reserve(jobs.size());
        for (const Job *job : jobs) {
            QueueEntry entry = makeEntry(job);
            plan.priorities.push_back({job->id, entry.factors});
            m_pass.prepare(entry);
            auto running = m_runningTasks.find(job->arrayJobId);
            const int tasks = running == m_runningTasks.end() ? 0 : running->second;
            if (auto wait = ineligible(entry, m_input, lookup(), tasks)) {
                plan.waits.push_back(std::move(*wait));
                continue;
            }
            queue.push_back(std::move(entry));
        }
        std::sort(queue.begin(), queue.end(), before);
        for (const QueueEntry &entry : queue) {
            decide(entry);
        }
        if (!queue.empty()) {
            m_last = queue.back();
        }
        return std::move(m_plan);
    }

    void decide(const QueueEntry &entry)
    {
        SchedulePlan &plan = m_plan;
        SchedulePass &pass = m_pass;
        const Job &job = *entry.job;
        if (!m_policy->mayTry(pass, entry)) {
            WaitDecision wait{job.id, Reason::Priority, std::nullopt, {}, {}, {}};
            wait.waitingFor.push_back(*pass.firstBlocked(entry.partition->name));
            plan.waits.push_back(std::move(wait));
            return;
        }
        // An array record starts as many tasks as fit and its throttle allows.
        const bool isArray = !job.arrayPending.empty();
        std::size_t started = 0;
        const std::size_t total = isArray ? job.arrayPending.size() : 1;
        int single = 0;
        int &active = isArray ? m_runningTasks[job.arrayJobId] : single;
        while (started < total
            && (!isArray || job.arrayMaxRunning == 0 || active < job.arrayMaxRunning)) {
            auto fit = m_policy->tryNow(pass, entry);
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
            return;
        }
        if (isArray && job.arrayMaxRunning > 0 && active >= job.arrayMaxRunning) {
            plan.waits.push_back({job.id, Reason::JobArrayTaskLimit, std::nullopt, {}, {}, {}});
            return;
        }
        auto preemptions = choosePreemptions(pass, entry);
        WaitDecision wait = m_policy->onBlocked(pass, entry);
        if (!preemptions.empty()) {
            wait.reason = Reason::Resources;
            wait.waitingFor.clear();
            Seconds at = m_input.now;
            for (const auto &p : preemptions) {
                wait.waitingFor.push_back(p.victim);
                at = std::max(at, p.endAt);
            }
            wait.plannedStart = at;
            plan.preemptions.insert(plan.preemptions.end(), preemptions.begin(), preemptions.end());
        }
        plan.waits.push_back(std::move(wait));
    }

    SchedulerInput m_input;
    SchedulePlan m_plan;
    SchedulePass m_pass;
    std::unique_ptr<Policy> m_policy;
    PriorityContext m_context;
    // The widest node of each partition a job asks for, found once per pass.
    mutable std::map<std::string, int> m_widest;

    int widestIn(const JobSpec &spec) const
    {
        auto found = m_widest.find(spec.partition);
        if (found == m_widest.end()) {
            found = m_widest.emplace(spec.partition, widestNode(*m_input.config, spec)).first;
        }
        return found->second;
    }
    std::optional<PassLookup> m_passLookup;
    std::unordered_map<std::uint32_t, int> m_runningTasks; // array id -> tasks running
    std::optional<QueueEntry> m_last; // the last job of the queue decided so far
};

SchedulePlan Scheduler::run(const SchedulerInput &input) const
{
    PassRunner runner(input, m_options);
    return runner.runAll();
}

ScheduleSession::ScheduleSession(SchedulerOptions options)
    : m_options(options)
{ }

ScheduleSession::~ScheduleSession() = default;

SchedulePlan ScheduleSession::run(const SchedulerInput &input)
{
    auto next = std::make_unique<PassRunner>(input, m_options, m_runner.get());
    m_runner = std::move(next);
    return m_runner->runAll();
}

std::optional<SchedulePlan> ScheduleSession::append(
    const std::vector<const Job *> &jobs, Seconds now)
{
    if (!m_runner) {
        return std::nullopt;
    }
    auto plan = m_runner->append(jobs, now);
    if (!plan) {
        m_runner.reset();
    }
    return plan;
}

void ScheduleSession::reset()
{
    m_runner.reset();
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
