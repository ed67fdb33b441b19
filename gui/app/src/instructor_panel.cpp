#include "mc/gui/instructor_panel.h"

#include "mc/gui/background_load.h"
#include "mc/gui/node_table_model.h"
#include "mc/gui/request_client.h"
#include "mc/sched/site_conf.h"

#include <QComboBox>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFile>
#include <QFileDialog>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace mc::gui {

InstructorPanel::InstructorPanel(RequestClient *requests, NodeTableModel *nodes, QString clusterDir,
    QString launcher, QStringList launcherArguments, QStringList users, QWidget *parent)
    : QWidget(parent)
    , m_requests(requests)
    , m_nodes(nodes)
    , m_clusterDir(std::move(clusterDir))
    , m_launcher(std::move(launcher))
    , m_launcherArguments(std::move(launcherArguments))
    , m_users(std::move(users))
    , m_load(new BackgroundLoad(requests, this))
    , m_clockBox(new QGroupBox(this))
    , m_speedLabel(new QLabel(this))
    , m_speed(new QDoubleSpinBox(this))
    , m_setSpeed(new QPushButton(this))
    , m_advanceLabel(new QLabel(this))
    , m_days(new QSpinBox(this))
    , m_hours(new QSpinBox(this))
    , m_advance(new QPushButton(this))
    , m_clock(new QLabel(this))
    , m_nodeBox(new QGroupBox(this))
    , m_node(new QComboBox(this))
    , m_reason(new QLineEdit(this))
    , m_drain(new QPushButton(this))
    , m_fail(new QPushButton(this))
    , m_down(new QPushButton(this))
    , m_resume(new QPushButton(this))
    , m_nodeResult(new QLabel(this))
    , m_loadBox(new QGroupBox(this))
    , m_rateLabel(new QLabel(this))
    , m_rate(new QDoubleSpinBox(this))
    , m_generate(new QPushButton(this))
    , m_replayLabel(new QLabel(this))
    , m_replaySpeed(new QDoubleSpinBox(this))
    , m_replay(new QPushButton(this))
    , m_stopLoad(new QPushButton(this))
    , m_loadStatus(new QLabel(this))
    , m_resetBox(new QGroupBox(this))
    , m_reset(new QPushButton(this))
    , m_resetStatus(new QLabel(this))
{
    setObjectName(QStringLiteral("instructorPanel"));
    m_speed->setObjectName(QStringLiteral("clockSpeed"));
    m_setSpeed->setObjectName(QStringLiteral("clockSetSpeed"));
    m_advance->setObjectName(QStringLiteral("clockAdvance"));
    m_clock->setObjectName(QStringLiteral("clockStatus"));
    m_node->setObjectName(QStringLiteral("instructorNode"));
    m_drain->setObjectName(QStringLiteral("nodeDrain"));
    m_fail->setObjectName(QStringLiteral("nodeFail"));
    m_down->setObjectName(QStringLiteral("nodeDown"));
    m_resume->setObjectName(QStringLiteral("nodeResume"));
    m_nodeResult->setObjectName(QStringLiteral("nodeResult"));
    m_generate->setObjectName(QStringLiteral("loadGenerate"));
    m_stopLoad->setObjectName(QStringLiteral("loadStop"));
    m_loadStatus->setObjectName(QStringLiteral("loadStatus"));
    m_reset->setObjectName(QStringLiteral("clusterReset"));

    m_speed->setRange(0.1, 100000);
    m_speed->setDecimals(1);
    m_speed->setValue(1.0);
    m_speed->setSuffix(QStringLiteral(" ×"));
    m_days->setRange(0, 365);
    m_hours->setRange(0, 23);
    m_days->setValue(1);
    m_rate->setRange(0.1, 600);
    m_rate->setValue(6);
    m_replaySpeed->setRange(1, 100000);
    m_replaySpeed->setValue(60);
    m_replaySpeed->setSuffix(QStringLiteral(" ×"));
    for (QLabel *label : {m_clock, m_nodeResult, m_loadStatus, m_resetStatus}) {
        label->setWordWrap(true);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }

    auto *clock = new QGridLayout(m_clockBox);
    clock->addWidget(m_speedLabel, 0, 0);
    clock->addWidget(m_speed, 0, 1);
    clock->addWidget(m_setSpeed, 0, 2, 1, 2);
    clock->addWidget(m_advanceLabel, 1, 0);
    clock->addWidget(m_days, 1, 1);
    clock->addWidget(m_hours, 1, 2);
    clock->addWidget(m_advance, 1, 3);
    clock->addWidget(m_clock, 2, 0, 1, 4);

    auto *node = new QGridLayout(m_nodeBox);
    node->addWidget(m_node, 0, 0);
    node->addWidget(m_reason, 0, 1, 1, 3);
    node->addWidget(m_drain, 1, 0);
    node->addWidget(m_fail, 1, 1);
    node->addWidget(m_down, 1, 2);
    node->addWidget(m_resume, 1, 3);
    node->addWidget(m_nodeResult, 2, 0, 1, 4);

    auto *load = new QGridLayout(m_loadBox);
    load->addWidget(m_rateLabel, 0, 0);
    load->addWidget(m_rate, 0, 1);
    load->addWidget(m_generate, 0, 2);
    load->addWidget(m_replayLabel, 1, 0);
    load->addWidget(m_replaySpeed, 1, 1);
    load->addWidget(m_replay, 1, 2);
    load->addWidget(m_stopLoad, 2, 2);
    load->addWidget(m_loadStatus, 3, 0, 1, 3);

    auto *reset = new QVBoxLayout(m_resetBox);
    reset->addWidget(m_reset, 0, Qt::AlignLeft);
    reset->addWidget(m_resetStatus);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_clockBox);
    layout->addWidget(m_nodeBox);
    layout->addWidget(m_loadBox);
    layout->addWidget(m_resetBox);
    layout->addStretch(1);

    connect(m_setSpeed, &QPushButton::clicked, this, [this] { setClock(m_speed->value(), 0); });
    auto *tick = new QTimer(this);
    tick->setInterval(1000);
    connect(tick, &QTimer::timeout, this, [this] {
        if (m_clockNow > 0 && m_clockError.isEmpty()) {
            renderClock();
        }
    });
    tick->start();
    connect(m_advance, &QPushButton::clicked, this,
        [this] { setClock(0, (qint64{m_days->value()} * 24 + m_hours->value()) * 3600); });
    const auto nodeAction = [this](QPushButton *button, const char *state) {
        connect(button, &QPushButton::clicked, this, [this, state] {
            updateNode(m_node->currentText(), QString::fromLatin1(state), m_reason->text());
        });
    };
    nodeAction(m_drain, "drain");
    nodeAction(m_fail, "fail");
    nodeAction(m_down, "down");
    nodeAction(m_resume, "resume");
    // Node names are refreshed once after a batch of new rows (a snapshot inserts them one by
    // one).
    auto *names = new QTimer(this);
    names->setSingleShot(true);
    names->setInterval(0);
    connect(names, &QTimer::timeout, this, &InstructorPanel::refreshNodeNames);
    connect(m_nodes, &QAbstractItemModel::rowsInserted, names, qOverload<>(&QTimer::start));
    connect(m_nodes, &QAbstractItemModel::modelReset, names, qOverload<>(&QTimer::start));
    connect(m_generate, &QPushButton::clicked, this, [this] {
        // Each job sized from its partition's own limits (the controller's `cluster` reply);
        // without them, the default partition and the largest node's CPUs.
        m_requests->send(mc::proto::Json::object().set("op", "cluster"), this,
            [this](const mc::proto::Json &reply) {
                const auto seed = static_cast<quint32>(QDateTime::currentMSecsSinceEpoch());
                auto partitions = partitionLimits(reply);
                if (partitions.empty()) {
                    m_load->startGenerator(m_users, m_rate->value(), largestNodeCpus(), seed);
                } else {
                    m_load->startGenerator(m_users, m_rate->value(), std::move(partitions), seed);
                }
                showLoad();
            });
    });
    connect(m_replay, &QPushButton::clicked, this, &InstructorPanel::loadWorkloadFile);
    connect(m_stopLoad, &QPushButton::clicked, this, [this] {
        m_load->stop();
        showLoad();
    });
    connect(m_load, &BackgroundLoad::progress, this, &InstructorPanel::showLoad);
    connect(m_reset, &QPushButton::clicked, this, &InstructorPanel::resetCluster);
    refreshNodeNames();
    retranslateUi();
}

