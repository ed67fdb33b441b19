// Every shipped lesson's checks, both ways, for a user who is not alice, in both languages: the
// work done right (the jobs, commands and files the lesson asks for) completes the lesson;
// nothing done passes no step; the usual mistakes fail the step they belong to, and
// `reset-step` is a way out of a forbidden command.
#include "mc/lessons/catalog.h"
#include "mc/lessons/evaluate.h"
#include "mc/lessons/lesson.h"
#include "mc/sched/time_format.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>

using mc::lessons::Facts;
using mc::lessons::Lesson;
using mc::proto::Json;

namespace {

constexpr const char *kUser = "bob";
constexpr const char *kAccount = "def-prof1";

std::string lessonsDir()
{
    return std::string(MC_SOURCE_DIR) + "/lessons";
}

// Jobs, commands and files of one student, on a cluster folder of its own.
class World {
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

    Json &job(std::int64_t id, const char *name, const char *state)
    {
        Json j = Json::object();
        j.set("job_id", id);
        j.set("name", name);
        j.set("user", kUser);
        j.set("account", kAccount);
        j.set("state", state);
        j.set("submit_time", 1000 + id * 10);
        j.set("start_time", 1005 + id * 10);
        j.set("end_time", state == std::string("RUNNING") ? 0 : 1008 + id * 10);
        j.set("time_limit", 3600);
        j.set("min_memory", 1000);
        j.set("num_cpus", 1);
        j.set("num_nodes", 1);
        j.set("exit_code", 0);
        j.set("partition", "cpubase_bycore_b1");
        m_facts.jobs.push_back(j);
        return m_facts.jobs.back();
    }

    void typed(const char *host, const std::string &command)
    {
        m_clock += 1;
        m_facts.history.push_back({m_clock, host, std::string("/home/") + kUser, command});
    }

    // `path` as the student sees it: ~/..., $SCRATCH/..., laptop:~/...
    void file(const std::string &path, const std::string &content)
    {
        std::string host = path.rfind("laptop:~", 0) == 0 ? m_files.laptopHome() + path.substr(8)
                                                          : m_files.hostPath(m_files.expand(path));
        std::filesystem::create_directories(std::filesystem::path(host).parent_path());
        std::ofstream(host) << content;
    }

    void dir(const std::string &path)
    {
        std::filesystem::create_directories(m_files.hostPath(m_files.expand(path)));
    }

    // When a student starts a step again: from now on.
    mc::lessons::StepStart restartNow()
    {
        m_clock += 1;
        return {m_facts.now, m_clock};
    }

