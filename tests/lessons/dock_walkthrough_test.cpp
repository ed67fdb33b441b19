// Every lesson walked through the app's Lessons dock, in English and in French, as bob: the
// lesson opened in the dock (its text and every step's title on screen), Start, then for each
// step the dock's Check with the earlier steps done and this one not (it fails with the
// engine's reason, and Hint gives the lesson's own hint for that step), and Check once all is
// done (complete, ✓ in the list). The buttons run the real `minicluster lesson`; a stand-in
// controller on the cluster folder's socket reports bob's jobs, and his shell history and files
// are written where the engine reads them.
#include "fake_controller.h"
#include "lesson_work.h"
#include "mc/emu/shell_history.h"
#include "mc/gui/language.h"
#include "mc/gui/lessons_view.h"
#include "mc/lessons/catalog.h"
#include "mc/lessons/evaluate.h"
#include "mc/lessons/progress.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <deque>
#include <functional>

using mc::gui::LessonsView;
using mc::lessons::Lesson;
using mc::lessons::test::kUser;
using mc::proto::Json;

namespace {

QString q(const std::string &text)
{
    return QString::fromStdString(text);
}

// The dock's output box gives non-breaking spaces back as spaces (QTextDocument's plain text).
QString plain(const std::string &text)
{
    return q(text).replace(QChar::Nbsp, QLatin1Char(' '));
}

// A cluster folder for bob, with a stand-in controller on its socket.
class Classroom : public mc::lessons::test::Student {
public:
    Classroom()
        : m_layout{m_dir.path().toStdString()}
        , m_files(m_layout, kUser, mc::lessons::test::kAccount)
        , m_ctld(m_layout.socket())
    { }

    bool open()
    {
        QFile conf(m_dir.filePath(QStringLiteral("etc/minicluster.conf")));
        return QDir().mkpath(m_dir.filePath(QStringLiteral("etc")))
            && QDir().mkpath(m_dir.filePath(QStringLiteral("run")))
            && conf.open(QIODevice::WriteOnly)
            && conf.write(QStringLiteral("User=%1 UID=1002 DefaultAccount=%2\n")
                              .arg(QLatin1String(kUser), QLatin1String(mc::lessons::test::kAccount))
                              .toUtf8())
            > 0
            && m_ctld.listen();
    }

    QString folder() const { return m_dir.path(); }
    const mc::emu::ClusterLayout &layout() const { return m_layout; }
    void setNow(long long now) { m_now = now; }

    Json &add(Json job) override
    {
        m_jobs.push_back(std::move(job));
        return m_jobs.back();
    }

    void typed(const char *host, const std::string &command) override
    {
        const mc::emu::HistoryEntry entry{
            mc::emu::wallClockNow(), host, std::string("/home/") + kUser, command};
        mc::emu::appendHistory(m_layout, kUser, entry);
        m_history.push_back(entry);
    }

    const mc::lessons::FileView &files() const override { return m_files; }

    // What the engine sees now, for a lesson started at `since` (cluster) and `wallSince`.
    mc::lessons::Facts facts(long long since, double wallSince) const
    {
        mc::lessons::Facts f;
        f.user = kUser;
        f.now = m_now;
        f.wallNow = static_cast<long long>(mc::emu::wallClockNow());
        f.since = since;
        f.wallSince = wallSince;
        for (const Json &job : m_jobs) {
            f.jobs.push_back(mc::record::jobObjectFromJson(job));
        }
        f.history = m_history;
        f.files = &m_files;
        return f;
    }