QStringList InstructorPanel::usersOfCluster(const QString &clusterDir)
{
    QFile file(QDir(clusterDir).filePath(QStringLiteral("etc/minicluster.conf")));
    QStringList users;
    if (!file.open(QIODevice::ReadOnly)) {
        return users;
    }
    for (const auto &user : mc::sched::parseSiteUsers(file.readAll().toStdString()).users) {
        users << QString::fromStdString(user.name);
    }
    return users;
}

QString InstructorPanel::clockText() const
{
    return m_clock->text();
}

QString InstructorPanel::nodeResultText() const
{
    return m_nodeResult->text();
}

QString InstructorPanel::loadText() const
{
    return m_loadStatus->text();
}

int InstructorPanel::largestNodeCpus() const
{
    int most = 1;
    for (int row = 0; row < m_nodes->rowCount(); ++row) {
        most = std::max(most,
            static_cast<int>(
                m_nodes->index(row, 0).data(NodeTableModel::CpuSlotsRole).toList().size()));
    }
    return most;
}

void InstructorPanel::refreshNodeNames()
{
    const QString current = m_node->currentText();
    m_node->clear();
    for (int row = 0; row < m_nodes->rowCount(); ++row) {
        m_node->addItem(m_nodes->index(row, 0).data(NodeTableModel::NameRole).toString());
    }
    if (!current.isEmpty()) {
        m_node->setCurrentText(current);
    }
}

