#include "mc/lessons/evaluate.h"

#include "mc/base/text.h"
#include "mc/sched/time_format.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fnmatch.h>
#include <optional>
#include <sstream>

namespace mc::lessons {

using proto::Json;
using record::JobObject;

namespace {

enum class Kind { Text, Number, Duration, Memory, State, Bool };

struct FieldDef {
    std::string_view name;
    Kind kind;
    std::string_view en; // "its state"
    std::string_view fr; // "son état"
};

constexpr FieldDef kJobFields[] = {
    {"id", Kind::Number, "its job ID", "son numéro"},
    {"name", Kind::Text, "its name", "son nom"},
    {"state", Kind::State, "its state", "son état"},
    {"reason", Kind::Text, "its reason", "sa raison d'attente"},
    {"partition", Kind::Text, "its partition", "sa partition"},
    {"user", Kind::Text, "its user", "son utilisateur"},
    {"account", Kind::Text, "its account", "son compte"},
    {"qos", Kind::Text, "its QOS", "sa QOS"},
    {"node", Kind::Text, "its node", "son nœud"},
    {"nodes", Kind::Number, "its number of nodes", "son nombre de nœuds"},
    {"cpus", Kind::Number, "its number of CPUs", "son nombre de CPU"},
    {"cpus_per_task", Kind::Number, "its --cpus-per-task", "son --cpus-per-task"},
    {"ntasks", Kind::Number, "its number of tasks", "son nombre de tâches"},
    {"mem", Kind::Memory, "its memory request", "sa demande de mémoire"},
    {"time", Kind::Duration, "its time limit", "sa limite de temps"},
    {"exit", Kind::Number, "its exit code", "son code de sortie"},
    {"signal", Kind::Number, "the signal that ended it", "le signal qui l'a arrêtée"},
    {"array", Kind::Text, "its --array", "son --array"},
    {"array_job", Kind::Number, "its array job ID", "le numéro de son tableau"},
    {"array_task", Kind::Number, "its array index", "son indice dans le tableau"},
    {"dependency", Kind::Text, "its --dependency", "son --dependency"},
    {"after", Kind::Text, "the jobs it depends on", "les tâches dont elle dépend"},
    {"overtook", Kind::Text, "the jobs it started before", "les tâches qu'elle a doublées"},
    {"gres", Kind::Text, "its GRES", "ses GRES"},
    {"gpus", Kind::Number, "its GPUs per node", "ses GPU par nœud"},
    {"exclusive", Kind::Bool, "--exclusive", "--exclusive"},
    {"interactive", Kind::Bool, "being interactive", "son caractère interactif"},
    {"workdir", Kind::Text, "its working directory", "son répertoire de travail"},
    {"output", Kind::Text, "its --output", "son --output"},
    {"error", Kind::Text, "its --error", "son --error"},
    {"restarts", Kind::Number, "its number of restarts", "son nombre de redémarrages"},
    {"comment", Kind::Text, "its Comment", "son Comment"},
    {"used_mem", Kind::Memory, "the memory it used (MaxRSS)", "la mémoire utilisée (MaxRSS)"},
    {"used_cpu", Kind::Duration, "the CPU time it used", "le temps CPU utilisé"},
    {"elapsed", Kind::Duration, "its run time", "sa durée d'exécution"},
    {"wait", Kind::Duration, "its time in the queue", "son temps d'attente"},
};

constexpr FieldDef kNodeFields[] = {
    {"name", Kind::Text, "its name", "son nom"},
    {"state", Kind::Text, "its state", "son état"},
    {"reason", Kind::Text, "its reason", "sa raison"},
    {"partition", Kind::Text, "its partitions", "ses partitions"},
    {"cpus", Kind::Number, "its CPUs", "ses CPU"},
    {"alloc_cpus", Kind::Number, "its allocated CPUs", "ses CPU allouées"},
    {"memory", Kind::Memory, "its memory", "sa mémoire"},
    {"gpus", Kind::Number, "its GPUs", "ses GPU"},
};

template <std::size_t N>
const FieldDef *findField(const FieldDef (&table)[N], std::string_view name)
{
    for (const auto &f : table) {
        if (f.name == name) {
            return &f;
        }
    }
    return nullptr;
}

bool fr(std::string_view lang)
{
    return lang == "fr";
}

std::string say(std::string_view lang, std::string en, std::string frText)
{
    return fr(lang) ? frText : en;
}

std::string formatDuration(long long s)
{
    if (s < 0) {
        return "UNLIMITED";
    }
    char buf[48];
    long long d = s / 86400;
    long long h = (s % 86400) / 3600;
    long long m = (s % 3600) / 60;
    long long sec = s % 60;
    if (d > 0) {
        std::snprintf(buf, sizeof buf, "%lld-%02lld:%02lld:%02lld", d, h, m, sec);
    } else {
        std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", h, m, sec);
    }
    return buf;
}

std::string formatMemory(long long mib)
{
    if (mib >= 1024 && mib % 1024 == 0) {
        return std::to_string(mib / 1024) + "G";
    }
    return std::to_string(mib) + "M";
}

std::string formatAge(long long s, std::string_view lang)
{
    if (s < 120) {
        return std::to_string(s) + (fr(lang) ? " secondes" : " seconds");
    }
    if (s < 7200) {
        return std::to_string(s / 60) + " minutes";
    }
    if (s < 2 * 86400) {
        return std::to_string(s / 3600) + (fr(lang) ? " heures" : " hours");
    }
    return std::to_string(s / 86400) + (fr(lang) ? " jours" : " days");
}

struct Actual {
    std::vector<std::string> texts;
    std::optional<long long> num;
};

std::string shown(const Actual &a, Kind kind)
{
    if (a.num) {
        if (kind == Kind::Duration) {
            return formatDuration(*a.num);
        }
        if (kind == Kind::Memory) {
            return formatMemory(*a.num);
        }
        return std::to_string(*a.num);
    }
    std::string out;
    for (const auto &t : a.texts) {
        out += (out.empty() ? "" : ",") + t;
    }
    return out.empty() ? "(none)" : out;
}

const JobObject *jobById(const Facts &facts, std::int64_t id)
{
    for (const auto &j : facts.jobs) {
        if (j.jobId == id) {
            return &j;
        }
    }
    return nullptr;
}

// "afterok:12:13?afterany:14_2,singleton" -> "afterok:<name of 12>", "afterok:12", "<name>",
// "12", ..., "singleton".
std::vector<std::string> dependencyTargets(const std::string &dep, const Facts &facts)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < dep.size()) {
        std::size_t end = dep.find_first_of(",?", start);
        std::string group
            = dep.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? dep.size() : end + 1;
        std::size_t colon = group.find(':');
        if (colon == std::string::npos) {
            out.push_back(group); // singleton
            continue;
        }
        std::string type = group.substr(0, colon);
        std::size_t p = colon + 1;
        while (p <= group.size()) {
            std::size_t next = group.find(':', p);
            std::string token
                = group.substr(p, next == std::string::npos ? std::string::npos : next - p);
            p = next == std::string::npos ? group.size() + 1 : next + 1;
            std::string id = token.substr(0, token.find_first_of("_+("));
            if (id.empty()) {
                continue;
            }
            const JobObject *j = jobById(facts, std::atoll(id.c_str()));
            std::string name = j ? j->name : id;
            for (const auto &t : {type + ":" + name, type + ":" + id, name, id}) {
                out.push_back(t);
            }
        }
    }
    return out;
}

