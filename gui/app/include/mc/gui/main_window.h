#pragma once
// The app's main window on one cluster: terminals on login1 in the centre (tabs), and the
// views as docks fed live by the controller's event stream: the queue, the nodes, the details
// of the selected job. A status bar says whether the controller is connected and how many jobs
// are pending and running. It owns the controller link and the models, and starts the link
// when constructed.

#include "mc/gui/app_options.h"

#include <QMainWindow>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;

namespace mc::gui {

class ControllerLink;
class JobDetailsView;
class JobTableModel;
class NodeTableModel;
class NodesView;
class QueueView;
class TerminalTabs;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `options.socketPath`: the controller's socket; `options.shellProgram` and
    // `shellArguments`: what each terminal tab runs (no terminal tab when empty).
    explicit MainWindow(const AppOptions &options, QWidget *parent = nullptr);
    ~MainWindow() override;

    ControllerLink *link() const { return m_link; }
    JobTableModel *jobModel() const { return m_jobs; }
    NodeTableModel *nodeModel() const { return m_nodes; }
    TerminalTabs *terminals() const { return m_terminals; }

protected:
    void changeEvent(QEvent *event) override;

private:
    // Sets every text of the window's own widgets in the current language.
    void retranslateUi();
    QDockWidget *addDock(QWidget *view, const char *name, Qt::DockWidgetArea area);
    void createMenus();
    void createLanguageMenu();
    void createStatusBar();
    void openInSystemTerminal();
    void onConnectedChanged(bool connected);
    void showStatus(const QString &status);
    void showCounts(int pending, int running);

    ControllerLink *m_link;
    JobTableModel *m_jobs;
    NodeTableModel *m_nodes;
    TerminalTabs *m_terminals;
    QueueView *m_queue;
    NodesView *m_nodesView;
    JobDetailsView *m_details;
    QList<QDockWidget *> m_docks;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QAction *m_newTab = nullptr;
    QAction *m_external = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_systemLanguage = nullptr;
    QActionGroup *m_languages = nullptr;
    QLabel *m_connectionStatus = nullptr;
    QLabel *m_jobCounts = nullptr;
};

} // namespace mc::gui
