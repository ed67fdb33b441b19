#include "mc/sched/explanation.h"

#include "mc/sched/hostlist.h"

#include <array>

namespace mc::sched {
namespace {

struct Template {
    Reason reason;
    std::string_view en;
    std::string_view fr;
};

// One row per reason the scheduler gives. "{start}" parts are used only when a start is
// planned; the "when" suffix below is appended then.
constexpr std::array kTemplates{
    Template{Reason::Resources, "The job waits for resources now held by {jobs}.",
        "La tâche attend des ressources occupées par {jobs}."},
    Template{Reason::Priority, "Jobs with a higher priority go first: {jobs}.",
        "Des tâches plus prioritaires passent avant : {jobs}."},
    Template{Reason::Dependency, "The job waits for its dependency {dep}: {jobs}.",
        "La tâche attend sa dépendance {dep} : {jobs}."},
    Template{Reason::DependencyNeverSatisfied,
        "Its dependency {dep} can never be satisfied; cancel it with scancel.",
        "Sa dépendance {dep} ne sera jamais satisfaite ; annulez-la avec scancel."},
    Template{Reason::BeginTime, "The job may not start before its --begin time.",
        "La tâche ne peut pas démarrer avant son heure --begin."},
    Template{Reason::JobHeldUser, "The job is held; release it with scontrol release.",
        "La tâche est retenue (hold) ; libérez-la avec scontrol release."},
    Template{Reason::JobHeldAdmin, "An administrator holds the job; only they can release it.",
        "Un administrateur retient la tâche ; lui seul peut la libérer."},
    Template{Reason::PartitionTimeLimit,
        "Its --time is longer than the partition's MaxTime; ask for less time.",
        "Son --time dépasse le MaxTime de la partition ; demandez moins de temps."},
    Template{Reason::PartitionNodeLimit,
        "Its node count is outside the partition's MinNodes-MaxNodes range.",
        "Son nombre de nœuds sort des limites MinNodes-MaxNodes de la partition."},
    Template{Reason::PartitionDown, "The partition is down; jobs wait until it is up again.",
        "La partition est arrêtée ; les tâches attendent sa remise en service."},
    Template{Reason::PartitionInactive, "The partition is inactive; no job starts there.",
        "La partition est inactive ; aucune tâche n'y démarre."},
    Template{Reason::JobArrayTaskLimit,
        "The array already runs as many tasks as its % limit allows.",
        "Le tableau exécute déjà autant de tâches que sa limite % le permet."},
    Template{Reason::ReqNodeNotAvail, "Nodes it needs are down or drained: {nodes}.",
        "Des nœuds nécessaires sont arrêtés ou drainés : {nodes}."},
    Template{Reason::InvalidAccount, "Its account may not use this partition (AllowAccounts).",
        "Son compte n'a pas accès à cette partition (AllowAccounts)."},
    Template{Reason::BadConstraints, "No node of the partition matches the request.",
        "Aucun nœud de la partition ne correspond à la demande."},
};

constexpr std::string_view kExpectedEn = " Expected start: {start}.";
constexpr std::string_view kExpectedFr = " Démarrage prévu : {start}.";
constexpr std::string_view kStartEn = "Job {jobs} started on {nodes}.";
constexpr std::string_view kStartFr = "La tâche {jobs} a démarré sur {nodes}.";
constexpr std::string_view kStartBackfillEn
    = "Job {jobs} started on {nodes}, in a gap left before a higher-priority job (backfill).";
constexpr std::string_view kStartBackfillFr = "La tâche {jobs} a démarré sur {nodes}, dans un "
                                              "trou laissé avant une tâche plus prioritaire "
                                              "(backfill).";

void replace(std::string &text, std::string_view key, const std::string &value)
{
    for (auto at = text.find(key); at != std::string::npos;
         at = text.find(key, at + value.size())) {
        text.replace(at, key.size(), value);
    }
}

std::string jobList(const std::vector<JobId> &jobs, bool french)
{
    if (jobs.empty()) {
        return french ? "des tâches en cours" : "running jobs";
    }
    std::string text;
    if (french) {
        text = jobs.size() > 1 ? "les tâches " : "la tâche ";
    } else {
        text = jobs.size() > 1 ? "jobs " : "job ";
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (i > 0) {
            text += i + 1 == jobs.size() ? (french ? " et " : " and ") : ", ";
        }
        text += std::to_string(jobs[i].value);
    }
    return text;
}

std::string whenText(Seconds start, Seconds now, bool french)
{
    if (start <= now) {
        return french ? "maintenant" : "now";
    }
    return (french ? "dans " : "in ") + formatElapsed(start - now);
}

} // namespace

std::string explain(const WaitDecision &wait, std::string_view language, Seconds now)
{
    const bool french = language == "fr";
    std::string text;
    for (const auto &t : kTemplates) {
        if (t.reason == wait.reason) {
            text = std::string(french ? t.fr : t.en);
        }
    }
    if (text.empty()) {
        text = std::string(reasonName(wait.reason));
    }
    if (wait.plannedStart) {
        text += french ? kExpectedFr : kExpectedEn;
    }
    replace(text, "{jobs}", jobList(wait.waitingFor, french));
    replace(text, "{nodes}", compressHostlist(wait.nodes));
    replace(text, "{dep}", wait.dependency);
    if (wait.plannedStart) {
        replace(text, "{start}", whenText(*wait.plannedStart, now, french));
    }
    return text;
}

std::string explain(const StartDecision &start, std::string_view language)
{
    const bool french = language == "fr";
    std::string text(start.backfilled ? (french ? kStartBackfillFr : kStartBackfillEn)
                                      : (french ? kStartFr : kStartEn));
    std::string id = std::to_string(start.job.value);
    if (start.arrayTaskId) {
        id += '_' + std::to_string(*start.arrayTaskId);
    }
    replace(text, "{jobs}", id);
    replace(text, "{nodes}", compressHostlist(start.nodes));
    return text;
}

} // namespace mc::sched
