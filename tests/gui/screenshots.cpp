// mc_gui_screenshots: saves pictures of the app on a running cluster, for docs/images/.
//
//   mc_gui_screenshots --dir CLUSTER_DIR --out DIR [--lang fr] [--type "COMMAND"]...
//                      [--load JOBS_PER_MINUTE] [--wait SECONDS]
//
// Opens the main window on the cluster, types each COMMAND in the terminal tab, starts the
// instructor panel's background users (--load: classmates submitting that many jobs a minute),
// waits (--wait) so that jobs run and end, selects the first node and the first pending job,
// then saves gui-window.png, gui-terminal.png, gui-queue.png, gui-nodes.png, gui-details.png,
// gui-timeline.png, gui-history.png, gui-filesystems.png, gui-submit.png, gui-instructor.png
// and gui-lessons.png (the current lesson, checked; suffixed _fr with --lang fr) in DIR. Run it
// under Xvfb for a real window (README.md, "The app").

#include "mc/gui/app_options.h"
#include "mc/gui/background_load.h"
#include "mc/gui/history_view.h"
#include "mc/gui/instructor_panel.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/language.h"
#include "mc/gui/lessons_view.h"
#include "mc/gui/main_window.h"
#include "mc/gui/node_table_model.h"
#include "mc/gui/submit_form.h"
#include "mc/gui/terminal_tabs.h"
#include "mc/gui/timeline_view.h"
#include "mc/term/terminal_screen.h"
#include "mc/term/terminal_view.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include <cstdio>

