#include "mc/gui/main_window.h"

#include "mc/gui/accounting_model.h"
#include "mc/gui/controller_link.h"
#include "mc/gui/filesystems_view.h"
#include "mc/gui/history_view.h"
#include "mc/gui/instructor_panel.h"
#include "mc/gui/job_details_view.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/language.h"
#include "mc/gui/lessons_view.h"
#include "mc/gui/node_table_model.h"
#include "mc/gui/nodes_view.h"
#include "mc/gui/queue_view.h"
#include "mc/gui/request_client.h"
#include "mc/gui/submit_form.h"
#include "mc/gui/terminal_tabs.h"
#include "mc/gui/timeline_model.h"
#include "mc/gui/timeline_view.h"
#include "mc/lessons/catalog.h"
#include "mc/proto/client.h"
#include "mc/proto/identity.h"
#include "mc/term/terminal_screen.h"
#include "mc/term/terminal_view.h"

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFile>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <pwd.h>
#include <unistd.h>

namespace mc::gui {

namespace {

QString currentUser()
{
    const passwd *entry = ::getpwuid(::getuid());
    return entry ? QString::fromLocal8Bit(entry->pw_name) : qEnvironmentVariable("USER");
}

QString clusterDirOf(const AppOptions &options)
{
    return options.clusterDir.isEmpty() ? QString::fromStdString(mc::proto::defaultClusterDir())
                                        : options.clusterDir;
}

QString userOf(const AppOptions &options)
{
    return options.user.isEmpty() ? currentUser() : options.user;
}

// The classmates who submit background load: every user of the cluster but the shell's own
// and the instructor.
QStringList classmatesOf(const AppOptions &options)
{
    QStringList users = InstructorPanel::usersOfCluster(clusterDirOf(options));
    users.removeAll(userOf(options));
    users.removeAll(QLatin1String(InstructorPanel::kInstructor));
    return users;
}

// Where sample jobs are: installed beside the program, else in the source tree.
QStringList sampleJobDirs()
{
    const QDir bin(QCoreApplication::applicationDirPath());
    return {bin.filePath(QStringLiteral("../share/minicluster/sample_jobs")),
        QStringLiteral(MC_SAMPLE_JOBS_DIR)};
}

// Where the lessons are: installed beside the program, else in the source tree.
QString lessonsDirectory()
{
    const QString installed = QString::fromStdString(
        mc::lessons::lessonsDir(QCoreApplication::applicationDirPath().toStdString()));
    return QDir(installed).exists() ? installed : QStringLiteral(MC_LESSONS_DIR);
}

// `minicluster [--dir DIR]`: the shell command without its final `shell`.
QStringList launcherArguments(const AppOptions &options)
{
    QStringList arguments = options.shellArguments;
    if (!arguments.isEmpty() && arguments.last() == QLatin1String("shell")) {
        arguments.removeLast();
    }
    return arguments;
}

} // namespace

MainWindow::MainWindow(const AppOptions &options, QWidget *parent)
    : QMainWindow(parent)
    , m_link(new ControllerLink(options.socketPath, this))
    , m_jobs(new JobTableModel(this))
    , m_nodes(new NodeTableModel(this))
    , m_terminals(new TerminalTabs(options.shellProgram, options.shellArguments, this))
    , m_queue(new QueueView(m_jobs, options.user.isEmpty() ? currentUser() : options.user, this))
    , m_nodesView(new NodesView(m_nodes, this))
    , m_details(new JobDetailsView(this))
    , m_requests(new RequestClient(options.socketPath, this))
    , m_timelineModel(new TimelineModel(this))
    , m_timeline(new TimelineView(
          m_timelineModel, [this] { return m_jobs->now(); }, this))
    , m_history(new HistoryView(m_requests, userOf(options), this))
    , m_submit(new SubmitForm(
          sampleJobDirs(), QDir(clusterDirOf(options)).filePath("home/" + userOf(options)), this))
    , m_instructor(new InstructorPanel(m_requests, m_nodes, clusterDirOf(options),
          options.shellProgram, launcherArguments(options), classmatesOf(options), this))
    , m_filesystems(new FilesystemsView(
          clusterDirOf(options), userOf(options), [this] { return m_jobs->now(); }, this))
    , m_lessons(new LessonsView(lessonsDirectory(), clusterDirOf(options), userOf(options),
          options.shellProgram, launcherArguments(options), this))
{
    resize(1280, 800);
    setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);
    setCentralWidget(m_terminals);