void InstructorPanel::setClock(double speed, qint64 advance)
{
    auto request = mc::proto::Json::object().set("op", "clock");
    if (speed > 0) {
        request.set("speed", speed);
    }
    if (advance > 0) {
        request.set("advance", static_cast<std::int64_t>(advance));
    }
    m_requests->send(request, this, [this, request](const mc::proto::Json &reply) {
        if (!reply["ok"].toBool()) {
            m_clockError = RequestClient::describeFailure(request, reply);
            m_clock->setText(m_clockError);
            return;
        }
        m_clockError.clear();
        showClock(reply["now"].toInt(), reply["speed"].toDouble(1.0));
    });
}

void InstructorPanel::showClock(qint64 now, double speed)
{
    m_clockNow = now;
    m_clockSpeed = speed;
    m_clockSince.start();
    m_clockError.clear();
    renderClock();
}

void InstructorPanel::renderClock()
{
    const auto now = m_clockNow
        + static_cast<qint64>(static_cast<double>(m_clockSince.elapsed()) * m_clockSpeed / 1000.0);
    m_clock->setText(
        tr("Cluster clock: %1, running at %2× real time.")
            .arg(QDateTime::fromSecsSinceEpoch(now).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")))
            .arg(m_clockSpeed));
}

void InstructorPanel::updateNode(const QString &node, const QString &state, const QString &reason)
{
    if (node.isEmpty()) {
        m_nodeResult->setText(tr("Choose a node first."));
        return;
    }
    if (state != QLatin1String("resume") && reason.trimmed().isEmpty()) {
        // scontrol refuses to drain or down a node without a reason, and so do we.
        m_nodeResult->setText(tr("Give a reason: Slurm requires one to drain, fail or down a "
                                 "node (sinfo -R shows it)."));
        return;
    }
    const auto request = mc::proto::Json::object()
                             .set("op", "node_update")
                             .set("node", node.toStdString())
                             .set("state", state.toStdString())
                             .set("reason", reason.trimmed().toStdString())
                             .set("user", kInstructor);
    m_requests->send(request, this, [this, request, node, state](const mc::proto::Json &reply) {
        m_nodeResult->setText(reply["ok"].toBool()
                ? tr("%1: %2 done.").arg(node, state)
                : tr("%1: %2 refused: %3")
                      .arg(node, state, RequestClient::describeFailure(request, reply)));
    });
}

void InstructorPanel::showLoad()
{
    QString text
        = m_load->isRunning() ? tr("Background users are submitting.") : tr("No background load.");
    if (m_users.isEmpty()) {
        text = tr("No classmates are defined in etc/minicluster.conf: no background load.");
    }
    text += QLatin1Char(' ')
        + tr("%1 submitted, %2 refused.").arg(m_load->submitted()).arg(m_load->refused());
    if (!m_load->lastError().isEmpty()) {
        text += QLatin1Char(' ') + tr("Last refusal: %1").arg(m_load->lastError());
    }
    m_loadStatus->setText(text);
}

void InstructorPanel::loadWorkloadFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Workload file (SWF)"), QString(),
        tr("Standard Workload Format (*.swf *.txt);;All files (*)"));
    if (path.isEmpty()) {
        return;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_loadStatus->setText(tr("Cannot read %1.").arg(path));
        return;
    }
    int skipped = 0;
    const auto jobs = parseSwf(QString::fromUtf8(file.readAll()), &skipped);
    if (jobs.empty()) {
        m_loadStatus->setText(tr("%1 has no job lines in the Standard Workload Format.").arg(path));
        return;
    }
    m_load->startReplay(jobs, m_users, m_replaySpeed->value(), largestNodeCpus());
    showLoad();
}

