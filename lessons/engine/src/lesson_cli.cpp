#include "mc/lessons/lesson_cli.h"

#include "mc/lessons/catalog.h"
#include "mc/lessons/collector.h"
#include "mc/lessons/evaluate.h"
#include "mc/lessons/facts.h"
#include "mc/lessons/progress.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

namespace mc::lessons {

namespace fs = std::filesystem;

namespace {

constexpr const char *kUsage = R"(Usage: minicluster lesson [--lang en|fr] COMMAND

  list          the lessons, and how far you are in each
  start ID      start (or restart the clock of) a lesson: its files are copied into your
                home and only what you do from now on counts
  check [ID]    check your work on the current lesson (or lesson ID)
  hint [ID]     one more hint for the step you are on
  show [ID]     print the lesson's text
  reset [ID]    forget your progress in the lesson and put its files back as they were
  reset-step [ID]
                start the step you are on again: only what you do from now on counts for it
                (a way out when you typed a command the step asks you not to)

ID is the lesson's number (2), its full name (02-first-job) or its slug (first-job).
)";

struct Words {
    bool fr;
    const char *pick(const char *en, const char *frText) const { return fr ? frText : en; }
};

std::optional<Lesson> lessonFor(const LessonContext &c, const std::string &lang,
    const std::string &key, const ProgressStore &store)
{
    std::string k = key.empty() ? store.current : key;
    if (k.empty()) {
        std::fprintf(stderr, "%s",
            lang == "fr" ? "minicluster lesson: aucune leçon en cours ; commencez-en une avec "
                           "`minicluster lesson start ID` (liste : `minicluster lesson list`)\n"
                         : "minicluster lesson: no lesson started; start one with "
                           "`minicluster lesson start ID` (see `minicluster lesson list`)\n");
        return std::nullopt;
    }
    auto parsed = loadLesson(c.lessonsDir, lang, k);
    if (!parsed) {
        std::fprintf(
            stderr, "minicluster lesson: no lesson '%s' in %s\n", k.c_str(), c.lessonsDir.c_str());
        return std::nullopt;
    }
    for (const auto &p : parsed->problems) {
        std::fprintf(stderr, "minicluster lesson: %s: %s\n", parsed->lesson.id.c_str(), p.c_str());
    }
    personalize(parsed->lesson, c.user);
    return parsed->lesson;
}

// Copies sample_jobs/<file> to <home>/<file> (keeping sub-folders); `overwrite` for reset.
void copyFiles(const std::string &from, const std::string &home,
    const std::vector<std::string> &files, bool overwrite, const Words &w)
{
    for (const auto &f : files) {
        fs::path src = fs::path(from) / f;
        fs::path dst = fs::path(home) / f;
        std::error_code ec;
        fs::create_directories(dst.parent_path(), ec);
        if (fs::exists(dst) && !overwrite) {
            std::printf(w.pick("  kept your own %s\n", "  votre %s est conservé\n"), f.c_str());
            continue;
        }
        if (fs::is_directory(src)) {
            fs::copy(
                src, dst, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
        } else {
            fs::copy_file(src, dst, fs::copy_options::overwrite_existing, ec);
        }
        if (ec) {
            std::fprintf(stderr, "minicluster lesson: %s: %s\n", src.c_str(), ec.message().c_str());
        } else {
            std::printf(w.pick("  copied %s\n", "  copié %s\n"), f.c_str());
        }
    }
}

void printStep(const Lesson &l, std::size_t i, const Words &w)
{
    std::printf(
        w.pick("\n== Step %zu of %zu: %s ==\n\n%s\n", "\n== Étape %zu sur %zu : %s ==\n\n%s\n"),
        i + 1, l.steps.size(), l.steps[i].title.c_str(), l.steps[i].text.c_str());
}

std::string clusterName(const LessonContext &c)
{
    std::ifstream in(c.layout.etc() + "/slurm.conf");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("ClusterName=", 0) == 0) {
            return line.substr(12);
        }
    }
    return "";
}

