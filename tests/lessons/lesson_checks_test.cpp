// Every shipped lesson's checks, both ways, for a user who is not alice, in both languages: the
// work done right (the jobs, commands and files the lesson asks for) completes the lesson;
// nothing done passes no step; the usual mistakes fail the step they belong to, and
// `reset-step` is a way out of a forbidden command.
#include "lesson_work.h"
#include "mc/lessons/catalog.h"
#include "mc/lessons/evaluate.h"
#include "mc/lessons/lesson.h"
#include "mc/sched/time_format.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <deque>
#include <map>

using mc::lessons::Facts;
using mc::lessons::Lesson;
using mc::proto::Json;

namespace {

using mc::lessons::test::doRight;
using mc::lessons::test::kAccount;
using mc::lessons::test::kUser;

// Jobs, commands and files of one student, on a cluster folder of its own.
class World : public mc::lessons::test::Student {
public:
    World()
        : m_layout{m_dir.path().toStdString()}
        , m_files(m_layout, kUser, kAccount)
    {
        m_facts.user = kUser;
        m_facts.now = 5000;
        m_facts.wallNow = 5000;
        m_facts.since = 900;
        m_facts.wallSince = 900;
        m_facts.files = &m_files;
    }

    Json &add(Json job) override
    {
        m_jobs.push_back(std::move(job));
        return m_jobs.back();
    }

    void typed(const char *host, const std::string &command) override
    {
        m_clock += 1;
        m_facts.history.push_back({m_clock, host, std::string("/home/") + kUser, command});
    }

    const mc::lessons::FileView &files() const override { return m_files; }

    // When a student starts a step again: from now on.
    mc::lessons::StepStart restartNow()
    {
        m_clock += 1;
        return {m_facts.now, m_clock};
    }

    // What the engine sees: the jobs decoded as the collector decodes the controller's.
    Facts facts() const
    {
        Facts f = m_facts;
        for (const Json &job : m_jobs) {
            f.jobs.push_back(mc::record::jobObjectFromJson(job));
        }
        return f;
    }
    // The jobs as the controller reports them, to change before facts().
    std::deque<Json> &jobs() { return m_jobs; }

private:
    QTemporaryDir m_dir;
    mc::emu::ClusterLayout m_layout;
    mc::lessons::FileView m_files;
    Facts m_facts;
    std::deque<Json> m_jobs; // stable references for add()
    double m_clock = 1000;
};

Lesson load(const std::string &lang, const std::string &number)
{
    auto lesson = mc::lessons::test::shippedLesson(lang, number);
    if (!lesson) {
        qFatal("no lesson %s in %s that parses cleanly", number.c_str(), lang.c_str());
    }
    return *lesson;
}

std::string why(const Lesson &lesson, const mc::lessons::LessonStatus &status)
{
    std::string out;
    for (std::size_t i = 0; i < status.steps.size(); ++i) {
        for (std::size_t k = 0; k < status.steps[i].results.size(); ++k) {
            if (!status.steps[i].results[k].passed) {
                out += "step " + std::to_string(i + 1) + ": " + lesson.steps[i].checks[k].source
                    + ": " + status.steps[i].results[k].explanation + "\n";
            }
        }
    }
    return out;
}

// The first step whose title's check list includes `source` (the English and French lessons
// share their checks).
std::size_t stepWith(const Lesson &lesson, const std::string &source)
{
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        for (const auto &c : lesson.steps[i].checks) {
            if (c.source == source) {
                return i;
            }
        }
    }
    qFatal("no check '%s' in %s", source.c_str(), lesson.id.c_str());
}

} // namespace