void InstructorPanel::resetCluster()
{
    if (m_launcher.isEmpty()) {
        m_resetStatus->setText(tr("Resetting needs the minicluster command, which was not found "
                                  "next to this program."));
        return;
    }
    const auto answer = QMessageBox::question(this, tr("Reset the cluster"),
        tr("Stop the cluster, delete its queue and its whole job history, and start it again? "
           "The cluster clock goes back to real time. Files in home, project and scratch are "
           "kept."));
    if (answer != QMessageBox::Yes) {
        return;
    }
    m_load->stop();
    m_load->resetCounts();
    showLoad(); // the classmates stopped: say so at once
    m_reset->setEnabled(false);
    m_resetStatus->setText(tr("Stopping the cluster…"));
    // `minicluster up` on a stopped cluster probes its settings afresh: give it those the
    // cluster was started with (a --time-scale in particular).
    const QStringList upArguments
        = m_launcherArguments + startSettings(m_clusterDir) + QStringList{QStringLiteral("up")};
    runLauncher(m_launcherArguments + QStringList{QStringLiteral("down")},
        [this, upArguments](int code, const QString &output) {
            if (code != 0) {
                finishReset(tr("minicluster down failed: %1").arg(output));
                return;
            }
            waitForDaemonsToStop(QDeadlineTimer(kStopTimeout), [this, upArguments] {
                removeClusterState(m_clusterDir);
                m_resetStatus->setText(tr("Starting the cluster again…"));
                runLauncher(upArguments, [this](int upCode, const QString &upOutput) {
                    if (upCode != 0) {
                        finishReset(tr("minicluster up failed: %1").arg(upOutput));
                        return;
                    }
                    finishReset(tr("The cluster was reset: empty queue, no history."));
                    Q_EMIT clusterReset();
                });
            });
        });
}

void InstructorPanel::finishReset(const QString &status)
{
    m_reset->setEnabled(true);
    m_resetStatus->setText(status);
}

QString InstructorPanel::resetText() const
{
    return m_resetStatus->text();
}

void InstructorPanel::runLauncher(
    const QStringList &arguments, std::function<void(int, const QString &)> done)
{
    auto *process = new QProcess(this);
    process->setProcessChannelMode(QProcess::MergedChannels);
    connect(process, &QProcess::finished, this, [process, done](int code) {
        process->deleteLater();
        done(code, QString::fromLocal8Bit(process->readAll()).trimmed());
    });
    connect(process, &QProcess::errorOccurred, this, [process, done](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            process->deleteLater();
            done(-1, process->errorString());
        }
    });
    process->start(m_launcher, arguments);
}

