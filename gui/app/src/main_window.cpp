#include "mc/gui/main_window.h"

#include "mc/gui/controller_link.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/queue_view.h"

#include <QAction>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTabWidget>

namespace mc::gui {

MainWindow::MainWindow(const QString &socketPath, QWidget *parent)
    : QMainWindow(parent)
    , m_link(new ControllerLink(socketPath, this))
    , m_jobs(new JobTableModel(this))
    , m_tabs(new QTabWidget(this))
    , m_queue(new QueueView(m_jobs, m_tabs))
{
    setWindowTitle(tr("minicluster"));
    resize(960, 600);

    m_tabs->setObjectName(QStringLiteral("views"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_queue, tr("Queue"));
    setCentralWidget(m_tabs);

    createMenus();
    createStatusBar();

    connect(m_link, &ControllerLink::statusChanged, this, &MainWindow::showStatus);
    connect(m_link, &ControllerLink::connectedChanged, this, &MainWindow::onConnectedChanged);
    connect(m_link, &ControllerLink::snapshotReceived, m_jobs,
        [this](const QList<mc::proto::Json> &jobs, const QList<mc::proto::Json> &, qint64 now) {
            m_jobs->resetJobs(jobs, now);
        });
    connect(m_link, &ControllerLink::jobChanged, m_jobs, &JobTableModel::updateJob);
    connect(m_jobs, &JobTableModel::countsChanged, this, &MainWindow::showCounts);

    showStatus(m_link->statusText());
    showCounts(m_jobs->pendingCount(), m_jobs->runningCount());
    m_link->start();
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *quit = file->addAction(tr("&Quit"));
    quit->setObjectName(QStringLiteral("quitAction"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    connect(quit, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::createStatusBar()
{
    m_connectionStatus = new QLabel(this);
    m_connectionStatus->setObjectName(QStringLiteral("connectionStatus"));
    m_connectionStatus->setToolTip(m_link->socketPath());
    m_jobCounts = new QLabel(this);
    m_jobCounts->setObjectName(QStringLiteral("jobCounts"));
    m_jobCounts->setVisible(m_link->isConnected());
    statusBar()->addWidget(m_connectionStatus, 1);
    statusBar()->addPermanentWidget(m_jobCounts);
}

void MainWindow::onConnectedChanged(bool connected)
{
    if (!connected) {
        // While disconnected the queue is unknown; the next snapshot brings it back.
        m_jobs->clear();
    }
    m_jobCounts->setVisible(connected);
    m_queue->setConnectionState(connected, m_link->statusText());
}

void MainWindow::showStatus(const QString &status)
{
    m_connectionStatus->setText(status);
    m_queue->setConnectionState(m_link->isConnected(), status);
}

void MainWindow::showCounts(int pending, int running)
{
    m_jobCounts->setText(tr("%1 pending, %2 running").arg(pending).arg(running));
}

} // namespace mc::gui