int start(const LessonContext &c, const std::string &lang, const std::string &key,
    ProgressStore &store, bool reset)
{
    Words w{lang == "fr"};
    auto lesson = lessonFor(c, lang, key, store);
    if (!lesson) {
        return 2;
    }
    auto now = clusterNow(c.layout);
    if (!now) {
        std::fprintf(stderr, "%s",
            w.pick("minicluster lesson: the cluster is not running; start it with `minicluster "
                   "up`\n",
                "minicluster lesson: la grappe n'est pas démarrée ; lancez `minicluster up`\n"));
        return 1;
    }
    if (lesson->preset != "default" && clusterName(c) != lesson->preset) {
        std::printf(
            w.pick("Note: this lesson is written for the '%s' site. Start that cluster "
                   "with\n  minicluster --dir ~/.local/share/minicluster/%s --preset %s up\n"
                   "and run the lesson commands with the same --dir.\n",
                "Note : cette leçon est écrite pour le site « %s ». Démarrez cette grappe "
                "avec\n  minicluster --dir ~/.local/share/minicluster/%s --preset %s up\n"
                "et passez le même --dir aux commandes de leçon.\n"),
            lesson->preset.c_str(), lesson->preset.c_str(), lesson->preset.c_str());
    }
    LessonProgress p;
    p.started = *now;
    p.wallStarted = wallClockNow();
    store.lessons[lesson->id] = p;
    store.current = lesson->id;
    if (!store.save()) {
        std::fprintf(stderr, "minicluster lesson: cannot write %s\n", store.path().c_str());
        return 1;
    }
    std::printf(
        "%s %s — %s\n", w.pick("Lesson", "Leçon"), lesson->number.c_str(), lesson->title.c_str());
    copyFiles(c.samplesDir, c.layout.home() + "/" + c.user, lesson->files, reset, w);
    copyFiles(
        c.samplesDir, c.layout.dir + "/workstation/home/" + c.user, lesson->laptopFiles, reset, w);
    if (reset) {
        std::printf("%s",
            w.pick("Progress forgotten; the lesson starts again now.\n",
                "Progression effacée ; la leçon recommence maintenant.\n"));
    }
    std::printf("\n%s\n", lesson->intro.c_str());
    if (!lesson->steps.empty()) {
        printStep(*lesson, 0, w);
    }
    std::printf("%s",
        w.pick("\nWhen you are done, run `minicluster lesson check`.\n",
            "\nQuand c'est fait, lancez `minicluster lesson check`.\n"));
    return 0;
}

// The started lesson `key` (or the current one), its progress and the facts now, for check and
// reset-step. Says what is missing and returns the exit status (2: no such lesson or not
// started, 1: the cluster does not answer); 0 when all three are there.
int startedLesson(const LessonContext &c, const std::string &lang, const std::string &key,
    ProgressStore &store, std::optional<Lesson> &lesson,
    std::map<std::string, LessonProgress>::iterator &it, Snapshot &snap)
{
    Words w{lang == "fr"};
    lesson = lessonFor(c, lang, key, store);
    if (!lesson) {
        return 2;
    }
    it = store.lessons.find(lesson->id);
    if (it == store.lessons.end()) {
        std::fprintf(stderr,
            w.pick("minicluster lesson: lesson %s is not started; run `minicluster lesson start "
                   "%s` first\n",
                "minicluster lesson: la leçon %s n'est pas commencée ; lancez d'abord "
                "`minicluster lesson start %s`\n"),
            lesson->id.c_str(), lesson->number.c_str());
        return 2;
    }
    std::string error;
    if (!collectFacts(
            c.layout, c.user, c.account, it->second.started, it->second.wallStarted, snap, error)) {
        std::fprintf(stderr, "minicluster lesson: %s\n", error.c_str());
        return 1;
    }
    return 0;
}

