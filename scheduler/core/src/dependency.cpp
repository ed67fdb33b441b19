#include "mc/sched/dependency.h"

#include <algorithm>
#include <charconv>

namespace mc::sched {
namespace {

std::optional<DependencyType> typeOf(std::string_view word)
{
    if (word == "after") {
        return DependencyType::After;
    }
    if (word == "afterok") {
        return DependencyType::AfterOk;
    }
    if (word == "afternotok") {
        return DependencyType::AfterNotOk;
    }
    if (word == "afterany") {
        return DependencyType::AfterAny;
    }
    if (word == "aftercorr") {
        return DependencyType::AfterCorr;
    }
    return std::nullopt;
}

std::string_view nameOf(DependencyType type)
{
    switch (type) {
    case DependencyType::After:
        return "after";
    case DependencyType::AfterOk:
        return "afterok";
    case DependencyType::AfterNotOk:
        return "afternotok";
    case DependencyType::AfterAny:
        return "afterany";
    case DependencyType::AfterCorr:
        return "aftercorr";
    case DependencyType::Singleton:
        return "singleton";
    }
    return "afterany";
}

std::optional<std::uint32_t> number(std::string_view text)
{
    std::uint32_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

std::optional<DependencyItem> parseItem(std::string_view text)
{
    if (text == "singleton") {
        return DependencyItem{DependencyType::Singleton, {}};
    }
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) {
        return std::nullopt;
    }
    const auto type = typeOf(text.substr(0, colon));
    if (!type) {
        return std::nullopt;
    }
    DependencyItem item{*type, {}};
    text.remove_prefix(colon + 1);
    while (true) {
        const auto next = text.find(':');
        std::string_view part = text.substr(0, next);
        DependencyTarget target;
        const auto plus = part.find('+');
        if (plus != std::string_view::npos) {
            const auto minutes = number(part.substr(plus + 1));
            if (!minutes || *type != DependencyType::After) {
                return std::nullopt;
            }
            target.delay = static_cast<Seconds>(*minutes) * 60;
            part = part.substr(0, plus);
        }
        const auto id = number(part);
        if (!id || *id == 0) {
            return std::nullopt;
        }
        target.job = JobId{*id};
        item.targets.push_back(target);
        if (next == std::string_view::npos) {
            break;
        }
        text.remove_prefix(next + 1);
    }
    return item;
}

bool endedOk(JobState s)
{
    return s == JobState::Completed;
}

// How one target stands: Satisfied, Waiting or Never, and the word squeue %E shows.
struct TargetState {
    DependencyStatus status;
    std::string_view word; // "unfulfilled", "failed", ...
};

TargetState judge(DependencyType type, const Job &target, Seconds delay, Seconds now)
{
    const bool finished = isFinished(target.state);
    switch (type) {
    case DependencyType::After:
        if (target.state == JobState::Pending && !target.cancelledBy) {
            return {DependencyStatus::Waiting, "unfulfilled"};
        }
        if (!finished && target.startTime + delay > now) {
            return {DependencyStatus::Waiting, "unfulfilled"};
        }
        return {DependencyStatus::Satisfied, "fulfilled"};
    case DependencyType::AfterAny:
        return finished ? TargetState{DependencyStatus::Satisfied, "fulfilled"}
                        : TargetState{DependencyStatus::Waiting, "unfulfilled"};
    case DependencyType::AfterOk:
    case DependencyType::AfterCorr:
        if (!finished) {
            return {DependencyStatus::Waiting, "unfulfilled"};
        }
        return endedOk(target.state) ? TargetState{DependencyStatus::Satisfied, "fulfilled"}
                                     : TargetState{DependencyStatus::Never, "failed"};
    case DependencyType::AfterNotOk:
        if (!finished) {
            return {DependencyStatus::Waiting, "unfulfilled"};
        }
        return endedOk(target.state) ? TargetState{DependencyStatus::Never, "failed"}
                                     : TargetState{DependencyStatus::Satisfied, "fulfilled"};
    case DependencyType::Singleton:
        break;
    }
    return {DependencyStatus::Satisfied, "fulfilled"};
}

// Worst of several: Never beats Waiting beats Satisfied.
DependencyStatus worst(DependencyStatus a, DependencyStatus b)
{
    return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

// Slurm's _scan_depend(): `budget` counts the lists scanned, across the whole walk. A target
// that names `job` is a cycle when it is known, and always in the first list (the job being
// given the dependency may not be stored yet).
bool scanDepend(
    const Job &job, const Dependency &dep, const JobLookup &lookup, int &budget, bool first)
{
    if (budget-- <= 0) {
        return false;
    }
    for (const DependencyItem &item : dep.items) {
        for (const DependencyTarget &target : item.targets) {
            const Job *other = lookup.find ? lookup.find(target.job) : nullptr;
            const bool names = target.job == job.id
                || (job.arrayJobId != 0 && target.job.value == job.arrayJobId);
            if (names && (first || other)) {
                return true;
            }
            if (!other || isFinished(other->state) || other->spec.dependency.empty()) {
                continue; // unknown, gone or finished: nothing to follow
            }
            const auto next = parseDependency(other->spec.dependency);
            if (next && scanDepend(job, *next, lookup, budget, false)) {
                return true;
            }
        }
    }
    return false;
}

} // namespace

bool dependsOnItself(const Job &job, const Dependency &dep, const JobLookup &lookup)
{
    int budget = 10; // DependencyParameters=max_depend_depth's default
    return scanDepend(job, dep, lookup, budget, true);
}

std::optional<Dependency> parseDependency(std::string_view text)
{
    Dependency dep;
    if (text.empty()) {
        return dep;
    }
    const bool hasComma = text.find(',') != std::string_view::npos;
    const bool hasQuestion = text.find('?') != std::string_view::npos;
    if (hasComma && hasQuestion) {
        return std::nullopt; // Slurm does not mix the two separators
    }
    dep.anyOf = hasQuestion;
    const char separator = hasQuestion ? '?' : ',';
    while (!text.empty()) {
        const auto next = text.find(separator);
        auto item = parseItem(text.substr(0, next));
        if (!item) {
            return std::nullopt;
        }
        dep.items.push_back(std::move(*item));
        text.remove_prefix(next == std::string_view::npos ? text.size() : next + 1);
    }
    return dep;
}

DependencyResult evaluateDependency(const Job &job, const JobLookup &lookup, Seconds now)
{
    DependencyResult result;
    const auto dep = parseDependency(job.spec.dependency);
    if (!dep || dep->items.empty()) {
        return result;
    }
    std::vector<DependencyStatus> itemStatus;
    for (const DependencyItem &item : dep->items) {
        if (!result.display.empty()) {
            result.display += dep->anyOf ? '?' : ',';
        }
        result.display += nameOf(item.type);
        if (item.type == DependencyType::Singleton) {
            const bool blocked = lookup.singletonBlocked && lookup.singletonBlocked(job);
            itemStatus.push_back(blocked ? DependencyStatus::Waiting : DependencyStatus::Satisfied);
            result.display += blocked ? "(unfulfilled)" : "(fulfilled)";
            continue;
        }
        DependencyStatus status = DependencyStatus::Satisfied;
        for (const DependencyTarget &target : item.targets) {
            std::vector<const Job *> members;
            if (lookup.arrayMembers) {
                members = lookup.arrayMembers(target.job.value);
            }
            if (item.type == DependencyType::AfterCorr && job.arrayTaskId) {
                // Task i of this array waits for task i of the other one only.
                std::erase_if(members, [&](const Job *m) {
                    return m->arrayTaskId && *m->arrayTaskId != *job.arrayTaskId;
                });
            }
            if (members.empty()) {
                if (const Job *single = lookup.find ? lookup.find(target.job) : nullptr) {
                    members.push_back(single);
                }
            }
            DependencyStatus targetStatus = DependencyStatus::Satisfied;
            std::string_view word = "fulfilled";
            for (const Job *m : members) {
                const TargetState s = judge(item.type, *m, target.delay, now);
                if (item.type == DependencyType::After && s.status == DependencyStatus::Waiting
                    && m->state != JobState::Pending) {
                    const Seconds at = m->startTime + target.delay;
                    result.readyAt = result.readyAt ? std::max(*result.readyAt, at) : at;
                }
                if (static_cast<int>(s.status) >= static_cast<int>(targetStatus)) {
                    word = s.word;
                }
                targetStatus = worst(targetStatus, s.status);
                // a pending array record counts as a task that has not run yet
                if (!m->arrayPending.empty() && m->arrayTaskId) {
                    targetStatus = worst(targetStatus, DependencyStatus::Waiting);
                }
            }
            if (targetStatus == DependencyStatus::Waiting) {
                result.waitingFor.push_back(target.job);
            }
            status = worst(status, targetStatus);
            result.display += ':' + std::to_string(target.job.value);
            if (target.delay > 0) {
                result.display += '+' + std::to_string(target.delay / 60);
            }
            result.display += '(' + std::string(word) + ')';
        }
        itemStatus.push_back(status);
    }
    if (dep->anyOf) {
        const bool anySatisfied
            = std::find(itemStatus.begin(), itemStatus.end(), DependencyStatus::Satisfied)
            != itemStatus.end();
        const bool allNever = std::all_of(itemStatus.begin(), itemStatus.end(),
            [](DependencyStatus s) { return s == DependencyStatus::Never; });
        result.status = anySatisfied ? DependencyStatus::Satisfied
            : allNever               ? DependencyStatus::Never
                                     : DependencyStatus::Waiting;
    } else {
        result.status = DependencyStatus::Satisfied;
        for (DependencyStatus s : itemStatus) {
            result.status = worst(result.status, s);
        }
    }
    return result;
}

} // namespace mc::sched
