#pragma once
// The working state of one scheduling pass, shared by the policies: the planner of node
// availability, which jobs were blocked first in each partition, the plan being built. Node
// choice lives here: a job's candidates are its partition's available nodes that have its
// features and are not excluded, the --nodelist ones first, then by Weight and config order.

#include "mc/sched/planner.h"
#include "mc/sched/scheduler.h"

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mc::sched {

// --constraint against a node's Features: "a", "a&b" (all), "a|b" (any), "a,b" (all).
bool satisfiesConstraint(const NodeConfig *node, std::string_view constraint);
// Whether the node's GPUs are of the --gres/--gpus type asked for (any type when empty).
bool hasGpuType(const NodeConfig *node, std::string_view type);

// One pending job (or array record) as the pass sees it.
struct QueueEntry {
    const Job *job = nullptr;
    const PartitionConfig *partition = nullptr;
    JobShape shape;
    Amount need; // per node (whole node when exclusive: then per candidate, see needOn)
    const std::vector<std::size_t> *candidates = nullptr; // node indices, required ones first
    std::size_t required = 0; // how many of the first candidates must be used (--nodelist)
    PriorityFactors factors;
    Seconds duration = kInfinite; // the time limit
};

class SchedulePass {
public:
    // `previous`, when given, is the last pass of the same session: its planner is brought up
    // to date (its decisions undone, then the running jobs that ended, started or changed
    // since applied) instead of being built again, when the input allows it (the nodes as
    // indices, the same nodes available, running jobs in id order); the free amounts now are
    // checked against `input` and the planner built afresh on any difference. Either way the
    // planner answers as one built from `input`. `previous` is left unusable.
    SchedulePass(const SchedulerInput &input, SchedulePlan &plan, SchedulePass *previous = nullptr);

    const SchedulerInput &input() const { return m_input; }
    Seconds now() const { return m_input.now; }
    Planner &planner() { return m_planner; }
    const Planner &planner() const { return m_planner; }
    SchedulePlan &plan() { return m_plan; }

    // Fills candidates, required, need and duration of `entry`.
    void prepare(QueueEntry &entry);
    // What `entry` takes on node `n` (the whole node when exclusive).
    Amount needOn(const QueueEntry &entry, std::size_t n) const;
    // Nodes on which `entry` can run for `duration` from now, or nullopt.
    std::optional<std::vector<std::size_t>> fitNow(const QueueEntry &entry, Seconds duration);
    // The earliest slot for `entry` in the planner, honouring reservations made so far.
    std::optional<Planner::Slot> earliest(const QueueEntry &entry) const;
    // Records a start now on `nodes` (takes the resources in the planner).
    void start(const QueueEntry &entry, const std::vector<std::size_t> &nodes, Seconds duration,
        std::optional<std::uint32_t> taskId, bool shortened);
    // Reserves `slot` for `entry` so that later jobs cannot delay it.
    void reserve(const QueueEntry &entry, const Planner::Slot &slot);
    // Running jobs on `nodes` expected to end by `at`: what a blocked job waits for.
    std::vector<JobId> runningOn(const std::vector<std::size_t> &nodes, Seconds at);
    std::vector<std::string> names(const std::vector<std::size_t> &nodes) const;

    // The first job of `partition` that could not start in this pass, if any.
    std::optional<JobId> firstBlocked(const std::string &partition) const;
    void markBlocked(const std::string &partition, JobId job);
    int reservations() const { return m_reservations; }
    bool anyStartedAhead() const { return !m_blocked.empty(); }

private:
    struct Running {
        JobId id;
        std::size_t first; // its nodes are m_runningNodes[first, first + count)
        std::size_t count;
        Seconds end;
        // For a job of the input (nullptr: started in this pass): what it gives back to each
        // node at `end` (the whole node when exclusive), as the planner was told.
        const Job *job = nullptr;
        Amount back;
        bool exclusive = false;
    };
    // A take() of this pass on the planner, to undo it when the next pass reuses the planner.
    struct Take {
        std::size_t node;
        Amount need;
        Seconds from;
        Seconds until;
    };

    // What a running job holds on one of its nodes where that differs between its nodes (an
    // uneven layout: CPUs 4,2; GPUs 2,1).
    struct Held {
        int cpus = 0;
        int gpus = 0;
        bool operator==(const Held &) const = default;
    };
    // What node `n` gives back when `r` ends, `held` being what r holds there.
    Amount backOn(const Running &r, std::size_t n, Held held) const;
    // What `entry` takes on node `n`, the `k`-th of its nodes.
    Amount needAt(const QueueEntry &entry, std::size_t n, std::size_t k) const;
    // Running entry of input job `j` with its nodes appended to m_runningNodes.
    Running describe(std::size_t j);
    void build();
    bool carry(SchedulePass &previous);
    void takeLogged(std::size_t n, const Amount &need, Seconds from, Seconds until);

    const SchedulerInput &m_input;
    SchedulePlan &m_plan;
    Planner m_planner;
    std::optional<ClusterIndex> m_ownIndex;
    const ClusterIndex *m_index = nullptr;
    std::vector<Running> m_running; // the input's (in its order), then those started here
    std::size_t m_inputRunning = 0; // how many of m_running come from the input
    std::vector<std::size_t> m_runningNodes; // the nodes of every Running, one after another
    std::vector<Held> m_runningHeld; // what it holds on each of them (same positions)
    std::vector<Take> m_takes;
    // Each node as the planner was built: available, and its size (whole-node releases).
    struct NodeKey {
        bool available;
        Amount size;
    };
    std::vector<NodeKey> m_nodeKeys;
    std::map<std::string, JobId> m_blocked; // partition -> first blocked job
    int m_reservations = 0;
    // Shapes that did not fit now, with the shortest duration that failed: a job of the same
    // shape and candidates needing at least as long fails too (resources only shrink in a pass).
    struct FailKey {
        const void *candidates;
        int nodes;
        int cpus;
        MiB memory;
        int gpus;
        bool exclusive;
        auto operator<=>(const FailKey &) const = default;
    };
    std::map<FailKey, Seconds> m_failed;
    // Running jobs (positions in m_running) by node, for runningOn.
    std::vector<std::vector<std::size_t>> m_runningByNode;
    int m_runningOnCalls = 0;
    // Candidate lists of jobs with no --nodelist, --exclude or --constraint, by partition.
    std::map<const PartitionConfig *, std::vector<std::size_t> *> m_plainCandidates;
    // Candidate lists by partition, constraint, --nodelist and --exclude (shared by entries).
    std::map<std::string, std::vector<std::size_t>> m_candidates;
};

} // namespace mc::sched