// Once a job started, the controller no longer reports its --dependency; what happened shows
// it instead. Job J waited for job O when J was submitted before O ended and started only once
// O had ended (afterany; afterok when O COMPLETED, afternotok otherwise), or only once O had
// started (after). A job that waited for resources at that moment looks the same: lessons
// that check dependencies run on a quiet cluster.
std::vector<std::string> inferredDependencies(const JobObject &job, const Facts &facts)
{
    std::vector<std::string> out;
    long long submit = job.submitTime;
    long long start = job.startTime;
    // An array task may wait for its throttle, which would look like a dependency.
    if (start <= 0 || job.arrayJobId != 0) {
        return out;
    }
    for (const auto &o : facts.jobs) {
        if (o.jobId == job.jobId) {
            continue;
        }
        long long oStart = o.startTime;
        long long oEnd = o.endTime;
        long long oSubmit = o.submitTime;
        if (oSubmit > submit || oStart <= 0) {
            continue;
        }
        const std::string &name = o.name;
        std::string id = std::to_string(o.jobId);
        std::vector<std::string> types;
        if (oEnd > 0 && submit <= oEnd && start >= oEnd) {
            types.push_back("afterany");
            types.push_back(o.state == "COMPLETED" ? "afterok" : "afternotok");
        }
        if (submit <= oStart && start >= oStart) {
            types.push_back("after");
        }
        for (const auto &t : types) {
            for (const auto &text : {t + ":" + name, t + ":" + id}) {
                out.push_back(text);
            }
        }
        if (!types.empty()) {
            out.push_back(name);
            out.push_back(id);
        }
    }
    return out;
}