QStringList InstructorPanel::startSettings(const QString &clusterDir)
{
    QFile file(QDir(clusterDir).filePath(QStringLiteral("run/noded-args")));
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    const QStringList recorded
        = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QStringList settings;
    for (qsizetype i = 0; i + 1 < recorded.size(); ++i) {
        const QString &name = recorded[i];
        if (name == QLatin1String("--sandbox") || name == QLatin1String("--limits")
            || name == QLatin1String("--time-scale")) {
            settings << name << recorded[i + 1];
        }
    }
    return settings;
}

QList<qint64> InstructorPanel::runningDaemons(const QString &clusterDir)
{
    QList<qint64> pids;
    const QDir run(QDir(clusterDir).filePath(QStringLiteral("run")));
    for (const QString &name : run.entryList({QStringLiteral("*.pid")}, QDir::Files)) {
        QFile pidFile(run.filePath(name));
        if (!pidFile.open(QIODevice::ReadOnly)) {
            continue;
        }
        const qint64 pid = pidFile.readAll().trimmed().toLongLong();
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        if (pid > 0 && comm.open(QIODevice::ReadOnly)
            && comm.readAll().startsWith("minicluster-")) {
            pids << pid;
        }
    }
    return pids;
}

void InstructorPanel::waitForDaemonsToStop(QDeadlineTimer deadline, std::function<void()> then)
{
    // `down` returns once the controller is gone; its nodes, storage and login daemons follow
    // within moments. Starting while one of them still lives would leave it out.
    if (runningDaemons(m_clusterDir).isEmpty() || deadline.hasExpired()) {
        then();
        return;
    }
    QTimer::singleShot(kStopPoll, this,
        [this, deadline, then = std::move(then)] { waitForDaemonsToStop(deadline, then); });
}

void InstructorPanel::removeClusterState(const QString &clusterDir)
{
    const QDir cluster(clusterDir);
    const QDir state(cluster.filePath(QStringLiteral("state")));
    // The queue, the accounting and the clock (ctld.sqlite), and the storage node's journal of
    // that clock, which a clock back at real time would contradict.
    for (const QString &name : state.entryList(
             {QStringLiteral("ctld.sqlite*"), QStringLiteral("storage-clock*")}, QDir::Files)) {
        QFile::remove(state.filePath(name));
    }
    // The scratch purge notices are dated on the old clock: the storage node lists again.
    const QDir storage(cluster.filePath(QStringLiteral("run/storage")));
    for (const QString &name : storage.entryList({QStringLiteral("purge-*.tsv")}, QDir::Files)) {
        QFile::remove(storage.filePath(name));
    }
}

void InstructorPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
}

void InstructorPanel::retranslateUi()
{
    m_clockBox->setTitle(tr("Cluster clock"));
    m_speedLabel->setText(tr("Speed"));
    m_setSpeed->setText(tr("Set speed"));
    m_advanceLabel->setText(tr("Fast-forward"));
    m_days->setSuffix(tr(" days"));
    m_hours->setSuffix(tr(" h"));
    m_advance->setText(tr("Fast-forward"));
    if (m_clockNow > 0) {
        renderClock();
    } else if (m_clockError.isEmpty()) {
        m_clock->setText(tr("The scheduler, time limits and the scratch purge follow the "
                            "cluster clock."));
    }
    m_nodeBox->setTitle(tr("Nodes (as the instructor, %1)").arg(QLatin1String(kInstructor)));
    m_reason->setPlaceholderText(tr("Reason, shown by sinfo -R"));
    m_drain->setText(tr("Drain"));
    m_fail->setText(tr("Fail"));
    m_down->setText(tr("Down"));
    m_resume->setText(tr("Resume"));
    m_loadBox->setTitle(tr("Background users"));
    m_rateLabel->setText(tr("Generator (jobs per minute)"));
    m_generate->setText(tr("Start the generator"));
    m_replayLabel->setText(tr("Workload file replay speed"));
    m_replay->setText(tr("Replay a workload file (SWF)…"));
    m_stopLoad->setText(tr("Stop"));
    showLoad();
    m_resetBox->setTitle(tr("Reset"));
    m_reset->setText(tr("Reset the cluster…"));
}

} // namespace mc::gui