    const Facts &facts() const { return m_facts; }
    Facts &facts() { return m_facts; }

private:
    QTemporaryDir m_dir;
    mc::emu::ClusterLayout m_layout;
    mc::lessons::FileView m_files;
    Facts m_facts;
    double m_clock = 1000;
};

// What a student who follows lesson `number` to the letter leaves behind.
void doRight(const std::string &number, World &w)
{
    if (number == "01") {
        w.typed("laptop", "ssh minicluster");
        w.file("laptop:~/.ssh/config", "Host mc\n    HostName minicluster\n    User bob\n");
        w.typed("laptop", "ssh mc hostname");
        w.typed("laptop", "rsync -a myproject/ mc:myproject/");
        w.file("~/myproject/train.py", "print('train')\n");
        w.typed("login1", "sinfo");
    } else if (number == "02") {
        w.typed("login1", "sbatch hello.sh");
        w.job(2, "hello", "COMPLETED");
        w.typed("login1", "squeue -u bob");
        w.file("~/hello-2.out", "Hello from cn01\n");
        w.typed("login1", "sacct -j 2");
    } else if (number == "03") {
        w.job(3, "interactive", "COMPLETED").set("interactive", true);
        w.typed("login1", "srun hostname");
        w.typed("cn01", "hostname");
    } else if (number == "04") {
        w.job(4, "too-long", "TIMEOUT");
        w.job(5, "too-big", "OUT_OF_MEMORY");
        Json &right = w.job(6, "right-size", "COMPLETED");
        right.set("min_memory", 500);
        right.set("time_limit", 600);
        w.typed("login1", "seff 6");
    } else if (number == "05") {
        w.job(7, "logdir", "FAILED");
        w.dir("$SCRATCH/logs");
        w.job(8, "logdir", "COMPLETED");
        w.file("$SCRATCH/logs/logdir-8.out", "my log is in /scratch/bob/logs\n");
        w.job(9, "tmpdir", "COMPLETED");
        w.file("$SCRATCH/results/parts-9.tar", "tar");
        w.typed("login1", "diskusage_report");
    } else if (number == "06") {
        w.typed("login1", "module avail");
        w.typed("login1", "module load python");
        w.job(10, "venv", "COMPLETED");
        w.file("~/venv-10.out", "python 3.11\n");
    } else if (number == "07") {
        for (int t = 1; t <= 6; ++t) {
            Json &task = w.job(10 + t, "squares", "COMPLETED");
            task.set("array_job_id", 11);
            task.set("array_task_id", t);
        }
        w.file("~/squares-11_6.out", "6 squared is 36\n");
        w.job(20, "prepare", "COMPLETED");
        Json spec = Json::object();
        spec.set("dependency", "afterok:20");
        w.job(21, "compute", "COMPLETED").set("spec", spec);
        spec.set("dependency", "afterok:21");
        w.job(22, "analyse", "COMPLETED").set("spec", spec);
        w.file("~/analyse-22.out", "sum: 338350\n");
    } else if (number == "08") {
        w.file("$SCRATCH/code-snapshots/myproject/train.py", "print('train')\n");
        w.dir("$SCRATCH/logs");
        w.job(30, "train", "COMPLETED");
        w.file("$SCRATCH/results/train-30/checkpoint.json", "{\"epoch\": 5}\n");
        w.file("$SCRATCH/logs/train-30.out", "epoch 5 loss 0.1\n");
    } else if (number == "09") {
        w.typed("login1", "squeue");
        w.typed("login1", "sprio");
        w.typed("login1", "sshare");
        Json &wide = w.job(40, "wide", "PENDING");
        wide.set("num_nodes", 4);
        wide.set("start_time", 3000); // its planned start
        wide.set("end_time", 0);
        w.typed("login1", "squeue --start");
        w.job(41, "short", "RUNNING");
        Json &tooLong = w.job(42, "toolong", "PENDING");
        tooLong.set("start_time", 3600);
        tooLong.set("end_time", 0);
        w.job(43, "checkpoint", "COMPLETED").set("restarts", 1);
        w.file("~/checkpoint.txt", "30\n");
    } else if (number == "10") {
        w.typed("login1", "sinfo");
        Json &whole = w.job(50, "whole-node", "COMPLETED");
        whole.set("partition", "CPU-4");
        whole.set("num_cpus", 4);
        w.typed("login1", "sbatch -p CPU-4 --time=1-07:00:00 exclusive_job.sh");
        w.job(51, "whole-node", "CANCELLED").set("time_limit", 31 * 3600);
        Json &thirty = w.job(52, "whole-node", "COMPLETED");
        thirty.set("partition", "CPU-4");
        thirty.set("time_limit", 30 * 3600);
        Json &big = w.job(53, "too-big", "CANCELLED");
        big.set("partition", "CPU-4");
        big.set("comment", "Job killed: memory overrun (the node was restarted)");
        w.typed("login1", "sacct -o JobID,JobName,State,Comment%80");
    } else if (number == "11") {
        w.job(60, "cnn-digits", "COMPLETED");
        w.file("~/cnn_digits/cnn-digits-60.out", "resumed from checkpoint\ndone: accuracy 0.97\n");
        w.typed("login1", "seff 60");
        for (int t = 0; t < 4; ++t) {
            Json &task = w.job(61 + t, "cnn-sweep", "COMPLETED");
            task.set("array_job_id", 61);
            task.set("array_task_id", t);
        }
        Json spec = Json::object();
        spec.set("dependency", "afterok:61");
        w.job(70, "cnn-gather", "COMPLETED").set("spec", spec);
        w.file("~/cnn_digits/cnn-gather-70.out", "best: lr=0.01\n");
    }
}

Lesson load(const std::string &lang, const std::string &number)
{
    for (const auto &e : mc::lessons::listLessons(lessonsDir(), lang)) {
        if (e.id.rfind(number + "-", 0) == 0) {
            auto parsed = mc::lessons::loadLesson(lessonsDir(), lang, e.id);
            if (parsed && parsed->problems.empty()) {
                return parsed->lesson;
            }
        }
    }
    qFatal("no lesson %s in %s that parses cleanly", number.c_str(), lang.c_str());
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
            for (int n = 1; n <= 11; ++n) {
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
            for (auto &j : w.facts().jobs) {
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