// The jobs of the lesson that job J overtook: submitted before J to the same partition, and
// still waiting when J started (not started yet, or started later). Backfill is what lets a
// short job start while an earlier, larger one waits for its planned start.
std::vector<std::string> overtakenJobs(const JobObject &job, const Facts &facts)
{
    std::vector<std::string> out;
    long long id = job.jobId;
    long long start = job.startTime;
    if (start <= 0 || job.state == "PENDING") {
        return out;
    }
    for (const auto &o : facts.jobs) {
        long long oId = o.jobId;
        if (oId >= id || o.submitTime < facts.since || o.partition != job.partition) {
            continue;
        }
        // A pending job's start_time is its planned start, not a start; a job cancelled while
        // pending never ran (no nodes), though Slurm sets its start time to the cancel time.
        bool neverRan = o.state == "PENDING" || (o.state == "CANCELLED" && o.nodes.empty());
        long long oStart = neverRan ? 0 : o.startTime;
        long long oEnd = o.endTime;
        // Started later, or never started and still waiting (or cancelled) when J started; the
        // clock has whole seconds, so a cancel in J's own second still counts as waiting.
        if (oStart > start || (oStart <= 0 && (oEnd <= 0 || oEnd >= start))) {
            out.push_back(o.name);
            out.push_back(std::to_string(oId));
        }
    }
    return out;
}

// A job's texts as squeue shows them.
std::string jobText(const JobObject &job, std::string_view field)
{
    if (field == "name") {
        return job.name;
    }
    if (field == "reason") {
        return job.reason;
    }
    if (field == "partition") {
        return job.partition;
    }
    if (field == "user") {
        return job.user;
    }
    if (field == "account") {
        return job.account;
    }
    if (field == "qos") {
        return job.qos.value_or("");
    }
    return job.gres;
}

Actual jobValue(const JobObject &job, std::string_view field, const Facts &facts)
{
    Actual a;
    auto num = [&](long long v) {
        a.num = v;
    };
    if (field == "id") {
        num(job.jobId);
    } else if (field == "name" || field == "reason" || field == "partition" || field == "user"
        || field == "account" || field == "qos" || field == "gres") {
        a.texts.push_back(jobText(job, field));
    } else if (field == "state") {
        a.texts.push_back(job.state);
        a.texts.push_back(job.stateShort);
    } else if (field == "node") {
        a.texts = job.nodes;
    } else if (field == "nodes") {
        num(job.numNodes.value_or(0));
    } else if (field == "cpus") {
        num(job.numCpus.value_or(0));
    } else if (field == "cpus_per_task") {
        num(job.cpusPerTask.value_or(1));
    } else if (field == "ntasks") {
        num(job.numTasks.value_or(1));
    } else if (field == "mem") {
        if (job.memPerCpu) {
            long long nodes = std::max<long long>(1, job.numNodes.value_or(1));
            num(job.minMemory * job.numCpus.value_or(1) / nodes);
        } else {
            num(job.minMemory);
        }
    } else if (field == "time") {
        num(job.timeLimit.value_or(0));
    } else if (field == "exit") {
        num(job.exitCode);
    } else if (field == "signal") {
        num(job.exitSignal);
    } else if (field == "array") {
        // The job object does not carry the --array given (only the pending tasks of an
        // array's record, array_task_str): no value, as before it was decoded.
        a.texts.push_back({});
    } else if (field == "array_job") {
        num(job.arrayJobId);
    } else if (field == "array_task") {
        if (job.arrayTaskId) {
            num(*job.arrayTaskId);
        }
    } else if (field == "dependency") {
        a.texts.push_back(job.dependency);
    } else if (field == "after") {
        a.texts = job.dependency.empty() ? inferredDependencies(job, facts)
                                         : dependencyTargets(job.dependency, facts);
    } else if (field == "overtook") {
        a.texts = overtakenJobs(job, facts);
    } else if (field == "gpus") {
        num(job.gpus);
    } else if (field == "exclusive") {
        a.texts.push_back(job.exclusive ? "yes" : "no");
    } else if (field == "interactive") {
        a.texts.push_back(job.interactive ? "yes" : "no");
    } else if (field == "workdir") {
        a.texts.push_back(job.workDir);
    } else if (field == "output") {
        a.texts.push_back(job.stdOut);
    } else if (field == "error") {
        a.texts.push_back(job.stdErr);
    } else if (field == "restarts") {
        num(job.restarts);
    } else if (field == "comment") {
        a.texts.push_back(job.comment.value_or(""));
    } else if (field == "used_mem" || field == "used_cpu") {
        long long rss = 0;
        long long cpu = 0;
        for (const auto &s : job.steps) {
            rss = std::max<long long>(rss, s.maxRssKb);
            cpu += s.totalCpuMs;
        }
        num(field == "used_mem" ? rss / 1024 : cpu / 1000);
    } else if (field == "elapsed") {
        num(job.startTime <= 0 ? 0 : (job.endTime > 0 ? job.endTime : facts.now) - job.startTime);
    } else if (field == "wait") {
        num((job.startTime > 0 ? job.startTime : facts.now) - job.submitTime);
    }
    return a;
}