    addDock(m_queue, "queueDock", Qt::RightDockWidgetArea);
    QDockWidget *nodes = addDock(m_nodesView, "nodesDock", Qt::RightDockWidgetArea);
    QDockWidget *details = addDock(m_details, "jobDetailsDock", Qt::RightDockWidgetArea);
    tabifyDockWidget(nodes, details);
    nodes->raise();
    QDockWidget *timeline = addDock(m_timeline, "timelineDock", Qt::BottomDockWidgetArea);
    QDockWidget *history = addDock(m_history, "historyDock", Qt::BottomDockWidgetArea);
    QDockWidget *files = addDock(m_filesystems, "filesystemsDock", Qt::BottomDockWidgetArea);
    QDockWidget *submit = addDock(m_submit, "submitDock", Qt::BottomDockWidgetArea);
    QDockWidget *instructor = addDock(m_instructor, "instructorDock", Qt::BottomDockWidgetArea);
    QDockWidget *lessons = addDock(m_lessons, "lessonsDock", Qt::BottomDockWidgetArea);
    tabifyDockWidget(timeline, history);
    tabifyDockWidget(history, files);
    tabifyDockWidget(files, submit);
    tabifyDockWidget(submit, instructor);
    tabifyDockWidget(instructor, lessons);
    timeline->raise();
    // The right-hand docks run the window's full height; the bottom ones sit under the
    // terminals only.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    setCorner(Qt::TopRightCorner, Qt::RightDockWidgetArea);
    resizeDocks({m_docks.first()}, {640}, Qt::Horizontal);
    resizeDocks({m_docks.first(), nodes}, {300, 400}, Qt::Vertical);
    resizeDocks({timeline}, {300}, Qt::Vertical);
    for (QDockWidget *dock : std::as_const(m_docks)) {
        // Small minimums: no view may push the window past a laptop's screen; each one
        // scrolls or wraps inside its dock instead.
        dock->setMinimumSize(120, 80);
        dock->widget()->setMinimumSize(0, 0);
    }
    m_terminals->setMinimumSize(200, 120);
    m_defaultLayout = saveState();
    m_basePointSize = font().pointSizeF();

    m_externalButton = new QToolButton(m_terminals);
    m_externalButton->setObjectName(QStringLiteral("externalTerminalButton"));
    m_externalButton->setAutoRaise(true);
    m_externalButton->setEnabled(!m_terminals->program().isEmpty());
    m_terminals->setCornerWidget(m_externalButton, Qt::TopRightCorner);
    connect(m_externalButton, &QToolButton::clicked, this, &MainWindow::openInSystemTerminal);

    m_clusterDir = clusterDirOf(options);
    createMenus();
    createStatusBar();
    retranslateUi();

