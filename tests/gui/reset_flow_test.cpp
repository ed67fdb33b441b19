// The instructor's "Reset the cluster" on a real cluster, in the whole app (ctest runs it under
// Xvfb when available): a cluster started with --time-scale 60 runs a job and has history and a
// fast-forwarded clock; the instructor resets it through the panel's button and its dialog.
// Afterwards the queue and the history are empty, the clock is back at real time, the start
// settings and the user's files are kept, the app has reconnected by itself, and the terminal's
// login shell submits a new job that appears in the queue.

#include "mc/gui/accounting_model.h"
#include "mc/gui/app_options.h"
#include "mc/gui/background_load.h"
#include "mc/gui/controller_link.h"
#include "mc/gui/history_view.h"
#include "mc/gui/instructor_panel.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/main_window.h"
#include "mc/gui/node_table_model.h"
#include "mc/gui/terminal_tabs.h"
#include "mc/gui/timeline_model.h"
#include "mc/term/terminal_view.h"
#include "screen_and_rows.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDateTime>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using mc::gui::JobTableModel;
using mc::gui::MainWindow;

using mc::gui::test::rowNamed;
using mc::gui::test::screenShows;

namespace {

constexpr int kTimeoutMs = 30000;
const QString kLauncher = QStringLiteral(MC_BIN_DIR "/minicluster");

bool runLauncher(const QString &dir, const QStringList &arguments, QString *output = nullptr)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(kLauncher, QStringList{QStringLiteral("--dir"), dir} + arguments);
    const bool ok = process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit
        && process.exitCode() == 0;
    const QString text = QString::fromLocal8Bit(process.readAll());
    if (output) {
        *output = text;
    }
    if (!ok) {
        qWarning(
            "minicluster %s: %s", qPrintable(arguments.join(QLatin1Char(' '))), qPrintable(text));
    }
    return ok;
}

} // namespace

class ResetFlowTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir{QDir::tempPath() + QStringLiteral("/mc-gui-reset-XXXXXX")};
    bool m_up = false;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(runLauncher(m_dir.path(),
                     {QStringLiteral("--time-scale"), QStringLiteral("60"), QStringLiteral("up")}),
            "minicluster up failed");
        m_up = true;
    }

    void cleanupTestCase()
    {
        if (m_up) {
            runLauncher(m_dir.path(), {QStringLiteral("down")});
        }
    }

    void resetEmptiesQueueAndHistoryAndKeepsSettingsFilesAndTheShell()
    {
        // Before: a finished job (history), a running one (queue), a file, a clock 2 days ahead.
        QVERIFY(runLauncher(m_dir.path(),
            {QStringLiteral("shell"), QStringLiteral("-c"),
                QStringLiteral("sbatch -J before --wrap true && sbatch -J longrun --wrap 'sleep "
                               "300' && echo kept > ~/keep.txt")}));
        const QString keep = m_dir.filePath(QStringLiteral("home/alice/keep.txt"));
        QVERIFY(QFile::exists(keep));

        mc::gui::AppOptions options = mc::gui::parseAppOptions(
            {QStringLiteral("minicluster-gui"), QStringLiteral("--dir"), m_dir.path()});
        options.shellProgram = kLauncher; // the test binary does not sit next to it
        MainWindow window(options);
        window.resize(1400, 860);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const JobTableModel &jobs = *window.jobModel();
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(jobs, QStringLiteral("longrun")) >= 0, kTimeoutMs);
        mc::gui::InstructorPanel *panel = window.instructorPanel();
        panel->setClock(0, 2 * 86400);
        QTRY_VERIFY_WITH_TIMEOUT(
            jobs.now() > QDateTime::currentSecsSinceEpoch() + 86400, kTimeoutMs);
        QSignalSpy historyRefreshed(window.history(), &mc::gui::HistoryView::refreshed);
        window.history()->refresh();
        QVERIFY(historyRefreshed.wait(kTimeoutMs));
        QVERIFY(window.history()->model()->rowCount() >= 1);

        // What is on screen before: the running job in the timeline, background users.
        const auto blockCount = [&window] {
            int count = 0;
            for (const QString &node : window.timelineModel()->nodeNames()) {
                count += static_cast<int>(window.timelineModel()->blocksOn(node).size());
            }
            return count;
        };
        QTRY_VERIFY_WITH_TIMEOUT(blockCount() > 0, kTimeoutMs);
        panel->backgroundLoad()->startGenerator({QStringLiteral("nobody")}, 1, 1, 1);

        // The reset, through its button and its question.
        QSignalSpy reset(panel, &mc::gui::InstructorPanel::clusterReset);
        QTimer answer;
        answer.setInterval(50);
        connect(&answer, &QTimer::timeout, [] {
            if (auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget())) {
                box->button(QMessageBox::Yes)->click();
            }
        });
        answer.start();
        panel->findChild<QPushButton *>(QStringLiteral("clusterReset"))->click();
        answer.stop();
        QVERIFY2(reset.wait(60000), qPrintable(panel->resetText()));
        QCOMPARE(
            panel->resetText(), QStringLiteral("The cluster was reset: empty queue, no history."));
        // Nothing of the previous class stays: no ghost in the timeline, no background users.
        QCOMPARE(blockCount(), 0);
        QVERIFY2(panel->loadText().startsWith(QStringLiteral("No background load.")),
            qPrintable(panel->loadText()));
        QVERIFY(!panel->backgroundLoad()->isRunning());

        // The app reconnects to the new controller: nodes but no job; the clock is real again.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.link()->isConnected() && window.nodeModel()->rowCount() > 0, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(jobs.rowCount(), 0, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            qAbs(jobs.now() - QDateTime::currentSecsSinceEpoch()) < 120, kTimeoutMs);
        // The reset refreshed the history, now empty. A refresh the old controller answered may
        // land first (a loaded machine): the one after the reset empties it.
        QTRY_VERIFY_WITH_TIMEOUT(historyRefreshed.count() >= 2, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(window.history()->model()->rowCount(), 0, kTimeoutMs);
        QString sacct;
        QVERIFY(runLauncher(m_dir.path(),
            {QStringLiteral("shell"), QStringLiteral("-c"), QStringLiteral("sacct -n -X")},
            &sacct));
        QCOMPARE(sacct.trimmed(), QString());

        // Kept: the start settings (time limits still 60 times faster) and the user's files.
        QVERIFY(mc::gui::InstructorPanel::startSettings(m_dir.path())
                    .join(QLatin1Char(' '))
                    .contains(QStringLiteral("--time-scale 60")));
        QVERIFY(QFile::exists(keep));

        // The terminal's login shell works on the new cluster.
        auto *terminal = window.terminals()->currentView();
        QVERIFY(terminal);
        QTest::keyClicks(terminal, QStringLiteral("sbatch -J afterreset --wrap 'sleep 60'"));
        QTest::keyClick(terminal, Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(
            screenShows(*terminal->screen(), QStringLiteral("Submitted batch job")), kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(jobs, QStringLiteral("afterreset")) >= 0, kTimeoutMs);
    }
};

QTEST_MAIN(ResetFlowTest)
#include "reset_flow_test.moc"
