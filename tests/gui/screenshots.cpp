// mc_gui_screenshots: saves pictures of the app on a running cluster, for docs/images/.
//
//   mc_gui_screenshots --dir CLUSTER_DIR --out DIR [--lang fr] [--type "COMMAND"]...
//
// Opens the main window on the cluster, types each COMMAND in the terminal tab, selects the
// first node and the first pending job, then saves gui-window.png, gui-terminal.png,
// gui-queue.png, gui-nodes.png and gui-details.png (suffixed _fr with --lang fr) in DIR. Run it
// under Xvfb for a real window (README.md, "The app").

#include "mc/gui/app_options.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/language.h"
#include "mc/gui/main_window.h"
#include "mc/gui/node_table_model.h"
#include "mc/gui/terminal_tabs.h"
#include "mc/term/terminal_screen.h"
#include "mc/term/terminal_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QTableView>
#include <QTest>

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
    parser.addOptions({dirOption, outOption, langOption, typeOption});
    parser.process(app);

    const QString language = mc::gui::installLanguage(
        parser.value(langOption).isEmpty() ? QStringLiteral("en") : parser.value(langOption));
    const QString suffix
        = language == QLatin1String("en") ? QString() : QLatin1Char('_') + language;
    mc::gui::AppOptions options = mc::gui::parseAppOptions(
        {QStringLiteral("minicluster-gui"), QStringLiteral("--dir"), parser.value(dirOption)});
    options.shellProgram = QStringLiteral(MC_BIN_DIR "/minicluster");

    mc::gui::MainWindow window(options);
    window.resize(1400, 860);
    window.show();
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

    auto *nodes = window.findChild<QTableView *>(QStringLiteral("nodesTable"));
    nodes->selectRow(0);
    auto *queue = window.findChild<QTableView *>(QStringLiteral("queueTable"));
    for (int row = 0; row < queue->model()->rowCount(); ++row) {
        if (queue->model()->index(row, 0).data(mc::gui::JobTableModel::StateRole).toString()
            == QLatin1String("PENDING")) {
            queue->selectRow(row);
            break;
        }
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
    QTest::qWait(200);
    ok = save(nodesDock, out + QStringLiteral("/gui-nodes%1.png").arg(suffix)) && ok;
    return ok ? 0 : 1;
}