    connect(m_link, &ControllerLink::statusChanged, this, &MainWindow::showStatus);
    connect(m_link, &ControllerLink::connectedChanged, this, &MainWindow::onConnectedChanged);
    connect(m_link, &ControllerLink::snapshotReceived, this,
        [this](const QList<mc::record::JobObject> &jobs, const QList<mc::proto::Json> &nodeList,
            qint64 now) {
            m_jobs->resetJobs(jobs, now);
            m_nodes->reset(nodeList, jobs);
            m_details->resetJobs(jobs);
            m_timelineModel->reset(jobs, nodeList);
            m_filesystems->resetJobs(jobs);
        });
    connect(m_link, &ControllerLink::jobChanged, this, [this](const mc::record::JobObject &job) {
        m_jobs->updateJob(job);
        m_nodes->updateJob(job);
        m_details->updateJob(job);
        m_timelineModel->updateJob(job);
        m_filesystems->updateJob(job);
        m_history->noteJob(job);
    });
    connect(m_link, &ControllerLink::nodeChanged, this, [this](const mc::proto::Json &node) {
        m_nodes->updateNode(node);
        m_timelineModel->updateNode(node);
    });
    auto *partitions = new QTimer(this); // once after a batch of new nodes
    partitions->setSingleShot(true);
    partitions->setInterval(0);
    connect(partitions, &QTimer::timeout, this, &MainWindow::updatePartitions);
    connect(m_nodes, &QAbstractItemModel::rowsInserted, partitions, qOverload<>(&QTimer::start));
    connect(m_link, &ControllerLink::planChanged, m_timelineModel, &TimelineModel::applyPlan);
    // The clock first reaches the job model, which every view reads the cluster's time from.
    connect(m_link, &ControllerLink::clockChanged, m_jobs, &JobTableModel::setClock);
    connect(m_link, &ControllerLink::clockChanged, m_instructor, &InstructorPanel::showClock);
    connect(m_link, &ControllerLink::clockChanged, m_filesystems, &FilesystemsView::noteClock);
    connect(m_submit, &SubmitForm::runRequested, this, &MainWindow::runInTerminal);
    // After a reset the history is empty: show it so (the queue follows the new snapshot).
    connect(m_instructor, &InstructorPanel::clusterReset, m_history, &HistoryView::refresh);
    // Nothing of the previous class stays on screen: past and planned blocks, the shown job.
    connect(m_instructor, &InstructorPanel::clusterReset, this, [this] {
        m_timelineModel->clearJobs();
        m_details->showJob(0);
    });
    const auto showJob = [this, details](qint64 jobId) {
        m_details->showJob(jobId);
        details->raise();
    };
    connect(m_timeline, &TimelineView::jobClicked, this, showJob);
    connect(m_history, &HistoryView::jobSelected, this, showJob);
    connect(history, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_history->model()->rowCount() == 0) {
            m_history->refresh();
        }
    });
    connect(m_jobs, &JobTableModel::countsChanged, this, &MainWindow::showCounts);
    connect(m_queue, &QueueView::jobSelected, this, [this, details](qint64 jobId) {
        m_details->showJob(jobId);
        if (jobId != 0) {
            details->raise();
        }
    });

    showStatus(m_link->statusText());
    showCounts(m_jobs->pendingCount(), m_jobs->runningCount());
    if (!options.shellProgram.isEmpty()) {
        m_terminals->openTab();
    }
    m_link->start();
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addDock(QWidget *view, const char *name, Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(this);
    dock->setObjectName(QLatin1String(name));
    dock->setWidget(view);
    addDockWidget(area, dock);
    m_docks.append(dock);
    return dock;
}

void MainWindow::createMenus()
{
    m_fileMenu = menuBar()->addMenu(QString());
    m_newTab = m_fileMenu->addAction(QString());
    m_newTab->setObjectName(QStringLiteral("newTerminalAction"));
    m_newTab->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    m_newTab->setEnabled(!m_terminals->program().isEmpty());
    connect(m_newTab, &QAction::triggered, m_terminals, &TerminalTabs::openTab);
    m_external = m_fileMenu->addAction(QString());
    m_external->setObjectName(QStringLiteral("externalTerminalAction"));
    m_external->setEnabled(!m_terminals->program().isEmpty());
    connect(m_external, &QAction::triggered, this, &MainWindow::openInSystemTerminal);
    m_fileMenu->addSeparator();
    m_quit = m_fileMenu->addAction(QString());
    m_quit->setObjectName(QStringLiteral("quitAction"));
    m_quit->setShortcut(QKeySequence::Quit);
    m_quit->setMenuRole(QAction::QuitRole);
    connect(m_quit, &QAction::triggered, this, &QWidget::close);

    m_viewMenu = menuBar()->addMenu(QString());
    for (QDockWidget *dock : m_docks) {
        m_viewMenu->addAction(dock->toggleViewAction());
    }
    m_viewMenu->addSeparator();
    m_resetLayout = m_viewMenu->addAction(QString());
    m_resetLayout->setObjectName(QStringLiteral("resetLayoutAction"));
    connect(m_resetLayout, &QAction::triggered, this, &MainWindow::resetLayout);
    m_viewMenu->addSeparator();
    m_zoomIn = m_viewMenu->addAction(QString());
    m_zoomIn->setObjectName(QStringLiteral("zoomInAction"));
    m_zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal),
        QKeySequence(Qt::CTRL | Qt::Key_Plus), QKeySequence(QKeySequence::ZoomIn)});
    connect(m_zoomIn, &QAction::triggered, this, [this] { zoomBy(1); });
    m_zoomOut = m_viewMenu->addAction(QString());
    m_zoomOut->setObjectName(QStringLiteral("zoomOutAction"));
    m_zoomOut->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Minus), QKeySequence(QKeySequence::ZoomOut)});
    connect(m_zoomOut, &QAction::triggered, this, [this] { zoomBy(-1); });
    m_zoomReset = m_viewMenu->addAction(QString());
    m_zoomReset->setObjectName(QStringLiteral("zoomResetAction"));
    m_zoomReset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_zoomReset, &QAction::triggered, this, [this] { zoomBy(-m_zoomSteps); });
    createLanguageMenu();
}

