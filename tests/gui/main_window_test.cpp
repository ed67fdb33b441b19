#include "fake_controller.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/main_window.h"
#include "test_jobs.h"

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using mc::gui::JobTableModel;
using mc::gui::MainWindow;
using mc::gui::test::FakeController;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;

namespace {

constexpr int kTimeoutMs = 5000;

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

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        QVERIFY(QDir(m_dir->path()).mkpath(QStringLiteral("run")));
    }

    void cleanup() { m_dir.reset(); }

    void windowIsTitledMiniclusterAndShowsTheQueueColumns()
    {
        MainWindow window(socketPath());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QCOMPARE(window.windowTitle(), QStringLiteral("minicluster"));
        const auto *table = window.findChild<QTableView *>(QStringLiteral("queueTable"));
        QVERIFY(table);
        QCOMPARE(table->model()->columnCount(), JobTableModel::kColumnCount);
        QCOMPARE(table->model()->headerData(0, Qt::Horizontal).toString(), QStringLiteral("JOBID"));
        const auto *quit = window.findChild<QAction *>(QStringLiteral("quitAction"));
        QVERIFY(quit);
        QCOMPARE(quit->shortcut(), QKeySequence(QKeySequence::Quit));
    }

    void statusBarSaysNotConnectedWhileThereIsNoController()
    {
        MainWindow window(socketPath());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QVERIFY(labelText(window, "connectionStatus").startsWith(QStringLiteral("Not connected")));
        QVERIFY(isShown(window, "notConnectedMessage"));
        QVERIFY(labelText(window, "notConnectedMessage").contains(socketPath()));
        QVERIFY(!isShown(window, "queueTable"));
        QVERIFY(!isShown(window, "jobCounts"));
    }

    void connectedWindowListsTheJobsAndCountsThem()
    {
        FakeController controller(socketPath().toStdString());
        QVERIFY(controller.listen());
        MainWindow window(socketPath());
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
        const auto *table = window.findChild<QTableView *>(QStringLiteral("queueTable"));
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
};

QTEST_MAIN(MainWindowTest)
#include "main_window_test.moc"
