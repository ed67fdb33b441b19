#include "fake_controller.h"
#include "mc/gui/job_details_view.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/language.h"
#include "mc/gui/main_window.h"
#include "mc/gui/node_table_model.h"
#include "mc/gui/submit_form.h"
#include "mc/gui/terminal_tabs.h"
#include "mc/term/terminal_screen.h"
#include "mc/term/terminal_view.h"
#include "test_jobs.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSet>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QXmlStreamReader>

#include <memory>
#include <unistd.h>

using mc::gui::JobTableModel;
using mc::gui::MainWindow;
using mc::gui::test::FakeController;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;

namespace {

constexpr int kTimeoutMs = 5000;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;

#define VERIFY_FITS(window, what)                                                                  \
    do {                                                                                           \
        QCoreApplication::processEvents();                                                         \
        const QSize size = (window).frameGeometry().size();                                        \
        const QSize minimum = (window).minimumSizeHint().expandedTo((window).minimumSize());       \
        QVERIFY2(size.width() <= kWidth && size.height() <= kHeight,                               \
            qPrintable(QStringLiteral("%1: the window is %2×%3")                                   \
                           .arg(what)                                                              \
                           .arg(size.width())                                                      \
                           .arg(size.height())));                                                  \
        QVERIFY2(minimum.width() <= kWidth && minimum.height() <= kHeight,                         \
            qPrintable(QStringLiteral("%1: the window needs at least %2×%3")                       \
                           .arg(what)                                                              \
                           .arg(minimum.width())                                                   \
                           .arg(minimum.height())));                                               \
    } while (false)

// Accepts the window's connection and answers its subscription with this snapshot.
bool sendSnapshot(FakeController &controller, Json jobs, Json nodes)
{
    return controller.accept() && controller.readLine()
        && controller.send(Json::object()
                               .set("ok", true)
                               .set("jobs", std::move(jobs))
                               .set("nodes", std::move(nodes)));
}

Json node(const char *name, const char *partition, int gpus)
{
    return Json::object()
        .set("name", name)
        .set("state", "mixed")
        .set("cpus", 32)
        .set("alloc_cpus", 4)
        .set("memory", 128000)
        .set("alloc_memory", 4000)
        .set("gpus", gpus)
        .set("alloc_gpus", 0)
        .set("partitions", Json::array().push(partition));
}

QString labelText(const QWidget &window, const char *name)
{
    const auto *label = window.findChild<QLabel *>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<no label %1>").arg(QLatin1String(name));
}

bool isShown(const QWidget &window, const char *name)
{
    const auto *widget = window.findChild<QWidget *>(QLatin1String(name));
    return widget && widget->isVisible();
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    QString socketPath() const { return m_dir->filePath(QStringLiteral("run/ctld.sock")); }
    // No terminal tab unless a test asks for one.
    mc::gui::AppOptions options(const QString &shell = {}) const
    {
        mc::gui::AppOptions result;
        result.socketPath = socketPath();
        result.shellProgram = shell;
        return result;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // The language choice is saved in QSettings: keep the tests' apart from the user's.
        QCoreApplication::setOrganizationName(QStringLiteral("minicluster-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("main_window_test"));
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        QVERIFY(QDir(m_dir->path()).mkpath(QStringLiteral("run")));
    }

    void cleanup()
    {
        m_dir.reset();
        mc::gui::installLanguage(QStringLiteral("en"));
    }

    void windowIsTitledMiniclusterAndShowsTheQueueColumns()
    {
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QCOMPARE(window.windowTitle(), QStringLiteral("minicluster"));
        const auto *table = window.findChild<QTreeView *>(QStringLiteral("queueTable"));
        QVERIFY(table);
        QCOMPARE(table->model()->columnCount(), JobTableModel::kColumnCount);
        QCOMPARE(table->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("JOBID"));
        const auto *quit = window.findChild<QAction *>(QStringLiteral("quitAction"));
        QVERIFY(quit);
        QCOMPARE(quit->shortcut(), QKeySequence(QKeySequence::Quit));
    }

    void statusBarSaysNotConnectedWhileThereIsNoController()
    {
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QVERIFY(labelText(window, "connectionStatus").startsWith(QStringLiteral("Not connected")));
        QVERIFY(isShown(window, "notConnectedMessage"));
        QVERIFY(labelText(window, "notConnectedMessage").contains(socketPath()));
        QVERIFY(!isShown(window, "queueTable"));
        QVERIFY(!isShown(window, "jobCounts"));
    }

    void statusBarSaysWhenUsersAreNotIsolatedFromEachOther()
    {
        QTemporaryDir cluster;
        QVERIFY(QDir(cluster.path()).mkpath(QStringLiteral("run")));
        mc::gui::AppOptions withCluster = options();
        withCluster.clusterDir = cluster.path();
        auto startedWith = [&](const QByteArray &sandbox) {
            QFile mode(cluster.filePath(QStringLiteral("run/sandbox")));
            return mode.open(QIODevice::WriteOnly) && mode.write(sandbox) == sandbox.size();
        };
        {
            // The plain fallback: every user's jobs are the laptop user's, as root or not.
            QVERIFY(startedWith("plain\nno bubblewrap\n"));
            MainWindow window(withCluster);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(isShown(window, "usersNotIsolated"));
            QCOMPARE(labelText(window, "usersNotIsolated"),
                QStringLiteral("Users are not isolated from each other"));
        }
        {
            // Bubblewrap: users have ids of their own only when the daemons run as root.
            QVERIFY(startedWith("bubblewrap\nuser namespaces work\n"));
            MainWindow window(withCluster);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QCOMPARE(isShown(window, "usersNotIsolated"), ::geteuid() != 0);
        }
    }

    void connectedWindowListsTheJobsAndCountsThem()
    {
        FakeController controller(socketPath().toStdString());
        QVERIFY(controller.listen());
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QVERIFY(controller.accept());
        QVERIFY(controller.readLine());
        QVERIFY(controller.send(Json::object()
                                    .set("ok", true)
                                    .set("jobs",
                                        Json::array()
                                            .push(pendingJob(100))
                                            .push(pendingJob(9, "Priority"))
                                            .push(runningJob(10, {"cn01", "cn02"})))
                                    .set("nodes", Json::array())));

        QTRY_COMPARE_WITH_TIMEOUT(
            labelText(window, "jobCounts"), QStringLiteral("2 pending, 1 running"), kTimeoutMs);
        QCOMPARE(labelText(window, "connectionStatus"), QStringLiteral("Connected to the cluster"));
        QVERIFY(isShown(window, "queueTable"));
        QVERIFY(!isShown(window, "notConnectedMessage"));

        // Sorted by JOBID as numbers, as squeue users read them.
        const auto *table = window.findChild<QTreeView *>(QStringLiteral("queueTable"));
        QVERIFY(table);
        const QAbstractItemModel *view = table->model();
        QCOMPARE(view->rowCount(), 3);
        QCOMPARE(view->index(0, 0).data().toString(), QStringLiteral("9"));
        QCOMPARE(view->index(1, 0).data().toString(), QStringLiteral("10"));
        QCOMPARE(view->index(2, 0).data().toString(), QStringLiteral("100"));
        QCOMPARE(view->index(1, 7).data().toString(), QStringLiteral("cn[01-02]"));

        QVERIFY(controller.send(
            Json::object().set("event", "job").set("job", runningJob(100, {"cn03"}))));
        QTRY_COMPARE_WITH_TIMEOUT(
            labelText(window, "jobCounts"), QStringLiteral("1 pending, 2 running"), kTimeoutMs);

        controller.dropClient();
        QTRY_VERIFY_WITH_TIMEOUT(isShown(window, "notConnectedMessage"), kTimeoutMs);
        QVERIFY(labelText(window, "connectionStatus").startsWith(QStringLiteral("Lost")));
        QCOMPARE(window.jobModel()->rowCount(), 0);
    }

    void queueShowsEachArrayAsOneRowThatOpensOnItsTasks()
    {
        FakeController controller(socketPath().toStdString());
        QVERIFY(controller.listen());
        mc::gui::AppOptions withUser = options();
        withUser.user = QStringLiteral("alice");
        MainWindow window(withUser);
        window.resize(1400, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(controller.accept());
        QVERIFY(controller.readLine());
        const auto task = [](std::int64_t id, std::int64_t index, const char *node) {
            return runningJob(id, {node}).set("array_job_id", 16).set("array_task_id", index);
        };
        QVERIFY(controller.send(Json::object()
                                    .set("ok", true)
                                    .set("jobs",
                                        Json::array()
                                            .push(pendingJob(9, "Priority"))
                                            .push(pendingJob(16, "JobArrayTaskLimit")
                                                      .set("array_job_id", 16)
                                                      .set("array_task_str", "3-8%2"))
                                            .push(task(17, 1, "cn01"))
                                            .push(task(18, 2, "cn02"))
                                            .push(pendingJob(20).set("user", "bob")))
                                    .set("nodes", Json::array())));
        auto *tree = window.findChild<QTreeView *>(QStringLiteral("queueTable"));
        QVERIFY(tree);
        const QAbstractItemModel *shown = tree->model();
        QTRY_COMPARE_WITH_TIMEOUT(shown->rowCount(), 3, kTimeoutMs);
        const auto jobIdAt = [shown](int row, const QModelIndex &parent = {}) {
            return shown->index(row, 0, parent).data().toString();
        };
        QCOMPARE(jobIdAt(0), QStringLiteral("9"));
        QCOMPARE(jobIdAt(1), QStringLiteral("16_[3-8%2]"));
        QCOMPARE(jobIdAt(2), QStringLiteral("20"));

        // The array's row is closed; the keyboard opens it and walks into its tasks.
        const QModelIndex array = shown->index(1, 0);
        QCOMPARE(shown->rowCount(array), 2);
        QVERIFY(!tree->isExpanded(array));
        tree->setFocus();
        tree->setCurrentIndex(array);
        QTest::keyClick(tree, Qt::Key_Right);
        QVERIFY(tree->isExpanded(array));
        QVERIFY(tree->visualRect(shown->index(0, 0, array)).isValid());
        QTest::keyClick(tree, Qt::Key_Down);
        QCOMPARE(jobIdAt(tree->currentIndex().row(), array), QStringLiteral("16_1"));
        QCOMPARE(window.findChild<mc::gui::JobDetailsView *>()->shownJob(), 17);

        // The last task starts (it takes the array's id): the row now sums the tasks up.
        QVERIFY(
            controller.send(Json::object().set("event", "job").set("job", task(16, 3, "cn03"))));
        QTRY_COMPARE_WITH_TIMEOUT(jobIdAt(1), QStringLiteral("16"), kTimeoutMs);
        QCOMPARE(shown->rowCount(shown->index(1, 0)), 3);
        QCOMPARE(shown->index(1, JobTableModel::columnIndex(JobTableModel::Column::NodeList))
                     .data()
                     .toString(),
            QStringLiteral("3 tasks: 3 R"));

        // The filters above the tree: running jobs, then mine, then sorted the other way.
        auto *states = window.findChild<QComboBox *>(QStringLiteral("stateFilter"));
        states->setCurrentIndex(states->findData(QStringLiteral("RUNNING")));
        QCOMPARE(shown->rowCount(), 1);
        QCOMPARE(jobIdAt(0), QStringLiteral("16"));
        states->setCurrentIndex(0);
        auto *users = window.findChild<QComboBox *>(QStringLiteral("userFilter"));
        users->setCurrentIndex(1);
        QCOMPARE(users->currentText(), QStringLiteral("My jobs (alice)"));
        QCOMPARE(shown->rowCount(), 2);
        tree->sortByColumn(0, Qt::DescendingOrder);
        QCOMPARE(jobIdAt(0), QStringLiteral("16"));
        QCOMPARE(jobIdAt(2, shown->index(0, 0)), QStringLiteral("16_1"));
        QVERIFY(!tree->grab().isNull());
    }

    void terminalTabRunsTheShellAndMoreTabsOpenOnRequest()
    {
        MainWindow window(options(QStringLiteral("/bin/sh")));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.terminals()->count(), 1);
        auto *view = window.terminals()->currentView();
        QVERIFY(view);
        QTest::keyClicks(view, QStringLiteral("echo tab-$((20+22))"));
        QTest::keyClick(view, Qt::Key_Return);
        const auto screenShows = [view](const QString &text) {
            for (int row = 0; row < view->screen()->rows(); ++row) {
                if (view->screen()->lineText(row).contains(text)) {
                    return true;
                }
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(screenShows(QStringLiteral("tab-42")), kTimeoutMs);

        auto *newTab = window.findChild<QAction *>(QStringLiteral("newTerminalAction"));
        QVERIFY(newTab && newTab->isEnabled());
        newTab->trigger();
        QCOMPARE(window.terminals()->count(), 2);
        QVERIFY(window.terminals()->currentView() != view);
    }

    void nodesDockShowsEachNodeWithTheJobsHoldingIt()
    {
        FakeController controller(socketPath().toStdString());
        QVERIFY(controller.listen());
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(controller.accept());
        QVERIFY(controller.readLine());
        const auto node = [](const char *name, int allocCpus) {
            return Json::object()
                .set("name", name)
                .set("state", allocCpus == 0 ? "idle" : "mixed")
                .set("cpus", 8)
                .set("alloc_cpus", allocCpus)
                .set("memory", 16000)
                .set("alloc_memory", 0)
                .set("gpus", 0)
                .set("partitions", Json::array().push("cpu"));
        };
        QVERIFY(controller.send(
            Json::object()
                .set("ok", true)
                .set("jobs", Json::array().push(runningJob(10, {"cn01"}).set("num_cpus", 2)))
                .set("nodes", Json::array().push(node("cn01", 2)).push(node("cn02", 0)))));
        const auto *table = window.findChild<QTableView *>(QStringLiteral("nodesTable"));
        QVERIFY(table);
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, kTimeoutMs);
        const int jobs
            = mc::gui::NodeTableModel::columnIndex(mc::gui::NodeTableModel::Column::Jobs);
        const int state
            = mc::gui::NodeTableModel::columnIndex(mc::gui::NodeTableModel::Column::State);
        QCOMPARE(table->model()->index(0, jobs).data().toString(), QStringLiteral("10"));
        QCOMPARE(table->model()->index(0, state).data().toString(), QStringLiteral("mix"));

        // The job moves to cn02 (an event for each): the table follows.
        QVERIFY(controller.send(Json::object()
                                    .set("event", "job")
                                    .set("job", runningJob(10, {"cn02"}).set("num_cpus", 2))));
        QVERIFY(controller.send(Json::object().set("event", "node").set("node", node("cn02", 2))));
        QTRY_COMPARE_WITH_TIMEOUT(
            table->model()->index(1, jobs).data().toString(), QStringLiteral("10"), kTimeoutMs);
        QCOMPARE(table->model()->index(0, jobs).data().toString(), QString());
        QCOMPARE(table->model()->index(1, state).data().toString(), QStringLiteral("mix"));
    }

    void languageMenuSwitchesTheWindowToFrenchAndBack()
    {
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *french = window.findChild<QAction *>(QStringLiteral("languageAction_fr"));
        auto *english = window.findChild<QAction *>(QStringLiteral("languageAction_en"));
        QVERIFY(french && english);
        const auto *users = window.findChild<QComboBox *>(QStringLiteral("userFilter"));
        QVERIFY(users);
        QCOMPARE(users->itemText(0), QStringLiteral("All users"));

        french->trigger();
        QTRY_COMPARE(users->itemText(0), QStringLiteral("Tous les utilisateurs"));
        QCOMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("&Fichier"));
        QCOMPARE(QSettings().value(QStringLiteral("language")).toString(), QStringLiteral("fr"));
        // Slurm's words stay Slurm's.
        const auto *table = window.findChild<QTreeView *>(QStringLiteral("queueTable"));
        QCOMPARE(table->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("JOBID"));

        english->trigger();
        QTRY_COMPARE(users->itemText(0), QStringLiteral("All users"));
        QSettings().remove(QStringLiteral("language"));
    }

    void switchingToFrenchLiveLeavesNoEnglishOnScreen()
    {
        // Every message the French file translates differently, by its English source.
        QFile ts(QStringLiteral(MC_SOURCE_DIR "/gui/translations/minicluster_fr.ts"));
        QVERIFY(ts.open(QIODevice::ReadOnly));
        QSet<QString> english;
        QXmlStreamReader xml(&ts);
        QString source;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement() && xml.name() == QLatin1String("source")) {
                source = xml.readElementText();
            } else if (xml.isStartElement() && xml.name() == QLatin1String("translation")) {
                if (xml.readElementText() != source) {
                    english.insert(QString(source).remove(QLatin1Char('&')));
                }
            }
        }
        QVERIFY(english.size() > 100);

        FakeController controller(socketPath().toStdString());
        QVERIFY(controller.listen());
        MainWindow window(options());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(sendSnapshot(controller, Json::array().push(pendingJob(7)),
            Json::array().push(node("cn01", "cpu", 0))));
        QTRY_COMPARE(window.jobModel()->rowCount(), 1);
        window.findChild<QAction *>(QStringLiteral("languageAction_fr"))->trigger();
        QCoreApplication::processEvents();

        // What the window shows: labels, buttons, titles, menus, column titles, tooltips.
        QStringList shown;
        for (const QWidget *widget : window.findChildren<QWidget *>()) {
            shown << widget->toolTip() << widget->windowTitle();
            if (const auto *label = qobject_cast<const QLabel *>(widget)) {
                shown << label->text();
            } else if (const auto *button = qobject_cast<const QAbstractButton *>(widget)) {
                shown << button->text();
            } else if (const auto *header = qobject_cast<const QHeaderView *>(widget)) {
                for (int i = 0; header->model() && i < header->count(); ++i) {
                    shown << header->model()->headerData(i, header->orientation()).toString();
                }
            }
        }
        for (const QAction *action : window.findChildren<QAction *>()) {
            shown << action->text();
        }
        QStringList left;
        for (QString text : shown) {
            text.remove(QLatin1Char('&'));
            if (english.contains(text)) {
                left << text;
            }
        }
        left.removeDuplicates();
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QStringLiteral(" | "))));
        window.findChild<QAction *>(QStringLiteral("languageAction_en"))->trigger();
        QSettings().remove(QStringLiteral("language"));
    }

    // The window fits a laptop: 1280×800 at first start and after every action (each dock
    // shown, each sample job chosen in the Submit form, the queue full of jobs, the language
    // switched live, the layout reset, zoomed in and back), in English and in French, on a
    // 1280×800 offscreen screen (laptop_screen.json); it may never ask for more nor grow.
    void windowFitsALaptopAfterEveryAction_data()
    {
        QTest::addColumn<QString>("language");
        QTest::newRow("English") << QStringLiteral("en");
        QTest::newRow("French") << QStringLiteral("fr");
    }

    void windowFitsALaptopAfterEveryAction()
    {
        QFETCH(QString, language);
        QCOMPARE(mc::gui::installLanguage(language), language);
        FakeController controller(socketPath().toStdString());
        QVERIFY(controller.listen());
        mc::gui::AppOptions laptop = options();
        laptop.clusterDir = m_dir->path();
        laptop.user = QStringLiteral("alice");
        MainWindow window(laptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The offscreen screen is the laptop's (laptop_screen.json), not the plugin's 800×600.
        QCOMPARE(window.screen()->availableSize(), QSize(kWidth, kHeight));
        VERIFY_FITS(window, QStringLiteral("first start"));

        // A busy cluster: long node lists, reasons, names.
        Json jobs = Json::array();
        for (int id = 100; id < 160; ++id) {
            jobs.push(id % 2 ? pendingJob(id, "ReqNodeNotAvail, UnavailableNodes:cn[01-04]")
                                   .set("name", "a-rather-long-job-name-for-a-student")
                             : runningJob(id, {"cn01", "cn02", "cn03"}));
        }
        Json nodes = Json::array();
        for (const char *name : {"cn01", "cn02", "cn03", "cn04"}) {
            nodes.push(node(name, "cpu", 0));
        }
        nodes.push(node("gpu01", "gpu", 4));
        QVERIFY(sendSnapshot(controller, std::move(jobs), std::move(nodes)));
        auto *queue = window.findChild<QTreeView *>(QStringLiteral("queueTable"));
        QVERIFY(queue);
        QTRY_VERIFY(queue->model()->rowCount() >= 60);
        VERIFY_FITS(window, QStringLiteral("a busy queue"));

        for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
            dock->show();
            dock->raise();
            VERIFY_FITS(window, dock->objectName());
        }

        // Every sample job in the Submit form: the script's preview scrolls, the window stays.
        auto *samples = window.submitForm()->findChild<QComboBox *>(QStringLiteral("submitSample"));
        QVERIFY(samples);
        QVERIFY(samples->count() > 5);
        for (int i = 1; i < samples->count(); ++i) {
            samples->setCurrentIndex(i);
            VERIFY_FITS(window, samples->currentText());
        }
        const auto *preview
            = window.submitForm()->findChild<QPlainTextEdit *>(QStringLiteral("submitPreview"));
        QVERIFY(preview && preview->isVisible());

        // The language switched live, then back; the layout reset; the projector zoom.
        const QString other
            = language == QLatin1String("fr") ? QStringLiteral("en") : QStringLiteral("fr");
        mc::gui::installLanguage(other);
        VERIFY_FITS(window, QStringLiteral("switched to ") + other);
        mc::gui::installLanguage(language);
        VERIFY_FITS(window, QStringLiteral("switched back"));
        window.findChild<QAction *>(QStringLiteral("resetLayoutAction"))->trigger();
        VERIFY_FITS(window, QStringLiteral("reset layout"));
        for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
            QVERIFY2(dock->isVisible() && !dock->isFloating(), qPrintable(dock->objectName()));
        }
        window.zoomBy(2);
        window.zoomBy(-2);
        VERIFY_FITS(window, QStringLiteral("zoomed in and back"));

        // The queue's state, time and reason columns stay in view in the queue dock.
        const QHeaderView *header = queue->header();
        for (int column = 0; column < header->count(); ++column) {
            const QString title = queue->model()->headerData(column, Qt::Horizontal).toString();
            if (title == QLatin1String("ST") || title == QLatin1String("TIME")) {
                QVERIFY2(header->sectionViewportPosition(column) + header->sectionSize(column)
                        <= queue->viewport()->width() + 1,
                    qPrintable(title));
            }
        }
    }

    void projectorZoomReachesEveryViewAndTheTerminal()
    {
        MainWindow window(options(QStringLiteral("/bin/sh")));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QWidget *terminal = window.terminals()->currentWidget();
        QVERIFY(terminal);
        const qreal before = terminal->font().pointSizeF();
        const qreal queueBefore
            = window.findChild<QTreeView *>(QStringLiteral("queueTable"))->font().pointSizeF();
        auto *zoomIn = window.findChild<QAction *>(QStringLiteral("zoomInAction"));
        QVERIFY(zoomIn->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_Equal)));
        QVERIFY(window.findChild<QAction *>(QStringLiteral("zoomOutAction"))
                    ->shortcuts()
                    .contains(QKeySequence(Qt::CTRL | Qt::Key_Minus)));
        zoomIn->trigger();
        zoomIn->trigger();
        QCOMPARE(window.zoomSteps(), 2);
        QVERIFY2(terminal->font().pointSizeF() > before * 1.15,
            qPrintable(QString::number(terminal->font().pointSizeF())));
        QVERIFY(window.findChild<QTreeView *>(QStringLiteral("queueTable"))->font().pointSizeF()
            > queueBefore * 1.15);
        QVERIFY(window.submitForm()
                    ->findChild<QPlainTextEdit *>(QStringLiteral("submitPreview"))
                    ->font()
                    .pointSizeF()
            > queueBefore * 1.15);
        window.findChild<QAction *>(QStringLiteral("zoomResetAction"))->trigger();
        QCOMPARE(terminal->font().pointSizeF(), before);
    }
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