Actual nodeValue(const Json &node, std::string_view field)
{
    Actual a;
    if (field == "name" || field == "state" || field == "reason") {
        a.texts.push_back(node[field].toString());
    } else if (field == "partition") {
        a.texts = node["partitions"].toStringList();
    } else if (field == "cpus" || field == "alloc_cpus" || field == "memory" || field == "gpus") {
        a.num = node[field].toInt();
    }
    return a;
}

std::optional<long long> expectedNumber(const Condition &c, Kind kind)
{
    if (kind == Kind::Duration) {
        if (c.value == "UNLIMITED" || c.value == "unlimited") {
            return -1;
        }
        // Slurm's own syntax, read as sbatch --time reads it (a bare number is minutes), else
        // the checks' 5m, 2h, 3d.
        if (auto seconds = sched::parseTimeLimit(c.value)) {
            return *seconds;
        }
        return parseDuration(c.value);
    }
    if (kind == Kind::Memory) {
        return parseMemoryMiB(c.value);
    }
    char *end = nullptr;
    long long v = std::strtoll(c.value.c_str(), &end, 10);
    if (c.value.empty() || *end != '\0') {
        return std::nullopt;
    }
    return v;
}

bool globMatch(const std::string &pattern, const std::string &text)
{
    return ::fnmatch(pattern.c_str(), text.c_str(), FNM_CASEFOLD) == 0;
}

// `pattern` is one glob or several separated by '|'.
bool globAny(const std::string &pattern, const std::string &text)
{
    std::size_t start = 0;
    while (start <= pattern.size()) {
        std::size_t bar = pattern.find('|', start);
        std::string alt
            = pattern.substr(start, bar == std::string::npos ? std::string::npos : bar - start);
        if (globMatch(alt, text)) {
            return true;
        }
        if (bar == std::string::npos) {
            break;
        }
        start = bar + 1;
    }
    return false;
}

bool matches(const Condition &c, Kind kind, const Actual &a)
{
    if (c.op == Op::Has) {
        std::string want = base::toLower(c.value);
        return std::any_of(a.texts.begin(), a.texts.end(), [&](const std::string &t) {
            return base::toLower(t).find(want) != std::string::npos;
        }) || (a.num && std::to_string(*a.num).find(want) != std::string::npos);
    }
    if (a.num && kind != Kind::Text && kind != Kind::State) {
        auto want = expectedNumber(c, kind);
        if (!want) {
            return false;
        }
        long long v = *a.num;
        // An UNLIMITED time limit (-1) is larger than any limit.
        if (kind == Kind::Duration && v < 0) {
            v = (1LL << 60);
        }
        long long w = (kind == Kind::Duration && *want < 0) ? (1LL << 60) : *want;
        switch (c.op) {
        case Op::Eq:
            return v == w;
        case Op::Ne:
            return v != w;
        case Op::Lt:
            return v < w;
        case Op::Le:
            return v <= w;
        case Op::Gt:
            return v > w;
        case Op::Ge:
            return v >= w;
        case Op::Has:
            break;
        }
        return false;
    }
    if (kind == Kind::Bool) {
        std::string want = base::toLower(c.value);
        bool wantYes = want == "yes" || want == "true" || want == "1";
        bool isYes = !a.texts.empty() && a.texts.front() == "yes";
        return (c.op == Op::Ne) != (wantYes == isYes);
    }
    // Text: globs, and alternatives separated by '|'.
    bool any = std::any_of(
        a.texts.begin(), a.texts.end(), [&](const std::string &t) { return globAny(c.value, t); });
    if (c.op == Op::Eq) {
        return any;
    }
    if (c.op == Op::Ne) {
        return !any;
    }
    return false; // < > on text: never
}