    // Clicks the dock's `button` and answers the controller requests of the command it runs
    // until it has finished; the dock's output then.
    QString click(LessonsView &view, const char *button)
    {
        QSignalSpy finished(&view, &LessonsView::commandFinished);
        auto *b = view.findChild<QPushButton *>(QLatin1String(button));
        if (!b || !b->isEnabled()) {
            return QStringLiteral("no enabled button %1").arg(QLatin1String(button));
        }
        b->click();
        const QDeadlineTimer deadline(60000);
        while (finished.isEmpty() && !deadline.hasExpired()) {
            if (m_ctld.accept(std::chrono::milliseconds(20))) {
                serve();
            }
        }
        return finished.isEmpty() ? QStringLiteral("(no answer in 60 s)") : view.outputText();
    }

private:
    // One client's requests, as minicluster-ctld answers the ones the lesson engine sends.
    void serve()
    {
        while (auto line = m_ctld.readLine()) {
            const auto request = Json::parse(*line);
            const std::string op = request ? (*request)["op"].toString() : std::string();
            Json reply = Json::object();
            reply.set("ok", true);
            if (op == "ping") {
                reply.set("now", static_cast<std::int64_t>(m_now));
            } else if (op == "acct") {
                Json jobs = Json::array();
                for (const Json &j : m_jobs) {
                    jobs.push(j);
                }
                reply.set("jobs", jobs);
            } else if (op == "jobs") {
                reply.set("jobs", Json::array()); // nothing live: every job has ended
            } else if (op == "cluster") {
                reply.set("nodes", Json::array());
            } else {
                reply.set("ok", false);
                reply.set("error", "unknown op " + op);
            }
            m_ctld.send(reply);
        }
        m_ctld.dropClient();
    }

    QTemporaryDir m_dir;
    mc::emu::ClusterLayout m_layout;
    mc::lessons::FileView m_files;
    mc::gui::test::FakeController m_ctld;
    std::deque<Json> m_jobs; // stable references for add()
    std::vector<mc::emu::HistoryEntry> m_history;
    long long m_now = 900;
};

// A lesson's right work, kept as a list of single actions to hand to the classroom one by one.
class Recorder : public mc::lessons::test::Student {
public:
    explicit Recorder(Classroom &room)
        : m_room(room)
    { }

    Json &add(Json job) override
    {
        m_jobs.push_back(std::move(job));
        const std::size_t i = m_jobs.size() - 1;
        // The job as it is once doRight has set its fields: read at replay.
        m_actions.push_back([this, i] { m_room.add(m_jobs[i]); });
        return m_jobs.back();
    }
    void typed(const char *host, const std::string &command) override
    {
        m_actions.push_back([this, host, command] { m_room.typed(host, command); });
    }
    void file(const std::string &path, const std::string &content) override
    {
        m_actions.push_back([this, path, content] { m_room.file(path, content); });
    }
    void dir(const std::string &path) override
    {
        m_actions.push_back([this, path] { m_room.dir(path); });
    }
    const mc::lessons::FileView &files() const override { return m_room.files(); }

    // Hands the next action to the classroom; false when none is left.
    bool next()
    {
        if (m_done >= m_actions.size()) {
            return false;
        }
        m_actions[m_done++]();
        return true;
    }

private:
    Classroom &m_room;
    std::deque<Json> m_jobs;
    std::vector<std::function<void()>> m_actions;
    std::size_t m_done = 0;
};

Lesson load(const QString &lang, const QString &number)
{
    auto lesson = mc::lessons::test::shippedLesson(lang.toStdString(), number.toStdString());
    if (!lesson) {
        qFatal("no lesson %s in %s that parses cleanly", qPrintable(number), qPrintable(lang));
    }
    mc::lessons::personalize(*lesson, kUser);
    return *lesson;
}

} // namespace