void MainWindow::createLanguageMenu()
{
    m_languageMenu = menuBar()->addMenu(QString());
    m_languageMenu->setObjectName(QStringLiteral("languageMenu"));
    m_languages = new QActionGroup(this);
    m_languages->setExclusive(true);
    const QString saved = savedLanguage();
    const auto addLanguage = [this, &saved](QAction *action, const QString &code) {
        action->setCheckable(true);
        action->setData(code);
        action->setChecked(code == saved);
        m_languages->addAction(action);
        m_languageMenu->addAction(action);
        connect(action, &QAction::triggered, this, [code] {
            saveLanguage(code);
            installLanguage(code);
        });
    };
    m_systemLanguage = new QAction(this);
    m_systemLanguage->setObjectName(QStringLiteral("systemLanguageAction"));
    addLanguage(m_systemLanguage, QString());
    m_languageMenu->addSeparator();
    // Each language is named in itself, so that anyone can find theirs.
    auto *english = new QAction(QStringLiteral("English"), this);
    english->setObjectName(QStringLiteral("languageAction_en"));
    addLanguage(english, QStringLiteral("en"));
    auto *french = new QAction(QStringLiteral("Français"), this);
    french->setObjectName(QStringLiteral("languageAction_fr"));
    addLanguage(french, QStringLiteral("fr"));
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
}

void MainWindow::retranslateUi()
{
    setWindowTitle(tr("minicluster"));
    m_notIsolated->setText(tr("Users are not isolated from each other"));
    m_notIsolated->setToolTip(tr("Every user of this cluster runs as your own user on this "
                                 "computer: classmates can read, change and kill each other's "
                                 "files and jobs. Run minicluster as root to give each user an "
                                 "id of its own."));
    m_docks[0]->setWindowTitle(tr("Queue"));
    m_docks[1]->setWindowTitle(tr("Nodes"));
    m_docks[2]->setWindowTitle(tr("Job details"));
    m_docks[3]->setWindowTitle(tr("Timeline"));
    m_docks[4]->setWindowTitle(tr("History"));
    m_docks[5]->setWindowTitle(tr("Filesystems"));
    m_docks[6]->setWindowTitle(tr("Submit"));
    m_docks[7]->setWindowTitle(tr("Instructor"));
    m_docks[8]->setWindowTitle(tr("Lessons"));
    m_externalButton->setText(tr("Open in my terminal"));
    m_externalButton->setToolTip(tr("Open the same login shell in your own terminal program"));
    m_fileMenu->setTitle(tr("&File"));
    m_newTab->setText(tr("New &Terminal Tab"));
    m_external->setText(tr("Open the Shell in &My Terminal"));
    m_quit->setText(tr("&Quit"));
    m_viewMenu->setTitle(tr("&View"));
    m_resetLayout->setText(tr("&Reset Layout"));
    m_zoomIn->setText(tr("Zoom &In"));
    m_zoomOut->setText(tr("Zoom &Out"));
    m_zoomReset->setText(tr("&Normal Size"));
    m_languageMenu->setTitle(tr("&Language"));
    m_systemLanguage->setText(tr("System Language"));
    m_link->retranslate(); // the status bar follows through statusChanged
    showCounts(m_jobs->pendingCount(), m_jobs->runningCount());
}

void MainWindow::resetLayout()
{
    restoreState(m_defaultLayout);
    for (QDockWidget *dock : std::as_const(m_docks)) {
        dock->setFloating(false);
        dock->show();
    }
    m_docks[1]->raise(); // nodes above the job details, timeline above the other bottom docks
    m_docks[3]->raise();
    fitToScreen();
}