class LessonChecksTest : public QObject {
    Q_OBJECT

private slots:
    void everyLesson_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("number");
        for (const char *lang : {"en", "fr"}) {
            for (int n = 1; n <= mc::lessons::test::kLessonCount; ++n) {
                QString number = QString::asprintf("%02d", n);
                QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(number, lang)))
                    << QString::fromLatin1(lang) << number;
            }
        }
    }

    void everyLesson()
    {
        QFETCH(QString, lang);
        QFETCH(QString, number);
        Lesson lesson = load(lang.toStdString(), number.toStdString());

        World right;
        doRight(number.toStdString(), right);
        auto done = mc::lessons::evaluateLesson(lesson, right.facts());
        QVERIFY2(done.complete, why(lesson, done).c_str());

        World idle;
        auto nothing = mc::lessons::evaluateLesson(lesson, idle.facts());
        for (std::size_t i = 0; i < nothing.steps.size(); ++i) {
            QVERIFY2(!nothing.steps[i].passed,
                qPrintable(QStringLiteral("step %1 passes with nothing done").arg(i + 1)));
        }
        for (const auto &step : nothing.steps) {
            for (const auto &r : step.results) {
                QVERIFY(r.passed || !r.explanation.empty());
            }
        }

        // The text speaks to bob, not to alice.
        mc::lessons::personalize(lesson, kUser);
        std::string text = lesson.intro;
        for (const auto &s : lesson.steps) {
            text += s.text;
            for (const auto &h : s.hints) {
                text += h;
            }
        }
        QVERIFY2(text.find("alice") == std::string::npos, lesson.id.c_str());
        QVERIFY2(text.find("{user}") == std::string::npos, lesson.id.c_str());
        for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
            QVERIFY2(!lesson.steps[i].text.empty(),
                qPrintable(QStringLiteral("%1: step %2 has no text")
                               .arg(QString::fromStdString(lesson.id))
                               .arg(i + 1)));
        }
    }

    void lessonOneAcceptsEveryWayOfSayingArchive_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<bool>("passes");
        QTest::newRow("-a") << "rsync -a myproject/ mc:myproject/" << true;
        QTest::newRow("--archive") << "rsync --archive myproject/ mc:myproject/" << true;
        QTest::newRow("-avz") << "rsync -avz myproject/ mc:myproject/" << true;
        QTest::newRow("-va") << "rsync -v -a --progress myproject/ mc:myproject/" << true;
        QTest::newRow("-r only") << "rsync -r myproject/ mc:myproject/" << false;
        QTest::newRow("-v only") << "rsync -v myproject/ mc:myproject/" << false;
        QTest::newRow("scp") << "scp -r myproject mc:" << false;
    }

    void lessonOneAcceptsEveryWayOfSayingArchive()
    {
        QFETCH(QString, command);
        QFETCH(bool, passes);
        for (const char *lang : {"en", "fr"}) {
            Lesson lesson = load(lang, "01");
            World w;
            w.typed("laptop", command.toStdString());
            w.file("~/myproject/train.py", "x");
            std::size_t step = stepWith(lesson, "ran \"rsync*\" with -a|--archive on laptop");
            auto status = mc::lessons::evaluateLesson(lesson, w.facts());
            QCOMPARE(status.steps[step].passed, passes);
        }
    }

    // Lesson 3's usual mistakes: each fails the step it belongs to, the steps before it pass.
    void lessonThreeWantsTheShellThatSallocOpensOnTheNode()
    {
        for (const char *lang : {"en", "fr"}) {
            const Lesson lesson = load(lang, "03");
            QCOMPARE(lesson.steps.size(), std::size_t{4});
            auto currentStep = [&lesson](const World &w) {
                return mc::lessons::evaluateLesson(lesson, w.facts()).currentStep;
            };

            // srun on login1 makes an allocation of its own: not salloc's.
            World srunAlone;
            srunAlone.typed("login1", "srun hostname");
            srunAlone.job(3, "hostname", "COMPLETED").set("interactive", true);
            QCOMPARE(currentStep(srunAlone), std::size_t{0});

            // salloc with a command runs it on login1: no shell on the node, no hostname there.
            World withCommand;
            withCommand.typed("login1", "salloc --time=1:00:00 --mem=2G hostname");
            withCommand.job(3, "interactive", "COMPLETED").set("interactive", true);
            QCOMPARE(currentStep(withCommand), std::size_t{1});

            // salloc typed right, and hostname in the shell it opened on cn01.
            auto onTheNode = [](World &w, const char *state) {
                w.typed("login1", "salloc --time=1:00:00 --mem=2G");
                w.job(3, "interactive", state).set("interactive", true);
                w.typed("cn01", "hostname");
            };
            // In the allocation, then srun typed only back on login1 (a job of its own).
            World srunAfter;
            onTheNode(srunAfter, "COMPLETED");
            srunAfter.typed("login1", "srun python3 interactive_test.py");
            srunAfter.job(4, "python3", "COMPLETED").set("interactive", true);
            srunAfter.typed("login1", "hostname");
            QCOMPARE(currentStep(srunAfter), std::size_t{2});

            // Everything done on the node, but the allocation is still held.
            World stillThere;
            onTheNode(stillThere, "RUNNING");
            stillThere.typed("cn01", "srun python3 interactive_test.py");
            QCOMPARE(currentStep(stillThere), std::size_t{3});
        }
    }

    void pythonOnTheLoginNodeHasAWayOut()
    {
        for (const char *lang : {"en", "fr"}) {
            Lesson lesson = load(lang, "01");
            World w;
            doRight("01", w);
            w.typed("login1", "python train.py");
            auto blocked = mc::lessons::evaluateLesson(lesson, w.facts());
            QVERIFY(!blocked.complete);
            QCOMPARE(blocked.currentStep, lesson.steps.size() - 1);
            const auto &failed = blocked.steps.back().results.back();
            QVERIFY2(failed.explanation.find("minicluster lesson reset-step") != std::string::npos,
                failed.explanation.c_str());

            // reset-step: the step starts again; sinfo is typed again, and no python.
            std::map<std::size_t, mc::lessons::StepStart> restarts{
                {blocked.currentStep, w.restartNow()}};
            auto restarted = mc::lessons::evaluateLesson(lesson, w.facts(), restarts);
            QVERIFY(!restarted.complete); // sinfo was before the restart
            w.typed("login1", "sinfo");
            auto done = mc::lessons::evaluateLesson(lesson, w.facts(), restarts);
            QVERIFY2(done.complete, why(lesson, done).c_str());
            // Python again after the restart blocks it again.
            w.typed("login1", "python train.py");
            QVERIFY(!mc::lessons::evaluateLesson(lesson, w.facts(), restarts).complete);
        }
    }

    void lessonTenReadsTimeLimitsAsSlurmDoes_data()
    {
        QTest::addColumn<QString>("time");
        QTest::addColumn<bool>("passes");
        // As sbatch reads --time: a bare number is minutes.
        QTest::newRow("35 minutes") << "35" << false;
        QTest::newRow("31:00 is 31 minutes") << "31:00" << false;
        QTest::newRow("30:00:00") << "30:00:00" << false;
        QTest::newRow("31:00:00") << "31:00:00" << true;
        QTest::newRow("1-07:00:00") << "1-07:00:00" << true;
        QTest::newRow("40:00:00") << "40:00:00" << true;
        QTest::newRow("2-0") << "2-0" << true;
    }

    void lessonTenReadsTimeLimitsAsSlurmDoes()
    {
        QFETCH(QString, time);
        QFETCH(bool, passes);
        auto seconds = mc::sched::parseTimeLimit(time.toStdString());
        QVERIFY(seconds.has_value());
        for (const char *lang : {"en", "fr"}) {
            Lesson lesson = load(lang, "10");
            World w;
            doRight("10", w);
            // Only the job asked with `time` is over 30 hours, if it is.
            for (auto &j : w.jobs()) {
                if (j["time_limit"].toInt() > 30 * 3600) {
                    j.set("time_limit", *seconds);
                }
            }
            std::size_t step = stepWith(lesson, "job name=whole-node time>30:00:00");
            auto status = mc::lessons::evaluateLesson(lesson, w.facts());
            QCOMPARE(status.steps[step].passed, passes);
        }
    }

    void frenchOutputSaysWhereInFrench()
    {
        Lesson lesson = load("fr", "01");
        World w;
        auto status = mc::lessons::evaluateLesson(lesson, w.facts());
        const std::string &first = status.steps[0].results[0].explanation;
        QVERIFY2(first.find("sur le portable") != std::string::npos, first.c_str());
        QVERIFY2(first.find("sur laptop") == std::string::npos, first.c_str());
        auto compute = mc::lessons::evaluate(
            *mc::lessons::parseCheck("ran \"hostname\" on compute").check, w.facts(), "fr");
        QVERIFY2(compute.explanation.find("sur un nœud de calcul") != std::string::npos,
            compute.explanation.c_str());
    }

    // Calcul Québec's French: grappe, tâche (code, commands and Slurm's own words aside).
    void frenchLessonsUseTheGlossary()
    {
        const QRegularExpression code(QStringLiteral("`[^`]*`"));
        const QRegularExpression english(
            QStringLiteral("\\b(jobs?|clusters?)\\b"), QRegularExpression::CaseInsensitiveOption);
        for (int n = 1; n <= 11; ++n) {
            Lesson lesson = load("fr", QString::asprintf("%02d", n).toStdString());
            std::string text = lesson.title + "\n" + lesson.intro;
            for (const auto &s : lesson.steps) {
                text += "\n" + s.title + "\n" + s.text;
                for (const auto &c : s.checks) {
                    text += "\n" + c.explain;
                }
            }
            for (const QString &line : QString::fromStdString(text).split(QLatin1Char('\n'))) {
                if (line.startsWith(QStringLiteral("    "))) {
                    continue; // a command to type
                }
                QString prose = line;
                prose.remove(code);
                QVERIFY2(!english.match(prose).hasMatch(),
                    qPrintable(QString::fromStdString(lesson.id) + QStringLiteral(": ") + line));
            }
        }
        World w;
        w.job(3, "hello", "RUNNING");
        auto r = mc::lessons::evaluate(
            *mc::lessons::parseCheck("job name=hello state=COMPLETED").check, w.facts(), "fr");
        QVERIFY2(r.explanation.rfind("La plus proche est la tâche 3 (hello)", 0) == 0,
            r.explanation.c_str());
    }

    void titlesAlignByCharactersNotBytes()
    {
        QCOMPARE(mc::lessons::displayWidth("Les tâches"), std::size_t{10});
        QCOMPARE(mc::lessons::displayWidth("nœud"), std::size_t{4});
        QCOMPARE(mc::lessons::displayWidth("plain"), std::size_t{5});
    }
};

QTEST_GUILESS_MAIN(LessonChecksTest)
#include "lesson_checks_test.moc"