std::string wanted(const Condition &c, std::string_view lang)
{
    std::string v = c.value;
    switch (c.op) {
    case Op::Eq:
        return v;
    case Op::Ne:
        return say(lang, "anything but " + v, "autre chose que " + v);
    case Op::Lt:
        return say(lang, "less than " + v, "moins de " + v);
    case Op::Le:
        return say(lang, "at most " + v, "au plus " + v);
    case Op::Gt:
        return say(lang, "more than " + v, "plus de " + v);
    case Op::Ge:
        return say(lang, "at least " + v, "au moins " + v);
    case Op::Has:
        return say(lang, "something containing \"" + v + "\"", "un texte contenant « " + v + " »");
    }
    return v;
}

bool isFinal(const std::string &state)
{
    return state != "PENDING" && state != "RUNNING" && state != "CONFIGURING"
        && state != "COMPLETING" && state != "SUSPENDED" && state != "REQUEUED"
        && state != "RESIZING" && !state.empty();
}

std::string jobLabel(const JobObject &job, std::string_view lang)
{
    std::string id = std::to_string(job.jobId);
    if (job.arrayTaskId) {
        id = std::to_string(job.arrayJobId) + "_" + std::to_string(*job.arrayTaskId);
    }
    return say(lang, "job ", "la tâche ") + id + " (" + job.name + ")";
}

std::string withExplain(const Check &check, const std::string &detail)
{
    if (check.explain.empty()) {
        return detail;
    }
    return check.explain + (detail.empty() ? "" : " (" + detail + ")");
}

CheckResult evaluateJob(const Check &check, const Facts &facts, std::string_view lang)
{
    CheckResult r;
    std::vector<const JobObject *> scope;
    for (const auto &j : facts.jobs) {
        if (j.user == facts.user && j.submitTime >= facts.since) {
            scope.push_back(&j);
        }
    }
    const JobObject *closest = nullptr;
    std::vector<const Condition *> closestFailed;
    for (const JobObject *j : scope) {
        std::vector<const Condition *> failed;
        for (const auto &c : check.conditions) {
            const FieldDef *f = findField(kJobFields, c.field);
            if (!f || !matches(c, f->kind, jobValue(*j, c.field, facts))) {
                failed.push_back(&c);
            }
        }
        // The closest job fails fewest conditions; a job of another name is never closer
        // than one of the right name.
        auto score = [](const std::vector<const Condition *> &fails) {
            std::size_t n = fails.size();
            for (const Condition *c : fails) {
                n += c->field == "name" ? std::size_t{100} : std::size_t{0};
            }
            return n;
        };
        if (failed.empty()) {
            r.jobIds.push_back(j->jobId);
        } else if (!closest || score(failed) < score(closestFailed)
            || (score(failed) == score(closestFailed) && j->jobId > closest->jobId)) {
            closest = j;
            closestFailed = failed;
        }
    }
    int count = static_cast<int>(r.jobIds.size());
    if (check.none) {
        r.passed = count == 0;
        if (!r.passed) {
            const JobObject *j = jobById(facts, r.jobIds.front());
            r.explanation = withExplain(check,
                say(lang,
                    "Found " + jobLabel(*j, lang) + " (" + j->state
                        + "), and this step expects no job like it.",
                    "Il y a " + jobLabel(*j, lang) + " (" + j->state
                        + "), alors que cette étape n'en attend aucune de ce genre."));
        }
        return r;
    }
    r.passed = count >= check.atLeast;
    if (r.passed) {
        return r;
    }
    std::string detail;
    if (scope.empty()) {
        detail = say(lang, "You have not submitted any job since this lesson started.",
            "Vous n'avez soumis aucune tâche depuis le début de cette leçon.");
    } else if (count > 0) {
        detail = say(lang,
            std::to_string(count) + " of your jobs match; this step needs "
                + std::to_string(check.atLeast) + ".",
            std::to_string(count) + " de vos tâches correspondent ; cette étape en demande "
                + std::to_string(check.atLeast) + ".");
    } else if (closest) {
        std::string parts;
        bool stillRunning = false;
        for (const Condition *c : closestFailed) {
            const FieldDef *f = findField(kJobFields, c->field);
            Actual a = jobValue(*closest, c->field, facts);
            if (!f) {
                continue;
            }
            if (f->kind == Kind::State && !isFinal(closest->state)) {
                stillRunning = true;
            }
            std::string actual = f->kind == Kind::State ? closest->state : shown(a, f->kind);
            if (c->field == "after") {
                parts += std::string(parts.empty() ? "" : "; ")
                    + say(lang,
                        "it did not wait for " + c->value
                            + " (submit it with --dependency=TYPE:JOBID)",
                        "elle n'a pas attendu " + c->value
                            + " (soumettez-la avec --dependency=TYPE:NUMÉRO)");
                continue;
            }
            if (c->field == "overtook") {
                parts += std::string(parts.empty() ? "" : "; ")
                    + say(lang,
                        "it did not start while " + c->value
                            + " was waiting (backfill starts a job early only if its --time "
                              "ends before the waiting job's planned start)",
                        "elle n'a pas démarré pendant que " + c->value
                            + " attendait (le backfill ne fait passer une tâche que si son --time "
                              "finit avant le démarrage prévu de la tâche en attente)");
                continue;
            }
            std::string part
                = say(lang, std::string(f->en) + " is " + actual + ", not " + wanted(*c, lang),
                    std::string(f->fr) + " est " + actual + " au lieu de " + wanted(*c, lang));
            parts += (parts.empty() ? "" : "; ") + part;
        }
        detail = say(lang, "The closest is " + jobLabel(*closest, lang) + ": " + parts + ".",
            "La plus proche est " + jobLabel(*closest, lang) + " : " + parts + ".");
        if (stillRunning) {
            detail += say(lang, " It has not finished yet: wait a little and check again.",
                " Elle n'est pas encore terminée : attendez un peu et vérifiez de nouveau.");
        }
    }
    r.explanation = withExplain(check, detail);
    return r;
}