void MainWindow::fitToScreen()
{
    // The whole window, its frame included, within a laptop's 1280×800 and the screen's free
    // area (panels left out).
    QSize limit(1280, 800);
    if (const QScreen *where = screen()) {
        limit = limit.boundedTo(where->availableSize());
    }
    const QSize frame = frameGeometry().size() - geometry().size();
    limit -= frame;
    if (width() > limit.width() || height() > limit.height()) {
        resize(size().boundedTo(limit));
    }
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_shownOnce) {
        m_shownOnce = true;
        fitToScreen(); // the frame is known now
    }
}

void MainWindow::zoomBy(int steps)
{
    m_zoomSteps = std::clamp(m_zoomSteps + steps, -3, 10);
    QFont zoomed = font();
    zoomed.setPointSizeF(m_basePointSize * (1.0 + 0.1 * m_zoomSteps));
    setFont(zoomed); // every view inherits the size: none sets its own
}

void MainWindow::openInSystemTerminal()
{
    QString error;
    if (!m_terminals->openInSystemTerminal(&error)) {
        QMessageBox::information(this, tr("Open the shell in my terminal"), error);
    }
}

bool MainWindow::runInTerminal(const QString &command)
{
    if (m_terminals->program().isEmpty()) {
        QMessageBox::information(this, tr("Run in the terminal"),
            tr("This window has no terminal; run this in your shell:\n%1").arg(command));
        return false;
    }
    mc::term::TerminalView *view = m_terminals->currentView();
    if (!view) {
        view = m_terminals->openTab();
    }
    view->screen()->paste(command);
    view->screen()->sendKey(mc::term::TerminalScreen::Key::Enter);
    view->setFocus();
    return true;
}

void MainWindow::updatePartitions()
{
    // The partitions and slurm.conf's default one come from the controller's `cluster` reply;
    // while it does not answer, the nodes' partitions (the first as default).
    QStringList fromNodes;
    for (int row = 0; row < m_nodes->rowCount(); ++row) {
        const QString text
            = m_nodes->index(row, NodeTableModel::columnIndex(NodeTableModel::Column::Partitions))
                  .data()
                  .toString();
        for (const QString &name : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!fromNodes.contains(name)) {
                fromNodes << name;
            }
        }
    }
    m_submit->setPartitions(fromNodes);
    m_requests->send(mc::proto::Json::object().set("op", "cluster"), m_submit,
        [this](const mc::proto::Json &reply) {
            if (!reply["ok"].toBool()) {
                return;
            }
            QStringList names;
            QString defaultName;
            for (const auto &partition : reply["partitions"].items()) {
                const QString name = QString::fromStdString(partition["name"].toString());
                names << name;
                if (partition["default"].toBool() && defaultName.isEmpty()) {
                    defaultName = name;
                }
            }
            m_submit->setPartitions(names, defaultName);
        });
}

void MainWindow::createStatusBar()
{
    m_connectionStatus = new QLabel(this);
    m_connectionStatus->setObjectName(QStringLiteral("connectionStatus"));
    m_connectionStatus->setToolTip(m_link->socketPath());
    m_jobCounts = new QLabel(this);
    m_jobCounts->setObjectName(QStringLiteral("jobCounts"));
    m_jobCounts->setVisible(m_link->isConnected());
    m_notIsolated = new QLabel(this);
    m_notIsolated->setObjectName(QStringLiteral("usersNotIsolated"));
    statusBar()->addWidget(m_connectionStatus, 1);
    statusBar()->addPermanentWidget(m_notIsolated);
    statusBar()->addPermanentWidget(m_jobCounts);
    updateIsolationNotice();
}

void MainWindow::updateIsolationNotice()
{
    // The sandbox the cluster was started with (run/sandbox, written by `minicluster up`); the
    // ids are the daemons', which are this app's when it started the cluster.
    QFile mode(QDir(m_clusterDir).filePath(QStringLiteral("run/sandbox")));
    const bool bubblewrap = mode.open(QIODevice::ReadOnly)
        && mode.readLine().trimmed() == QByteArrayLiteral("bubblewrap");
    m_notIsolated->setVisible(!(bubblewrap && mc::proto::usersIsolated()));
}

void MainWindow::onConnectedChanged(bool connected)
{
    if (!connected) {
        // While disconnected the cluster's state is unknown; the next snapshot brings it back.
        m_jobs->clear();
        m_nodes->clear();
        m_details->clear();
    }
    m_jobCounts->setVisible(connected);
    updateIsolationNotice(); // a cluster the app has just started
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
