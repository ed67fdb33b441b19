// The new views offscreen: timeline, history and charts, submit form, instructor panel,
// filesystems; requests go to a fake controller on a real socket.

#include "fake_controller.h"
#include "mc/gui/accounting_model.h"
#include "mc/gui/app_options.h"
#include "mc/gui/filesystems_view.h"
#include "mc/gui/first_frame_probe.h"
#include "mc/gui/history_view.h"
#include "mc/gui/instructor_panel.h"
#include "mc/gui/job_details_view.h"
#include "mc/gui/language.h"
#include "mc/gui/lessons_view.h"
#include "mc/gui/main_window.h"
#include "mc/gui/node_table_model.h"
#include "mc/gui/request_client.h"
#include "mc/gui/submit_form.h"
#include "mc/gui/timeline_model.h"
#include "mc/gui/timeline_view.h"
#include "mc/lessons/progress.h"
#include "test_jobs.h"

#include <QAbstractScrollArea>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QMap>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeWidget>

#include <memory>

using namespace mc::gui;
using mc::gui::test::decoded;
using mc::gui::test::decodedAll;
using mc::gui::test::FakeController;
using mc::gui::test::kNow;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;

namespace {

Json acctJob(std::int64_t id, std::int64_t cpuMs)
{
    return runningJob(id, {"cn01"}, kNow - 100)
        .set("state", "COMPLETED")
        .set("submit_time", kNow - 130)
        .set("end_time", kNow)
        .set("num_cpus", 1)
        .set("min_memory", 1000)
        .set("steps",
            Json::array().push(Json::object()
                                   .set("step_id", "batch")
                                   .set("total_cpu_ms", cpuMs)
                                   .set("max_rss_kb", 256'000)));
}

void writeFile(const QString &path, const QByteArray &text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

} // namespace

class ViewsTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeController> m_controller;
    std::unique_ptr<RequestClient> m_requests;

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        const QString socket = m_dir->filePath(QStringLiteral("ctld.sock"));
        m_controller = std::make_unique<FakeController>(socket.toStdString());
        QVERIFY(m_controller->listen());
        m_requests = std::make_unique<RequestClient>(socket);
    }

    void cleanup()
    {
        m_requests.reset();
        m_controller.reset();
        m_dir.reset();
    }

    void jobDetailsSayHowAStartedJobStarted()
    {
        mc::gui::JobDetailsView details;
        Json why = Json::object();
        why.set(
            "en", "Job 3 started on cn02, in a gap left before a higher-priority job (backfill).");
        why.set("fr",
            "La tâche 3 a démarré sur cn02, dans un trou laissé avant une tâche plus "
            "prioritaire (backfill).");
        details.resetJobs(
            decodedAll({mc::gui::test::runningJob(3, {"cn02"}, mc::gui::test::kNow - 60)
                            .set("backfilled", true)
                            .set("explanation", why)}));
        details.showJob(3);
        // The state's meaning first, then the controller's word on the start.
        QVERIFY2(details.explanationText().contains(QStringLiteral("cn02")),
            qPrintable(details.explanationText()));
        QVERIFY2(details.explanationText().contains(QStringLiteral("(backfill)")),
            qPrintable(details.explanationText()));
    }

    void timelineDrawsBlocksZoomsAndSelectsJobs()
    {
        TimelineModel model;
        model.reset(decodedAll({runningJob(2, {"cn01"}, kNow - 600).set("time_limit", 3600),
                        runningJob(4, {"cn01"}, kNow - 300).set("time_limit", 3600),
                        pendingJob(3).set("planned_start", kNow + 600).set("time_limit", 600)}),
            {Json::object().set("name", "cn01"), Json::object().set("name", "cn02")});
        TimelineView view(&model, [] { return kNow; });
        view.resize(900, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.scrollToNow();
        const double spp = view.secondsPerPixel();
        const auto xOf = [&view, spp](qint64 t) {
            return 90 + static_cast<int>(static_cast<double>(t - view.leftTime()) / spp);
        };
        // Rows of 30 pixels under a 24-pixel axis; jobs 2 and 4 share cn01 at the same time,
        // each in its own half of the row.
        const QPoint onJob(xOf(kNow), 24 + 8);
        QCOMPARE(view.jobAt(onJob), 2);
        QCOMPARE(view.jobAt(QPoint(xOf(kNow), 24 + 22)), 4);
        QCOMPARE(view.jobAt(QPoint(xOf(kNow), 24 + 30 + 15)), 0); // cn02 is free
        // The planned job without nodes sits on the extra row below the nodes.
        QCOMPARE(view.jobAt(QPoint(xOf(kNow + 700), 24 + 2 * 30 + 15)), 3);
        QSignalSpy clicked(&view, &TimelineView::jobClicked);
        QTest::mouseClick(view.canvas()->viewport(), Qt::LeftButton, {}, onJob);
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.first().first().toLongLong(), 2);
        view.zoomIn();
        QVERIFY(view.secondsPerPixel() < spp);
        view.zoomOut();
        view.zoomOut();
        QVERIFY(view.secondsPerPixel() > spp);
        QVERIFY(!view.grab().isNull());
    }

    void historyShowsAcctJobsAndChartsTheirEfficiency()
    {
        HistoryView view(m_requests.get(), QStringLiteral("alice"));
        view.resize(900, 600);
        view.show();
        QSignalSpy refreshed(&view, &HistoryView::refreshed);
        view.refresh();
        const auto request = m_controller->answerRequest(
            Json::object()
                .set("ok", true)
                .set("jobs", Json::array().push(acctJob(1, 50'000)).push(acctJob(2, 95'000))));
        QVERIFY(request);
        QCOMPARE((*request)["op"].toString(), std::string("acct"));
        QTRY_COMPARE(refreshed.count(), 1);
        QCOMPARE(view.model()->rowCount(), 2);
        // Waits of 30 s; CPU efficiency 50 % and 95 %; memory 250 MiB of 1000 MiB.
        QCOMPARE(view.binCounts(0).value(0), 2);
        QCOMPARE(view.binCounts(1).value(5), 1);
        QCOMPARE(view.binCounts(1).value(9), 1);
        QCOMPARE(view.binCounts(2).value(2), 2);
        QVERIFY(!view.grab().isNull());
    }

    void historySaysPlainlyWhenTheControllerCannotAnswer()
    {
        HistoryView view(m_requests.get(), QStringLiteral("alice"));
        QSignalSpy refreshed(&view, &HistoryView::refreshed);
        view.refresh();
        QVERIFY(m_controller->answerRequest(
            Json::object().set("ok", false).set("error", "Unknown request: acct")));
        QTRY_COMPARE(refreshed.count(), 1);
        QCOMPARE(view.statusText(),
            QStringLiteral("The history is not available: The cluster controller does not "
                           "support “acct” yet."));
    }

    void submitFormShowsTheCommandAndRunsIt()
    {
        const QString samples = m_dir->filePath(QStringLiteral("samples"));
        writeFile(samples + QStringLiteral("/hello.sh"), "#!/bin/bash\necho hello\n");
        const QString home = m_dir->filePath(QStringLiteral("home/alice"));
        SubmitForm form({samples}, home);
        form.setPartitions({QStringLiteral("gpu"), QStringLiteral("cpu")}, QStringLiteral("cpu"));
        QCOMPARE(form.sampleJobs(), QStringList{QStringLiteral("hello.sh")});
        QSignalSpy run(&form, &SubmitForm::runRequested);
        auto *button = form.findChild<QPushButton *>(QStringLiteral("submitRun"));
        button->click();
        QCOMPARE(run.count(), 0); // no script yet: the form says so
        auto *sample = form.findChild<QComboBox *>(QStringLiteral("submitSample"));
        sample->setCurrentIndex(1);
        // slurm.conf's default partition is preselected, and sbatch needs no option for it.
        QCOMPARE(form.findChild<QComboBox *>(QStringLiteral("submitPartition"))->currentText(),
            QStringLiteral("cpu"));
        form.findChild<QSpinBox *>(QStringLiteral("submitGpus"))->setValue(1);
        form.findChild<QLineEdit *>(QStringLiteral("submitArray"))->setText(QStringLiteral("1-4"));
        const QString expected = QStringLiteral("sbatch --gpus-per-node=1 --array=1-4 ~/hello.sh");
        QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("submitCommand"))->text(), expected);
        form.findChild<QComboBox *>(QStringLiteral("submitPartition"))
            ->setCurrentText(QStringLiteral("gpu"));
        const QString onGpu
            = QStringLiteral("sbatch --partition=gpu --gpus-per-node=1 --array=1-4 ~/hello.sh");
        QCOMPARE(form.commandLine(), onGpu);
        button->click();
        QCOMPARE(run.count(), 1);
        QCOMPARE(run.first().first().toString(), onGpu);
        // The sample was copied into the home directory, where ~/hello.sh points.
        QVERIFY(QFile::exists(home + QStringLiteral("/hello.sh")));
    }

