// The whole app on a real cluster, in a real window (ctest runs it under Xvfb when available):
// start a cluster with `minicluster up`, open the main window on it, type an sbatch command in
// the terminal widget, see the job's row appear in the queue and its node fill in the nodes
// view, select it and read its details.

#include "mc/gui/app_options.h"
#include "mc/gui/job_details_view.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/main_window.h"
#include "mc/gui/node_table_model.h"
#include "mc/gui/nodes_view.h"
#include "mc/gui/terminal_tabs.h"
#include "mc/term/terminal_view.h"
#include "screen_and_rows.h"

#include <QDockWidget>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using mc::gui::JobTableModel;
using mc::gui::MainWindow;
using mc::gui::NodeTableModel;

using mc::gui::test::rowNamed;
using mc::gui::test::screenShows;

namespace {

constexpr int kTimeoutMs = 30000;
const QString kLauncher = QStringLiteral(MC_BIN_DIR "/minicluster");

bool runLauncher(const QString &dir, const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedChannels);
    process.start(kLauncher, QStringList{QStringLiteral("--dir"), dir} + arguments);
    return process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit
        && process.exitCode() == 0;
}

bool someNodeHolds(const NodeTableModel &nodes, qint64 jobId)
{
    for (int row = 0; row < nodes.rowCount(); ++row) {
        for (const auto &holder : nodes.holdersAt(row)) {
            if (holder.jobId == jobId) {
                return true;
            }
        }
    }
    return false;
}

} // namespace

class WholeFlowTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir{QDir::tempPath() + QStringLiteral("/mc-gui-flow-XXXXXX")};
    bool m_up = false;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(runLauncher(m_dir.path(), {QStringLiteral("up")}), "minicluster up failed");
        m_up = true;
    }

    void cleanupTestCase()
    {
        if (m_up) {
            runLauncher(m_dir.path(), {QStringLiteral("down")});
        }
    }

    void jobSubmittedInTheTerminalAppearsInTheQueueAndFillsANode()
    {
        const mc::gui::AppOptions options = mc::gui::parseAppOptions(
            {QStringLiteral("minicluster-gui"), QStringLiteral("--dir"), m_dir.path()});
        mc::gui::AppOptions withLauncher = options;
        withLauncher.shellProgram = kLauncher; // the test binary does not sit next to it
        MainWindow window(withLauncher);
        window.resize(1400, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY_WITH_TIMEOUT(window.nodeModel()->rowCount() > 0, kTimeoutMs);

        auto *terminal = window.terminals()->currentView();
        QVERIFY(terminal);
        mc::term::TerminalScreen &screen = *terminal->screen();
        QTRY_VERIFY_WITH_TIMEOUT(screenShows(screen, QStringLiteral("@login1")), kTimeoutMs);

        const QString command
            = QStringLiteral("sbatch -J flowtest -c 2 -t 10:00 --wrap 'sleep 300' && squeue --me");
        QTest::keyClicks(terminal, command);
        QTest::keyClick(terminal, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(
            screenShows(screen, QStringLiteral("Submitted batch job")), kTimeoutMs);

        // The row appears, then runs; its node shows it.
        const JobTableModel &jobs = *window.jobModel();
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(jobs, QStringLiteral("flowtest")) >= 0, kTimeoutMs);
        const int row = rowNamed(jobs, QStringLiteral("flowtest"));
        const qint64 jobId = jobs.jobIdAt(row);
        QVERIFY(screenShows(screen, QStringLiteral("Submitted batch job %1").arg(jobId)));
        QTRY_COMPARE_WITH_TIMEOUT(
            jobs.stateAt(jobs.rowOfJob(jobId)), QStringLiteral("RUNNING"), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(someNodeHolds(*window.nodeModel(), jobId), kTimeoutMs);

        // Selecting it in the queue shows its details.
        auto *queue = window.findChild<QTreeView *>(QStringLiteral("queueTable"));
        QVERIFY(queue);
        for (int r = 0; r < queue->model()->rowCount(); ++r) {
            const QModelIndex shown = queue->model()->index(r, 0);
            if (shown.data(JobTableModel::JobIdRole).toLongLong() == jobId) {
                queue->setCurrentIndex(shown);
            }
        }
        auto *details = window.findChild<mc::gui::JobDetailsView *>();
        QVERIFY(details);
        QCOMPARE(details->shownJob(), jobId);
        QVERIFY(details->explanationText().contains(QStringLiteral("Running on")));
        QVERIFY(details->fieldsText().contains(QStringLiteral("flowtest")));

        QTest::keyClicks(terminal, QStringLiteral("scancel %1").arg(jobId));
        QTest::keyClick(terminal, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(!someNodeHolds(*window.nodeModel(), jobId), kTimeoutMs);
    }
};

QTEST_MAIN(WholeFlowTest)
#include "whole_flow_test.moc"
