#pragma once
// The app's main window on one cluster: the views (for now the queue) in tabs, a status bar
// saying whether the controller is connected and how many jobs are pending and running, and the
// menus. It owns the controller link and the models, and starts the link when constructed.

#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace mc::gui {

class ControllerLink;
class JobTableModel;
class QueueView;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `socketPath`: the controller's socket (<cluster>/run/ctld.sock).
    explicit MainWindow(const QString &socketPath, QWidget *parent = nullptr);
    ~MainWindow() override;

    ControllerLink *link() const { return m_link; }
    JobTableModel *jobModel() const { return m_jobs; }

private:
    void createMenus();
    void createStatusBar();
    void onConnectedChanged(bool connected);
    void showStatus(const QString &status);
    void showCounts(int pending, int running);

    ControllerLink *m_link;
    JobTableModel *m_jobs;
    QTabWidget *m_tabs;
    QueueView *m_queue;
    QLabel *m_connectionStatus = nullptr;
    QLabel *m_jobCounts = nullptr;
};

} // namespace mc::gui