int check(
    const LessonContext &c, const std::string &lang, const std::string &key, ProgressStore &store)
{
    Words w{lang == "fr"};
    std::optional<Lesson> lesson;
    std::map<std::string, LessonProgress>::iterator it;
    Snapshot snap;
    if (int rc = startedLesson(c, lang, key, store, lesson, it, snap); rc != 0) {
        return rc;
    }
    LessonStatus status = evaluateLesson(*lesson, snap.facts, it->second.stepStarts);
    std::printf(
        "%s %s — %s\n", w.pick("Lesson", "Leçon"), lesson->number.c_str(), lesson->title.c_str());
    for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
        const auto &s = status.steps[i];
        std::printf(
            "  [%s] %zu. %s\n", s.passed ? "x" : " ", i + 1, lesson->steps[i].title.c_str());
        if (s.passed || i != status.currentStep) {
            continue;
        }
        for (std::size_t k = 0; k < s.results.size(); ++k) {
            const auto &r = s.results[k];
            std::printf("      %s %s\n", r.passed ? w.pick("ok ", "oui") : w.pick("NO ", "non"),
                lesson->steps[i].checks[k].source.c_str());
            if (!r.passed) {
                std::printf("          %s\n", r.explanation.c_str());
            }
        }
    }
    if (status.complete) {
        std::printf("%s", w.pick("Lesson complete. Well done!\n", "Leçon terminée. Bravo !\n"));
        it->second.complete = true;
        store.save();
        return 0;
    }
    // The first check that finds a new step current prints that step's text, as `start` does
    // for the first one; later checks only list the checks (`show` prints the text again).
    if (status.currentStep > it->second.shownStep && status.currentStep < lesson->steps.size()) {
        printStep(*lesson, status.currentStep, w);
        it->second.shownStep = status.currentStep;
        store.save();
    }
    std::printf(w.pick("Step %zu is not done yet (`minicluster lesson show` prints the text again, "
                       "`minicluster lesson hint` gives a hint).\n",
                    "L'étape %zu n'est pas encore faite (`minicluster lesson show` réaffiche le "
                    "texte, `minicluster lesson hint` donne un indice).\n"),
        status.currentStep + 1);
    return 1;
}

int hint(
    const LessonContext &c, const std::string &lang, const std::string &key, ProgressStore &store)
{
    Words w{lang == "fr"};
    auto lesson = lessonFor(c, lang, key, store);
    if (!lesson) {
        return 2;
    }
    auto &p = store.lessons[lesson->id];
    Snapshot snap;
    std::string error;
    std::size_t stepIndex = p.hintStep;
    if (collectFacts(c.layout, c.user, c.account, p.started, p.wallStarted, snap, error)) {
        stepIndex = evaluateLesson(*lesson, snap.facts, p.stepStarts).currentStep;
    }
    if (stepIndex >= lesson->steps.size()) {
        std::printf("%s",
            w.pick("Every step is done: no hint needed.\n",
                "Toutes les étapes sont faites : pas besoin d'indice.\n"));
        return 0;
    }
    if (p.hintStep != stepIndex) {
        p.hintStep = stepIndex;
        p.hintsShown = 0;
    }
    const auto &hints = lesson->steps[stepIndex].hints;
    if (hints.empty()) {
        std::printf("%s",
            w.pick("This step has no hint; read its text again with `minicluster "
                   "lesson show`.\n",
                "Cette étape n'a pas d'indice ; relisez son texte avec "
                "`minicluster lesson show`.\n"));
        return 0;
    }
    std::size_t n = std::min(static_cast<std::size_t>(p.hintsShown), hints.size() - 1);
    std::printf(w.pick("Hint %zu of %zu for step %zu:\n%s\n",
                    "Indice %zu sur %zu pour l'étape %zu :\n%s\n"),
        n + 1, hints.size(), stepIndex + 1, hints[n].c_str());
    p.hintsShown = static_cast<int>(n + 1);
    store.save();
    return 0;
}

int resetStep(
    const LessonContext &c, const std::string &lang, const std::string &key, ProgressStore &store)
{
    Words w{lang == "fr"};
    std::optional<Lesson> lesson;
    std::map<std::string, LessonProgress>::iterator it;
    Snapshot snap;
    if (int rc = startedLesson(c, lang, key, store, lesson, it, snap); rc != 0) {
        return rc;
    }
    std::size_t step = evaluateLesson(*lesson, snap.facts, it->second.stepStarts).currentStep;
    if (step >= lesson->steps.size()) {
        std::printf("%s",
            w.pick("Every step is done: there is no step to start again.\n",
                "Toutes les étapes sont faites : aucune étape à reprendre.\n"));
        return 0;
    }
    it->second.stepStarts[step] = StepStart{snap.facts.now, wallClockNow()};
    if (!store.save()) {
        std::fprintf(stderr, "minicluster lesson: cannot write %s\n", store.path().c_str());
        return 1;
    }
    std::printf(w.pick("Step %zu starts again now: only what you do from now on counts for it.\n",
                    "L'étape %zu recommence maintenant : seul ce que vous faites désormais "
                    "compte pour elle.\n"),
        step + 1);
    printStep(*lesson, step, w);
    return 0;
}