namespace {

bool save(QWidget *widget, const QString &path)
{
    if (!widget || !widget->grab().save(path)) {
        std::fprintf(stderr, "mc_gui_screenshots: cannot save %s\n", qPrintable(path));
        return false;
    }
    std::printf("%s\n", qPrintable(path));
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    mc::gui::setApplicationIdentity();
    QCommandLineParser parser;
    const QCommandLineOption dirOption(
        QStringLiteral("dir"), QStringLiteral("cluster"), QStringLiteral("DIR"));
    const QCommandLineOption outOption(
        QStringLiteral("out"), QStringLiteral("output"), QStringLiteral("DIR"));
    const QCommandLineOption langOption(
        QStringLiteral("lang"), QStringLiteral("language"), QStringLiteral("CODE"));
    const QCommandLineOption typeOption(
        QStringLiteral("type"), QStringLiteral("command"), QStringLiteral("CMD"));
    const QCommandLineOption loadOption(
        QStringLiteral("load"), QStringLiteral("background jobs a minute"), QStringLiteral("N"));
    const QCommandLineOption waitOption(
        QStringLiteral("wait"), QStringLiteral("seconds before the pictures"), QStringLiteral("S"));
    parser.addOptions({dirOption, outOption, langOption, typeOption, loadOption, waitOption});
    parser.process(app);

    const QString language = mc::gui::installLanguage(
        parser.value(langOption).isEmpty() ? QStringLiteral("en") : parser.value(langOption));
    const QString suffix
        = language == QLatin1String("en") ? QString() : QLatin1Char('_') + language;
    mc::gui::AppOptions options = mc::gui::parseAppOptions(
        {QStringLiteral("minicluster-gui"), QStringLiteral("--dir"), parser.value(dirOption)});
    options.shellProgram = QStringLiteral(MC_BIN_DIR "/minicluster");

    mc::gui::MainWindow window(options);
    window.show(); // at the size a student gets: within 1280×800 and the screen
    if (!QTest::qWaitForWindowExposed(&window)
        || !QTest::qWaitFor([&] { return window.nodeModel()->rowCount() > 0; }, 20000)) {
        std::fprintf(stderr, "mc_gui_screenshots: the cluster did not answer\n");
        return 1;
    }
    auto *terminal = window.terminals()->currentView();
    const auto prompt = [terminal] {
        const auto &screen = *terminal->screen();
        return screen.lineText(screen.cursor().row).contains(QStringLiteral("$"));
    };
    if (!QTest::qWaitFor(prompt, 20000)) {
        std::fprintf(stderr, "mc_gui_screenshots: no shell prompt in the terminal\n");
    }
    for (const QString &command : parser.values(typeOption)) {
        QTest::keyClicks(terminal, command);
        QTest::keyClick(terminal, Qt::Key_Return);
        QTest::qWait(1500);
    }

    if (parser.isSet(loadOption)) {
        const QStringList users = mc::gui::InstructorPanel::usersOfCluster(parser.value(dirOption));
        QStringList classmates;
        for (const QString &user : users) {
            if (user != options.user && user != QLatin1String("prof")) {
                classmates << user;
            }
        }
        window.instructorPanel()->backgroundLoad()->startGenerator(
            classmates, parser.value(loadOption).toDouble(), 2, 7);
    }
    QTest::qWait(parser.value(waitOption).toInt() * 1000);

    auto *nodes = window.findChild<QTableView *>(QStringLiteral("nodesTable"));
    nodes->selectRow(0);
    auto *queue = window.findChild<QTreeView *>(QStringLiteral("queueTable"));
    // Arrays open on their tasks in the picture.
    for (int row = 0; row < queue->model()->rowCount(); ++row) {
        const QModelIndex index = queue->model()->index(row, 0);
        if (queue->model()->rowCount(index) > 0) {
            queue->expand(index);
        }
    }
    // The picture shows the first pending array (its record, open on its tasks) at the top,
    // else the first pending job.
    QModelIndex chosen;
    for (int row = 0; row < queue->model()->rowCount(); ++row) {
        const QModelIndex index = queue->model()->index(row, 0);
        const bool pending
            = index.data(mc::gui::JobTableModel::StateRole).toString() == QLatin1String("PENDING");
        if (pending && queue->model()->rowCount(index) > 0) {
            chosen = index;
            break;
        }
        if (pending && !chosen.isValid()) {
            chosen = index;
        }
    }
    if (chosen.isValid()) {
        queue->setCurrentIndex(chosen);
        queue->scrollTo(chosen, QAbstractItemView::PositionAtTop);
    }
    terminal->setFocus();
    QTest::qWait(500);

    const QString out = parser.value(outOption);
    bool ok = save(&window, out + QStringLiteral("/gui-window%1.png").arg(suffix));
    ok = save(window.terminals(), out + QStringLiteral("/gui-terminal%1.png").arg(suffix)) && ok;
    ok = save(window.findChild<QDockWidget *>(QStringLiteral("queueDock")),
             out + QStringLiteral("/gui-queue%1.png").arg(suffix))
        && ok;
    auto *details = window.findChild<QDockWidget *>(QStringLiteral("jobDetailsDock"));
    details->raise();
    QTest::qWait(200);
    ok = save(details, out + QStringLiteral("/gui-details%1.png").arg(suffix)) && ok;
    auto *nodesDock = window.findChild<QDockWidget *>(QStringLiteral("nodesDock"));
    nodesDock->raise();
    nodesDock->setFloating(true);
    nodesDock->resize(1100, 420);
    QTest::qWait(500);
    ok = save(nodesDock, out + QStringLiteral("/gui-nodes%1.png").arg(suffix)) && ok;
    nodesDock->setFloating(false);

    // The bottom views, each raised in turn.
    // Each one floated at a readable size for its picture, then docked again.
    const auto bottom = [&window, &out, &suffix](const char *dock, const char *name) {
        auto *widget = window.findChild<QDockWidget *>(QLatin1String(dock));
        widget->raise();
        widget->setFloating(true);
        widget->resize(1300, 560);
        QTest::qWait(900);
        const bool saved
            = save(widget, out + QStringLiteral("/gui-%1%2.png").arg(QLatin1String(name), suffix));
        widget->setFloating(false);
        return saved;
    };
    window.timeline()->setSecondsPerPixel(1.0);
    window.timeline()->scrollToNow();
    ok = bottom("timelineDock", "timeline") && ok;
    QSignalSpy refreshed(window.history(), &mc::gui::HistoryView::refreshed);
    window.history()->refresh();
    refreshed.wait(10000);
    ok = bottom("historyDock", "history") && ok;
    ok = bottom("filesystemsDock", "filesystems") && ok;
    auto *sample = window.submitForm()->findChild<QComboBox *>(QStringLiteral("submitSample"));
    sample->setCurrentIndex(sample->findText(QStringLiteral("array_job.sh")));
    window.submitForm()
        ->findChild<QLineEdit *>(QStringLiteral("submitArray"))
        ->setText(QStringLiteral("1-8%2"));
    ok = bottom("submitDock", "submit") && ok;
    window.instructorPanel()->setClock(1.0, 0);
    ok = bottom("instructorDock", "instructor") && ok;
    // The lesson a --type'd `minicluster lesson start N` began, checked: its text and the
    // engine's answer, as a student sees them.
    auto *lessons = window.findChild<mc::gui::LessonsView *>(QStringLiteral("lessonsView"));
    lessons->reload();
    QSignalSpy checked(lessons, &mc::gui::LessonsView::commandFinished);
    lessons->findChild<QPushButton *>(QStringLiteral("lessonCheck"))->click();
    checked.wait(30000);
    ok = bottom("lessonsDock", "lessons") && ok;
    window.instructorPanel()->backgroundLoad()->stop();
    return ok ? 0 : 1;
}