CheckResult evaluateNode(const Check &check, const Facts &facts, std::string_view lang)
{
    CheckResult r;
    int count = 0;
    std::string firstActual;
    for (const auto &n : facts.nodes) {
        if (check.target != "any" && !globMatch(check.target, n["name"].toString())) {
            continue;
        }
        bool all = true;
        for (const auto &c : check.conditions) {
            const FieldDef *f = findField(kNodeFields, c.field);
            Actual a = nodeValue(n, c.field);
            if (!f || !matches(c, f->kind, a)) {
                all = false;
                if (firstActual.empty() && f) {
                    firstActual = n["name"].toString() + ": "
                        + say(lang, std::string(f->en) + " is ", std::string(f->fr) + " est ")
                        + shown(a, f->kind);
                }
            }
        }
        count += all ? 1 : 0;
    }
    r.passed = check.none ? count == 0 : count >= check.atLeast;
    if (!r.passed) {
        std::string detail = check.none
            ? say(lang, "A node matches `" + check.source + "`, and none should.",
                "Un nœud correspond à « " + check.source + " », et aucun ne devrait.")
            : say(lang, "No node matches `" + check.source + "`",
                  "Aucun nœud ne correspond à « " + check.source + " »")
                + (firstActual.empty() ? "" : " (" + firstActual + ")") + ".";
        r.explanation = withExplain(check, detail);
    }
    return r;
}

bool hostMatches(const std::string &want, const std::string &host)
{
    if (want.empty()) {
        return true;
    }
    if (want == "login") {
        return host.rfind("login", 0) == 0;
    }
    if (want == "compute") {
        return host.rfind("login", 0) != 0 && host != "laptop";
    }
    return globMatch(want, host);
}

