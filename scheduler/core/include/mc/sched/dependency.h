#pragma once
// sbatch --dependency: parsing and evaluation against the jobs the controller knows. Forms:
// after, afterok, afternotok, afterany, aftercorr (each `type:id[+minutes][:id...]`),
// singleton; items joined by ',' (all must hold) or '?' (any one suffices). Pure.

#include "mc/sched/job.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::sched {

enum class DependencyType { After, AfterOk, AfterNotOk, AfterAny, AfterCorr, Singleton };

struct DependencyTarget {
    JobId job;
    Seconds delay = 0; // after:id+minutes, in seconds
};

struct DependencyItem {
    DependencyType type = DependencyType::AfterAny;
    std::vector<DependencyTarget> targets; // empty for singleton
};

struct Dependency {
    std::vector<DependencyItem> items;
    bool anyOf = false; // joined by '?'
};

// nullopt when malformed (sbatch: "error: Batch job submission failed: Job dependency problem").
std::optional<Dependency> parseDependency(std::string_view text);

enum class DependencyStatus { Satisfied, Waiting, Never };

// What evaluation needs from the controller's job table.
struct JobLookup {
    // The job with this id, or nullptr when no such job ever existed. A finished job that left
    // the controller's memory (MinJobAge, a restart) is still found, from the store: its
    // outcome decides the dependency for good.
    std::function<const Job *(JobId)> find;
    // Every job record of the array whose %A is `arrayJobId` (tasks and the pending record).
    std::function<std::vector<const Job *>(std::uint32_t arrayJobId)> arrayMembers;
    // True when another job of `user` named `name`, submitted before `self`, is still
    // pending, running or suspended (singleton).
    std::function<bool(const Job &self)> singletonBlocked;
};

struct DependencyResult {
    DependencyStatus status = DependencyStatus::Satisfied;
    std::vector<JobId> waitingFor; // unfinished targets, for the explanation
    std::string display; // squeue %E: "afterok:20(unfulfilled)", "afterok:24(failed)"
    std::optional<Seconds> readyAt; // after:id+time: when the waiting ends, if known
};

// Evaluates `job.spec.dependency` at `now`. An empty dependency is satisfied.
DependencyResult evaluateDependency(const Job &job, const JobLookup &lookup, Seconds now);

// Slurm's test for ESLURM_CIRCULAR_DEPENDENCY ("Circular job dependency"): true when `dep`,
// given to `job`, names the job itself (its id; for an array task or record, its array's id),
// directly or through the dependencies of the unfinished jobs it names, followed as far as
// Slurm follows them (ten lists: DependencyParameters' max_depend_depth default). `job` need
// not be known to `lookup` (a submission being accepted).
bool dependsOnItself(const Job &job, const Dependency &dep, const JobLookup &lookup);

} // namespace mc::sched