class DockWalkthroughTest : public QObject {
    Q_OBJECT

private slots:
    void everyLessonThroughTheDock_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("number");
        for (const char *lang : {"en", "fr"}) {
            for (int n = 1; n <= mc::lessons::test::kLessonCount; ++n) {
                const QString number = QString::asprintf("%02d", n);
                QTest::newRow(qPrintable(number + QLatin1Char(' ') + QLatin1String(lang)))
                    << QString::fromLatin1(lang) << number;
            }
        }
    }

    void everyLessonThroughTheDock()
    {
        QFETCH(QString, lang);
        QFETCH(QString, number);
        const bool fr = lang == QLatin1String("fr");
        mc::gui::installLanguage(lang);
        const Lesson lesson = load(lang, number);
        Classroom room;
        QVERIFY(room.open());
        LessonsView view(QStringLiteral(MC_SOURCE_DIR "/lessons"), room.folder(), q(kUser),
            QStringLiteral(MC_BIN_DIR "/minicluster"), {QStringLiteral("--dir"), room.folder()});
        view.resize(1000, 700);
        view.show();

        // Opened in the dock: the lesson's text in the app's language, with bob in it.
        view.selectLesson(q(lesson.id));
        const QString text = view.lessonText();
        QVERIFY2(text.startsWith(q(lesson.title)), qPrintable(text.left(200)));
        for (const auto &step : lesson.steps) {
            QVERIFY2(text.contains(q(step.title)), step.title.c_str());
        }
        QVERIFY(!text.contains(QStringLiteral("alice")));

        const QString started = room.click(view, "lessonStart");
        QVERIFY2(started.contains(QStringLiteral("%1 %2 — %3")
                                      .arg(fr ? QStringLiteral("Leçon") : QStringLiteral("Lesson"),
                                          q(lesson.number), q(lesson.title))),
            qPrintable(started));
        mc::lessons::ProgressStore progress(room.layout(), kUser);
        QVERIFY(progress.load());
        QVERIFY(progress.lessons.count(lesson.id) == 1);
        const auto since = progress.lessons[lesson.id].started;
        const auto wallSince = progress.lessons[lesson.id].wallStarted;
        room.setNow(5000);

        Recorder work(room);
        mc::lessons::test::doRight(lesson.number, work);
        auto status = mc::lessons::evaluateLesson(lesson, room.facts(since, wallSince));
        for (std::size_t k = 0; k < lesson.steps.size(); ++k) {
            // The earlier steps done, this one not: it is the one Check stops at.
            QVERIFY2(status.currentStep == k,
                qPrintable(QStringLiteral("step %1 is done with the work of the steps before it")
                               .arg(k + 1)));
            const QString checked = room.click(view, "lessonCheck");
            for (std::size_t i = 0; i < k; ++i) {
                QVERIFY2(
                    checked.contains(
                        QStringLiteral("[x] %1. %2").arg(i + 1).arg(plain(lesson.steps[i].title))),
                    qPrintable(checked));
            }
            QVERIFY2(checked.contains(
                         QStringLiteral("[ ] %1. %2").arg(k + 1).arg(plain(lesson.steps[k].title))),
                qPrintable(checked));
            for (const auto &r : status.steps[k].results) {
                if (!r.passed) {
                    QVERIFY2(checked.contains(plain(r.explanation)),
                        qPrintable(plain(r.explanation) + QStringLiteral("\n---\n") + checked));
                    break;
                }
            }
            const QString hint = room.click(view, "lessonHint");
            if (lesson.steps[k].hints.empty()) {
                QVERIFY2(hint.contains(fr ? QStringLiteral("Cette étape n'a pas d'indice")
                                          : QStringLiteral("This step has no hint")),
                    qPrintable(hint));
            } else {
                QVERIFY2(hint.contains(plain(lesson.steps[k].hints.front())), qPrintable(hint));
            }
            // This step's work, action by action, until the engine says it is done.
            while (status.currentStep <= k && work.next()) {
                status = mc::lessons::evaluateLesson(lesson, room.facts(since, wallSince));
            }
        }
        QVERIFY(status.complete);
        const QString done = room.click(view, "lessonCheck");
        QVERIFY2(done.contains(fr ? QStringLiteral("Leçon terminée. Bravo !")
                                  : QStringLiteral("Lesson complete. Well done!")),
            qPrintable(done));
        const auto *list = view.findChild<QListWidget *>(QStringLiteral("lessonList"));
        QVERIFY(list && list->currentItem());
        QVERIFY2(list->currentItem()->text().startsWith(QStringLiteral("✓ ") + q(lesson.number)),
            qPrintable(list->currentItem()->text()));
    }

    void cleanupTestCase() { mc::gui::installLanguage(QStringLiteral("en")); }
};

QTEST_MAIN(DockWalkthroughTest)
#include "dock_walkthrough_test.moc"