std::string clock(double t)
{
    std::time_t tt = static_cast<std::time_t>(t);
    std::tm tm{};
    ::localtime_r(&tt, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%H:%M:%S", &tm);
    return buf;
}

// A command line and each command in it: `cd x && sbatch job.sh` also counts as
// `sbatch job.sh` (split at ; && || and |, quotes respected).
std::vector<std::string> commandParts(const std::string &line)
{
    std::vector<std::string> parts = {line};
    std::string cur;
    char quote = 0;
    auto flush = [&] {
        auto b = cur.find_first_not_of(" \t");
        auto e = cur.find_last_not_of(" \t");
        if (b != std::string::npos) {
            parts.push_back(cur.substr(b, e - b + 1));
        }
        cur.clear();
    };
    for (std::size_t i = 0; i < line.size(); ++i) {
        char c = line[i];
        if (quote) {
            quote = c == quote ? 0 : quote;
            cur += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            cur += c;
        } else if (c == ';' || c == '|'
            || (c == '&' && i + 1 < line.size() && line[i + 1] == '&')) {
            flush();
            if (c != ';' && i + 1 < line.size() && line[i + 1] == c) {
                ++i;
            }
        } else {
            cur += c;
        }
    }
    flush(); // the last command (the whole line again when nothing split it: harmless)
    return parts;
}

// Whether one word of the command is the option: `-a` alone or among combined letters (-av),
// `--archive` alone or as --archive=value.
bool hasOption(const std::string &command, const std::string &option)
{
    std::istringstream in(command);
    for (std::string word; in >> word;) {
        if (option.rfind("--", 0) == 0) {
            if (word == option || word.rfind(option + "=", 0) == 0) {
                return true;
            }
        } else if (word.size() >= 2 && word[0] == '-' && word[1] != '-') {
            for (std::size_t k = 1;
                 k < word.size() && std::isalpha(static_cast<unsigned char>(word[k])); ++k) {
                if (word[k] == option[1]) {
                    return true;
                }
            }
        }
    }
    return false;
}

bool commandMatches(const Check &check, const std::string &line)
{
    for (const auto &part : commandParts(line)) {
        if (globAny(check.target, part)
            && (check.options.empty()
                || std::any_of(check.options.begin(), check.options.end(),
                    [&](const std::string &o) { return hasOption(part, o); }))) {
            return true;
        }
    }
    return false;
}

// " on laptop" / " sur le portable": where a command was typed, for messages.
std::string onHost(std::string_view lang, const std::string &host)
{
    if (host.empty()) {
        return "";
    }
    if (host == "login") {
        return say(lang, " on a login node", " sur un nœud de connexion");
    }
    if (host == "compute") {
        return say(lang, " on a compute node", " sur un nœud de calcul");
    }
    if (host == "laptop") {
        return say(lang, " on the laptop", " sur le portable");
    }
    return say(lang, " on ", " sur ") + host;
}

CheckResult evaluateRan(const Check &check, const Facts &facts, std::string_view lang)
{
    CheckResult r;
    const HistoryEntry *found = nullptr;
    for (const auto &e : facts.history) {
        if (e.time >= facts.wallSince && hostMatches(check.host, e.host)
            && commandMatches(check, e.command)) {
            found = &e;
        }
    }
    std::string where = onHost(lang, check.host);
    std::string with;
    for (const auto &o : check.options) {
        with += (with.empty() ? say(lang, " with ", " avec ") : say(lang, " or ", " ou ")) + o;
    }
    if (check.none) {
        r.passed = found == nullptr;
        if (!r.passed) {
            r.explanation = withExplain(check,
                say(lang,
                    "You ran `" + found->command + "` on " + found->host + " at "
                        + clock(found->time)
                        + ", and this step asks you not to. To start the step again, run "
                          "`minicluster lesson reset-step`.",
                    "Vous avez lancé « " + found->command + " » sur " + found->host + " à "
                        + clock(found->time)
                        + ", ce que cette étape demande d'éviter. Pour reprendre l'étape, lancez "
                          "`minicluster lesson reset-step`."));
        }
        return r;
    }
    r.passed = found != nullptr;
    if (!r.passed) {
        r.explanation = withExplain(check,
            say(lang,
                "No command like `" + check.target + "`" + with + " was typed" + where
                    + " since this lesson started.",
                "Aucune commande comme « " + check.target + " »" + with + " n'a été tapée" + where
                    + " depuis le début de cette leçon."));
    }
    return r;
}

CheckResult evaluateFile(const Check &check, const Facts &facts, std::string_view lang)
{
    CheckResult r;
    if (!facts.files) {
        r.explanation = say(lang, "Files cannot be checked here.",
            "Les fichiers ne peuvent pas être vérifiés ici.");
        return r;
    }
    std::string path = facts.files->expand(check.target);
    auto found = facts.files->match(check.target);
    switch (check.fileTest) {
    case FileTest::Missing:
        r.passed = found.empty();
        if (!r.passed) {
            r.explanation = withExplain(check,
                say(lang, found.front().path + " still exists; this step expects it gone.",
                    found.front().path + " existe encore ; cette étape attend qu'il ait disparu."));
        }
        return r;
    case FileTest::IsDir:
        r.passed
            = std::any_of(found.begin(), found.end(), [](const FileInfo &f) { return f.isDir; });
        if (!r.passed) {
            r.explanation = withExplain(check,
                say(lang, "There is no directory " + path + ".",
                    "Il n'y a pas de répertoire " + path + "."));
        }
        return r;
    default:
        break;
    }
    if (found.empty()) {
        r.explanation = withExplain(check,
            say(lang, "There is no file " + path + ".", "Il n'y a pas de fichier " + path + "."));
        return r;
    }
    switch (check.fileTest) {
    case FileTest::Exists:
        r.passed = true;
        break;
    case FileTest::Contains:
    case FileTest::NotContains: {
        const FileInfo *hit = nullptr;
        for (const auto &f : found) {
            if (!f.isDir && FileView::read(f.hostPath).find(check.fileArg) != std::string::npos) {
                hit = &f;
                break;
            }
        }
        if (check.fileTest == FileTest::Contains) {
            r.passed = hit != nullptr;
            if (!r.passed) {
                r.explanation = withExplain(check,
                    say(lang,
                        found.back().path + " exists but does not contain \"" + check.fileArg
                            + "\".",
                        found.back().path + " existe mais ne contient pas « " + check.fileArg
                            + " »."));
            }
        } else {
            r.passed = hit == nullptr;
            if (!r.passed) {
                r.explanation = withExplain(check,
                    say(lang, hit->path + " still contains \"" + check.fileArg + "\".",
                        hit->path + " contient encore « " + check.fileArg + " »."));
            }
        }
        break;
    }
    case FileTest::OlderThan:
    case FileTest::NewerThan: {
        long long limit = parseDuration(check.fileArg).value_or(0);
        const FileInfo *hit = nullptr;
        for (const auto &f : found) {
            long long age = facts.now - f.mtime;
            if ((check.fileTest == FileTest::OlderThan) == (age > limit)) {
                hit = &f;
                break;
            }
        }
        r.passed = hit != nullptr;
        if (!r.passed) {
            long long age = facts.now - found.front().mtime;
            r.explanation = withExplain(check,
                say(lang,
                    found.front().path + " was last changed " + formatAge(age, lang)
                        + " ago; the check wants it "
                        + (check.fileTest == FileTest::OlderThan ? "older" : "newer") + " than "
                        + formatAge(limit, lang) + ".",
                    found.front().path + " a été modifié il y a " + formatAge(age, lang)
                        + " ; la vérification le veut "
                        + (check.fileTest == FileTest::OlderThan ? "plus ancien" : "plus récent")
                        + " que " + formatAge(limit, lang) + "."));
        }
        break;
    }
    default:
        break;
    }
    return r;
}

} // namespace