int list(const LessonContext &c, const std::string &lang, const ProgressStore &store)
{
    Words w{lang == "fr"};
    for (const auto &e : listLessons(c.lessonsDir, lang)) {
        auto parsed = loadLesson(c.lessonsDir, lang, e.id);
        if (!parsed) {
            continue;
        }
        auto it = store.lessons.find(e.id);
        const char *state = it == store.lessons.end() ? ""
            : it->second.complete                     ? w.pick("done", "terminée")
                                                      : w.pick("started", "commencée");
        const std::string &title = parsed->lesson.title;
        std::string pad(55 - std::min<std::size_t>(55, displayWidth(title)), ' ');
        std::printf("%s %-3s %s%s %s\n", e.id == store.current ? "*" : " ",
            parsed->lesson.number.c_str(), title.c_str(), pad.c_str(), state);
    }
    return 0;
}

int show(const LessonContext &c, const std::string &lang, const std::string &key,
    const ProgressStore &store)
{
    Words w{lang == "fr"};
    auto lesson = lessonFor(c, lang, key, store);
    if (!lesson) {
        return 2;
    }
    std::printf("%s %s — %s\n\n%s\n", w.pick("Lesson", "Leçon"), lesson->number.c_str(),
        lesson->title.c_str(), lesson->intro.c_str());
    for (std::size_t i = 0; i < lesson->steps.size(); ++i) {
        printStep(*lesson, i, w);
    }
    return 0;
}

} // namespace

std::string languageFromEnvironment()
{
    for (const char *var : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char *v = std::getenv(var);
        if (v && *v) {
            return std::string(v).rfind("fr", 0) == 0 ? "fr" : "en";
        }
    }
    return "en";
}

int runLessonCommand(const LessonContext &context, const std::vector<std::string> &args)
{
    std::string lang = context.lang.empty() ? languageFromEnvironment() : context.lang;
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--lang" && i + 1 < args.size()) {
            lang = args[++i];
        } else if (args[i].rfind("--lang=", 0) == 0) {
            lang = args[i].substr(7);
        } else if (args[i] == "-h" || args[i] == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        } else {
            rest.push_back(args[i]);
        }
    }
    if (lang != "en" && lang != "fr") {
        std::fprintf(stderr,
            "minicluster lesson: lessons exist in English (en) and French (fr), "
            "not '%s'\n",
            lang.c_str());
        return 2;
    }
    if (rest.empty()) {
        std::fputs(kUsage, stderr);
        return 2;
    }
    ProgressStore store(context.layout, context.user);
    if (!store.load()) {
        std::fprintf(stderr,
            "minicluster lesson: %s is damaged; `minicluster lesson reset` "
            "starts afresh\n",
            store.path().c_str());
    }
    const std::string &cmd = rest[0];
    std::string key = rest.size() > 1 ? rest[1] : "";
    if (cmd == "list") {
        return list(context, lang, store);
    }
    if (cmd == "start") {
        if (key.empty()) {
            std::fputs("minicluster lesson: start needs a lesson ID (see `minicluster lesson "
                       "list`)\n",
                stderr);
            return 2;
        }
        return start(context, lang, key, store, false);
    }
    if (cmd == "check") {
        return check(context, lang, key, store);
    }
    if (cmd == "hint") {
        return hint(context, lang, key, store);
    }
    if (cmd == "show") {
        return show(context, lang, key, store);
    }
    if (cmd == "reset") {
        return start(context, lang, key, store, true);
    }
    if (cmd == "reset-step") {
        return resetStep(context, lang, key, store);
    }
    std::fprintf(stderr, "minicluster lesson: unknown command '%s'\n%s", cmd.c_str(), kUsage);
    return 2;
}

} // namespace mc::lessons
