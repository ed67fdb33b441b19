#pragma once
// The app's main window on one cluster: terminals on login1 in the centre (tabs), and the
// views as docks fed live by the controller's event stream: the queue, the nodes, the details
// of the selected job. A status bar says whether the controller is connected and how many jobs
// are pending and running. Below the terminals: the timeline, the history and charts, the
// filesystems, the submit form, the instructor panel and the lessons. It owns the controller link,
// the request client and the models, and starts the link when constructed.
//
// Fits a laptop: the window opens within 1280×800 (or the screen, when smaller) in every
// language, and no view asks for more (each dock has a small minimum, long texts wrap or
// scroll). View → Reset Layout puts the docks back as at first start. For a projector,
// Ctrl+= / Ctrl+- zoom every view, the terminals included (Ctrl+0: normal size).

#include "mc/gui/app_options.h"

#include <QMainWindow>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QToolButton;

namespace mc::gui {

class ControllerLink;
class FilesystemsView;
class HistoryView;
class InstructorPanel;
class JobDetailsView;
class JobTableModel;
class LessonsView;
class NodeTableModel;
class NodesView;
class QueueView;
class RequestClient;
class SubmitForm;
class TerminalTabs;
class TimelineModel;
class TimelineView;

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
    RequestClient *requests() const { return m_requests; }
    TimelineModel *timelineModel() const { return m_timelineModel; }
    TimelineView *timeline() const { return m_timeline; }
    HistoryView *history() const { return m_history; }
    SubmitForm *submitForm() const { return m_submit; }
    InstructorPanel *instructorPanel() const { return m_instructor; }
    FilesystemsView *filesystems() const { return m_filesystems; }
    LessonsView *lessons() const { return m_lessons; }
    // Types `command` and Enter in the current terminal tab (opening one when there is none);
    // false when the app has no shell to run.
    bool runInTerminal(const QString &command);
    // The docks as at first start, every one shown, the window within the screen.
    void resetLayout();
    // Projector zoom: the font size of every view, in steps of 10% (0: normal).
    void zoomBy(int steps);
    int zoomSteps() const { return m_zoomSteps; }

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    // Sets every text of the window's own widgets in the current language.
    void retranslateUi();
    QDockWidget *addDock(QWidget *view, const char *name, Qt::DockWidgetArea area);
    void createMenus();
    void createLanguageMenu();
    void createStatusBar();
    // Shows m_notIsolated unless the cluster runs in bubblewrap with users on ids of their own.
    void updateIsolationNotice();
    void openInSystemTerminal();
    void onConnectedChanged(bool connected);
    void showStatus(const QString &status);
    void showCounts(int pending, int running);
    void updatePartitions();
    // Shrinks the window to fit the screen it is on (never beyond 1280×800 at first start).
    void fitToScreen();

    ControllerLink *m_link;
    JobTableModel *m_jobs;
    NodeTableModel *m_nodes;
    TerminalTabs *m_terminals;
    QueueView *m_queue;
    NodesView *m_nodesView;
    JobDetailsView *m_details;
    RequestClient *m_requests;
    TimelineModel *m_timelineModel;
    TimelineView *m_timeline;
    HistoryView *m_history;
    SubmitForm *m_submit;
    InstructorPanel *m_instructor;
    FilesystemsView *m_filesystems;
    LessonsView *m_lessons;
    QToolButton *m_externalButton = nullptr;
    QList<QDockWidget *> m_docks;
    QMenu *m_fileMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QAction *m_newTab = nullptr;
    QAction *m_external = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_resetLayout = nullptr;
    QAction *m_zoomIn = nullptr;
    QAction *m_zoomOut = nullptr;
    QAction *m_zoomReset = nullptr;
    QByteArray m_defaultLayout;
    qreal m_basePointSize = 0;
    int m_zoomSteps = 0;
    bool m_shownOnce = false;
    QAction *m_systemLanguage = nullptr;
    QActionGroup *m_languages = nullptr;
    QLabel *m_connectionStatus = nullptr;
    QLabel *m_jobCounts = nullptr;
    // Shown while the cluster's users share one uid (`minicluster status`' "users: not
    // isolated"): a student should know that classmates can read and kill each other's work.
    QLabel *m_notIsolated = nullptr;
    QString m_clusterDir;
};

} // namespace mc::gui