bool isJobField(std::string_view field)
{
    return findField(kJobFields, field) != nullptr;
}

bool isNodeField(std::string_view field)
{
    return findField(kNodeFields, field) != nullptr;
}

CheckResult evaluate(const Check &check, const Facts &facts, std::string_view lang)
{
    switch (check.kind) {
    case CheckKind::Job:
        return evaluateJob(check, facts, lang);
    case CheckKind::Node:
        return evaluateNode(check, facts, lang);
    case CheckKind::Ran:
        return evaluateRan(check, facts, lang);
    case CheckKind::File:
        return evaluateFile(check, facts, lang);
    }
    return {};
}

LessonStatus evaluateLesson(
    const Lesson &lesson, const Facts &facts, const std::map<std::size_t, StepStart> &restarts)
{
    LessonStatus status;
    status.currentStep = lesson.steps.size();
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        StepStatus s;
        s.passed = true;
        std::optional<Facts> restarted;
        if (auto r = restarts.find(i); r != restarts.end()) {
            restarted = facts;
            restarted->since = std::max(facts.since, r->second.since);
            restarted->wallSince = std::max(facts.wallSince, r->second.wallSince);
        }
        for (const auto &c : lesson.steps[i].checks) {
            s.results.push_back(evaluate(c, restarted ? *restarted : facts, lesson.lang));
            s.passed = s.passed && s.results.back().passed;
        }
        if (!s.passed && status.currentStep == lesson.steps.size()) {
            status.currentStep = i;
        }
        status.steps.push_back(std::move(s));
    }
    status.complete = status.currentStep == lesson.steps.size();
    return status;
}

} // namespace mc::lessons