    void submitFormStartsFromEachSampleJobsOwnSbatchLines_data()
    {
        QTest::addColumn<QString>("name");
        const QDir samples(QStringLiteral(MC_SOURCE_DIR "/sample_jobs"));
        const QStringList names = samples.entryList({QStringLiteral("*.sh")}, QDir::Files);
        QVERIFY(names.size() >= 10);
        for (const QString &name : names) {
            QTest::newRow(qPrintable(name)) << name;
        }
    }

    void submitFormStartsFromEachSampleJobsOwnSbatchLines()
    {
        QFETCH(QString, name);
        const QString samples = QStringLiteral(MC_SOURCE_DIR "/sample_jobs");
        QFile script(samples + QLatin1Char('/') + name);
        QVERIFY(script.open(QIODevice::ReadOnly));
        // What the script's own #SBATCH lines say, read here with a plain pattern.
        QMap<QString, QString> own;
        static const QRegularExpression kLine(
            QStringLiteral("^#SBATCH\\s+(--[a-z-]+)=(\\S+)"), QRegularExpression::MultilineOption);
        for (auto it = kLine.globalMatch(QString::fromUtf8(script.readAll())); it.hasNext();) {
            const auto match = it.next();
            own.insert(match.captured(1), match.captured(2));
        }
        SubmitForm form({samples}, m_dir->filePath(QStringLiteral("home/alice")));
        form.setPartitions({QStringLiteral("gpu"), QStringLiteral("cpu")}, QStringLiteral("cpu"));
        auto *sample = form.findChild<QComboBox *>(QStringLiteral("submitSample"));
        sample->setCurrentIndex(sample->findData(name));
        QCOMPARE(sample->currentData().toString(), name);

        // Nothing changed: exactly the line a student types, the script keeps its options.
        const QString plain = QStringLiteral("sbatch ~/") + name;
        QCOMPARE(form.commandLine(), plain);
        QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("submitCommand"))->text(), plain);
        QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("submitTime"))->text(),
            own.value(QStringLiteral("--time")));
        QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("submitMemory"))->text(),
            own.value(QStringLiteral("--mem")));
        QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("submitArray"))->text(),
            own.value(QStringLiteral("--array")));
        QCOMPARE(form.findChild<QSpinBox *>(QStringLiteral("submitCpus"))->value(),
            own.value(QStringLiteral("--cpus-per-task"), QStringLiteral("0")).toInt());
        QCOMPARE(form.findChild<QComboBox *>(QStringLiteral("submitPartition"))->currentText(),
            own.value(QStringLiteral("--partition"), QStringLiteral("cpu")));

        // One change: only that option is added, before the script.
        form.findChild<QLineEdit *>(QStringLiteral("submitMemory"))->setText(QStringLiteral("3G"));
        QCOMPARE(form.commandLine(), QStringLiteral("sbatch --mem=3G ~/") + name);
        QSignalSpy run(&form, &SubmitForm::runRequested);
        form.findChild<QPushButton *>(QStringLiteral("submitRun"))->click();
        QCOMPARE(run.count(), 1);
        QCOMPARE(run.first().first().toString(), QStringLiteral("sbatch --mem=3G ~/") + name);
    }

    void submitFormReadsTheStudentsOwnCopyOfTheScript()
    {
        // The copy in the home directory is what sbatch reads: its lines are the baseline.
        const QString samples = m_dir->filePath(QStringLiteral("samples"));
        writeFile(samples + QStringLiteral("/too_big.sh"),
            "#!/bin/bash\n#SBATCH --mem=100M\n#SBATCH --time=00:05:00\npython3 -c pass\n");
        const QString home = m_dir->filePath(QStringLiteral("home/alice"));
        writeFile(home + QStringLiteral("/too_big.sh"),
            "#!/bin/bash\n#SBATCH --mem=400M\n#SBATCH -t 10\n#SBATCH -p gpu\npython3 -c pass\n");
        SubmitForm form({samples}, home);
        form.setPartitions({QStringLiteral("gpu"), QStringLiteral("cpu")}, QStringLiteral("cpu"));
        auto *sample = form.findChild<QComboBox *>(QStringLiteral("submitSample"));
        sample->setCurrentIndex(1);
        QCOMPARE(form.commandLine(), QStringLiteral("sbatch ~/too_big.sh"));
        QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("submitMemory"))->text(),
            QStringLiteral("400M"));
        QCOMPARE(form.findChild<QLineEdit *>(QStringLiteral("submitTime"))->text(),
            QStringLiteral("10"));
        QCOMPARE(form.findChild<QComboBox *>(QStringLiteral("submitPartition"))->currentText(),
            QStringLiteral("gpu"));
        // Back to the default partition is a change against the script's -p gpu.
        form.findChild<QComboBox *>(QStringLiteral("submitPartition"))
            ->setCurrentText(QStringLiteral("cpu"));
        QCOMPARE(form.commandLine(), QStringLiteral("sbatch --partition=cpu ~/too_big.sh"));
    }

    void instructorPanelSendsClockAndNodeRequests()
    {
        NodeTableModel nodes;
        nodes.reset({Json::object().set("name", "cn01").set("cpus", 4)}, {});
        InstructorPanel panel(
            m_requests.get(), &nodes, m_dir->path(), QString(), {}, {QStringLiteral("bob")});
        panel.setClock(60, 0);
        auto request = m_controller->answerRequest(
            Json::object().set("ok", false).set("error", "Unknown request: clock"));
        QVERIFY(request);
        QCOMPARE((*request)["speed"].toDouble(), 60.0);
        QTRY_COMPARE(panel.clockText(),
            QStringLiteral("The cluster controller does not support “clock” yet."));
        panel.setClock(0, 86400);
        request = m_controller->answerRequest(
            Json::object().set("ok", true).set("now", kNow).set("speed", 60.0));
        QVERIFY(request);
        QCOMPARE((*request)["advance"].toInt(), 86400);
        QTRY_VERIFY(panel.clockText().contains(QStringLiteral("60× real time")));

        panel.updateNode(QStringLiteral("cn01"), QStringLiteral("drain"), QString());
        QVERIFY(panel.nodeResultText().startsWith(QStringLiteral("Give a reason")));
        panel.updateNode(QStringLiteral("cn01"), QStringLiteral("drain"), QStringLiteral("disk"));
        request = m_controller->answerRequest(Json::object().set("ok", true));
        QVERIFY(request);
        QCOMPARE((*request)["op"].toString(), std::string("node_update"));
        QCOMPARE((*request)["node"].toString(), std::string("cn01"));
        QCOMPARE((*request)["state"].toString(), std::string("drain"));
        QCOMPARE((*request)["reason"].toString(), std::string("disk"));
        QCOMPARE((*request)["user"].toString(), std::string("prof"));
        QTRY_COMPARE(panel.nodeResultText(), QStringLiteral("cn01: drain done."));
    }

    void clusterUsersComeFromMiniclusterConf()
    {
        writeFile(m_dir->filePath(QStringLiteral("etc/minicluster.conf")),
            "# users\nUser=alice UID=1001 DefaultAccount=def-prof\n"
            "User=bob UID=1002 DefaultAccount=def-prof\nAccount=def-prof\n");
        QCOMPARE(InstructorPanel::usersOfCluster(m_dir->path()),
            QStringList({QStringLiteral("alice"), QStringLiteral("bob")}));
    }

    void filesystemsShowQuotasFilesAndTmpdirs()
    {
        const QString cluster = m_dir->path();
        FilesystemsView view(cluster, QStringLiteral("alice"), [] { return kNow; });
        view.show();
        QVERIFY(view.quotaStatus().startsWith(QStringLiteral("Quotas are not available yet")));
        writeFile(cluster + QStringLiteral("/run/storage/usage.tsv"),
            "measured_at 1800000000\nhome alice 1024 2 4096 10\nscratch alice 0 0 0 0\n");
        writeFile(cluster + QStringLiteral("/scratch/alice/old.dat"), "x");
        writeFile(cluster + QStringLiteral("/nodes/cn01/localscratch/alice.5.0/part"), "12345");
        view.resetJobs(decodedAll({runningJob(5, {"cn01"})}));
        view.refresh();
        QVERIFY(view.quotaStatus().startsWith(QStringLiteral("Measured by the storage node")));
        QCOMPARE(view.quotaTable()->rowCount(), 2);
        QTreeWidgetItem *scratch = view.filesTree()->topLevelItem(1);
        QCOMPARE(scratch->text(0), QStringLiteral("/scratch/alice"));
        QCOMPARE(scratch->childCount(), 1);
        QCOMPARE(scratch->child(0)->text(0), QStringLiteral("/scratch/alice/old.dat"));
        QVERIFY(scratch->child(0)->text(2).startsWith(QStringLiteral("unused for")));
        QCOMPARE(scratch->child(0)->text(3), QString()); // no purge policy in this cluster
        QCOMPARE(view.tmpdirTree()->topLevelItemCount(), 1);
        QCOMPARE(view.tmpdirTree()->topLevelItem(0)->text(1),
            QStringLiteral("cn01:/localscratch/alice.5.0"));
        QCOMPARE(view.tmpdirTree()->topLevelItem(0)->text(2), QStringLiteral("5 B"));
    }

    void filesystemsJudgeAgesAndThePurgeOnTheFastForwardedClusterClock()
    {
        const QString cluster = m_dir->path();
        constexpr qint64 kDay = 86400;
        writeFile(cluster + QStringLiteral("/etc/minicluster.conf"),
            "Filesystem=scratch Quota=20T Files=1000k PurgeAfterDays=60 PurgeNoticeDays=14\n");
        writeFile(cluster + QStringLiteral("/scratch/alice/results.csv"), "1,2\n");
        writeFile(cluster + QStringLiteral("/home/alice/notes.txt"), "todo\n");
        // The instructor fast-forwarded the cluster clock by 61 days. The storage node's journal
        // dates the jump 10 s from now, so the files just written count as used before it.
        const qint64 wall = QDateTime::currentSecsSinceEpoch();
        writeFile(cluster + QStringLiteral("/state/storage-clock"),
            QStringLiteral("%1 %1 1.000000\n%2 %3 1.000000\n")
                .arg(wall - 3600)
                .arg(wall + 10)
                .arg(wall + 10 + 61 * kDay)
                .toUtf8());
        FilesystemsView view(cluster, QStringLiteral("alice"),
            [] { return QDateTime::currentSecsSinceEpoch() + 61 * kDay; });
        view.resize(1000, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.noteClock(wall + 61 * kDay, 1.0);
        QVERIFY(view.clockNote().startsWith(QStringLiteral("The cluster clock is 61 d ahead")));
        QTreeWidgetItem *home = view.filesTree()->topLevelItem(0);
        QTreeWidgetItem *scratch = view.filesTree()->topLevelItem(1);
        QCOMPARE(home->child(0)->text(2), QStringLiteral("unused for 61 d"));
        QCOMPARE(home->child(0)->text(3), QString()); // home is never purged
        QTreeWidgetItem *results = scratch->child(0);
        QCOMPARE(results->text(2), QStringLiteral("unused for 61 d"));
        const QString purgeDay = QDateTime::fromSecsSinceEpoch(wall + (61 + 14) * kDay)
                                     .toString(QStringLiteral("yyyy-MM-dd"));
        QVERIFY2(results->text(3).startsWith(
                     QStringLiteral("purge candidate (goes on the notice at the next check)")),
            qPrintable(results->text(3)));
        QVERIFY(results->text(3).contains(purgeDay));
        QCOMPARE(scratch->text(3), QStringLiteral("1 file on the purge notice"));

        // The storage node listed it 15 days ago (cluster clock): it goes at its next check.
        writeFile(cluster + QStringLiteral("/run/storage/purge-alice.tsv"),
            QString::number(wall + 46 * kDay).toUtf8() + '\t'
                + QFile::encodeName(cluster + QStringLiteral("/scratch/alice/results.csv")) + '\n');
        view.refresh();
        scratch = view.filesTree()->topLevelItem(1);
        QCOMPARE(scratch->child(0)->text(3),
            QStringLiteral("purge due: deleted at the storage node's next check"));
        QVERIFY(!view.grab().isNull());
    }

    void lessonsDockListsTheLessonsShowsTheirTextAndRunsTheEngine()
    {
        // The real lessons and the real `minicluster lesson` on a cluster directory that has
        // not started any lesson: the engine's own answer is shown.
        LessonsView view(QStringLiteral(MC_SOURCE_DIR "/lessons"), m_dir->path(),
            QStringLiteral("alice"), QStringLiteral(MC_BIN_DIR "/minicluster"),
            {QStringLiteral("--dir"), m_dir->path()});
        view.resize(900, 500);
        view.show();
        const QStringList ids = view.lessonIds();
        QVERIFY2(ids.size() >= 10, qPrintable(ids.join(QLatin1Char(' '))));
        QVERIFY(ids.contains(QStringLiteral("02-first-job")));
        view.selectLesson(QStringLiteral("02-first-job"));
        QVERIFY(view.lessonText().startsWith(QStringLiteral("Your first batch job")));
        QVERIFY(!view.lessonText().contains(QStringLiteral("```check"))); // checks stay hidden
        QSignalSpy finished(&view, &LessonsView::commandFinished);
        view.findChild<QPushButton *>(QStringLiteral("lessonCheck"))->click();
        QVERIFY(finished.wait(60000));
        QVERIFY2(view.outputText().startsWith(
                     QStringLiteral("$ minicluster lesson check 02-first-job\n")),
            qPrintable(view.outputText()));
        QVERIFY2(view.outputText().contains(QStringLiteral("is not started")),
            qPrintable(view.outputText()));
        // In French, the French lessons.
        installLanguage(QStringLiteral("fr"));
        QTRY_VERIFY(view.lessonText().startsWith(QStringLiteral("Votre première tâche")));
        installLanguage(QStringLiteral("en"));
    }

    void lessonsDockFollowsALessonStartedInATerminal()
    {
        LessonsView view(QStringLiteral(MC_SOURCE_DIR "/lessons"), m_dir->path(),
            QStringLiteral("alice"), QString(), {});
        view.selectLesson(QStringLiteral("05-files"));
        QVERIFY(!view.lessonText().startsWith(QStringLiteral("Interactive work")));
        // `minicluster lesson start 3` in the app's terminal: the engine's progress file.
        mc::lessons::ProgressStore progress(
            mc::emu::ClusterLayout{m_dir->path().toStdString()}, "alice");
        progress.current = "03-interactive";
        progress.lessons["03-interactive"] = {};
        QVERIFY(progress.save());
        QTRY_VERIFY(view.lessonText().startsWith(QStringLiteral("Interactive work")));
        const auto *list = view.findChild<QListWidget *>(QStringLiteral("lessonList"));
        QVERIFY(list->currentItem()->text().startsWith(QStringLiteral("▶ 03")));
        // Looking at another lesson stays possible: only a change of the current one moves.
        view.selectLesson(QStringLiteral("05-files"));
        progress.lessons["03-interactive"].hintsShown = 1;
        QVERIFY(progress.save());
        view.reload(); // as the watcher does
        QCOMPARE(list->currentItem()->text().left(4), QStringLiteral("○ 05"));
    }

    void mainWindowHasEveryViewAndTheExternalTerminalButton()
    {
        AppOptions options;
        options.socketPath = m_dir->filePath(QStringLiteral("none.sock"));
        options.clusterDir = m_dir->path();
        MainWindow window(options);
        for (const char *name : {"timelineDock", "historyDock", "filesystemsDock", "submitDock",
                 "instructorDock", "lessonsDock"}) {
            QVERIFY2(window.findChild<QDockWidget *>(QLatin1String(name)), name);
        }
        auto *button = window.findChild<QToolButton *>(QStringLiteral("externalTerminalButton"));
        QVERIFY(button);
        QCOMPARE(button->text(), QStringLiteral("Open in my terminal"));
        QVERIFY(!button->isEnabled()); // no shell to open
    }

    void firstFrameProbeReportsTheFirstPaintPassOnce()
    {
        QWidget widget;
        widget.resize(200, 100);
        mc::gui::FirstFrameProbe probe;
        QSignalSpy frames(&probe, &mc::gui::FirstFrameProbe::firstFrame);
        const qint64 before = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(frames.isEmpty()); // nothing painted yet
        widget.show();
        QVERIFY(frames.wait(10000));
        const qint64 at = frames.first().first().toLongLong() / 1000000; // ns -> ms
        QVERIFY(at >= before && at <= QDateTime::currentMSecsSinceEpoch());
        widget.repaint(); // later frames are not reported
        QTest::qWait(50);
        QCOMPARE(frames.size(), 1);
        // The process started before this test ran: its age is known and positive.
        QVERIFY(mc::gui::FirstFrameProbe::processAgeMs() > 0);
    }
};

QTEST_MAIN(ViewsTest)
#include "views_test.moc"
