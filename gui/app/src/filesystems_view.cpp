#include "mc/gui/filesystems_view.h"

#include "mc/gui/file_ages.h"
#include "mc/gui/storage_files.h"

#include <QDateTime>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace mc::gui {

namespace {

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

QProgressBar *usageBar(qint64 used, qint64 quota, const QString &text)
{
    auto *bar = new QProgressBar;
    bar->setRange(0, 1000);
    bar->setTextVisible(true);
    bar->setFormat(text);
    if (quota > 0) {
        bar->setValue(static_cast<int>(std::min<qint64>(1000, used * 1000 / quota)));
        if (used > quota) {
            bar->setStyleSheet(QStringLiteral("QProgressBar::chunk { background: #d03030; }"));
        }
    } else {
        bar->setValue(0);
    }
    return bar;
}

} // namespace

FilesystemsView::FilesystemsView(
    QString clusterDir, QString user, std::function<qint64()> clock, QWidget *parent)
    : QWidget(parent)
    , m_clusterDir(std::move(clusterDir))
    , m_user(std::move(user))
    , m_clock(std::move(clock))
    , m_quotaTitle(new QLabel(this))
    , m_quotaStatus(new QLabel(this))
    , m_quota(new QTableWidget(this))
    , m_filesTitle(new QLabel(this))
    , m_clockNote(new QLabel(this))
    , m_files(new QTreeWidget(this))
    , m_tmpdirTitle(new QLabel(this))
    , m_tmpdirs(new QTreeWidget(this))
    , m_refresh(new QPushButton(this))
    , m_timer(new QTimer(this))
{
    setObjectName(QStringLiteral("filesystemsView"));
    m_quota->setObjectName(QStringLiteral("quotaTable"));
    m_quotaStatus->setObjectName(QStringLiteral("quotaStatus"));
    m_files->setObjectName(QStringLiteral("filesTree"));
    m_tmpdirs->setObjectName(QStringLiteral("tmpdirTree"));
    m_quotaStatus->setWordWrap(true);
    m_clockNote->setObjectName(QStringLiteral("clockNote"));
    m_clockNote->setWordWrap(true);
    m_clockNote->hide();
    m_quota->setColumnCount(3);
    m_quota->verticalHeader()->hide();
    m_quota->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_quota->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_quota->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_quota->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_files->setColumnCount(4);
    m_files->setRootIsDecorated(true);
    m_files->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tmpdirs->setColumnCount(4);
    m_tmpdirs->setRootIsDecorated(false);
    m_tmpdirs->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    for (QLabel *title : {m_quotaTitle, m_filesTitle, m_tmpdirTitle}) {
        QFont bold; // only the weight: the size follows the window's (projector zoom)
        bold.setBold(true);
        title->setFont(bold);
        title->setWordWrap(true); // a long title must not widen the whole window
    }

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_quotaTitle);
    topLayout->addWidget(m_quotaStatus);
    topLayout->addWidget(m_quota);
    auto *middle = new QWidget(this);
    auto *middleLayout = new QVBoxLayout(middle);
    middleLayout->setContentsMargins(0, 0, 0, 0);
    middleLayout->addWidget(m_filesTitle);
    middleLayout->addWidget(m_clockNote);
    middleLayout->addWidget(m_files);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_tmpdirTitle);
    bottomLayout->addWidget(m_tmpdirs);
    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(top);
    splitter->addWidget(middle);
    splitter->addWidget(bottom);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_refresh, 0, Qt::AlignLeft);
    layout->addWidget(splitter, 1);

    m_timer->setInterval(kRefreshInterval);
    connect(m_timer, &QTimer::timeout, this, &FilesystemsView::refresh);
    connect(m_refresh, &QPushButton::clicked, this, &FilesystemsView::refresh);
    retranslateUi();
}

QString FilesystemsView::quotaStatus() const
{
    return m_quotaStatus->text();
}

void FilesystemsView::updateJob(const mc::record::JobObject &job)
{
    const qint64 id = job.jobId > 0 ? job.jobId : -1;
    const auto &nodes = job.nodes;
    if (job.state == "RUNNING" && !nodes.empty()) {
        m_running.insert(
            id, {QString::fromStdString(job.user), QString::fromStdString(nodes.front())});
    } else {
        m_running.remove(id);
    }
}

void FilesystemsView::resetJobs(const QList<mc::record::JobObject> &jobs)
{
    m_running.clear();
    for (const auto &job : jobs) {
        updateJob(job);
    }
    if (isVisible()) {
        refreshTmpdirs();
    }
}

void FilesystemsView::refresh()
{
    refreshQuotas();
    refreshFiles();
    refreshTmpdirs();
}

void FilesystemsView::refreshQuotas()
{
    m_quota->setRowCount(0);
    const QString path = QDir(m_clusterDir).filePath(QStringLiteral("run/storage/usage.tsv"));
    const auto snapshot = parseUsageSnapshot(readText(path));
    if (!snapshot) {
        m_quotaStatus->setText(tr("Quotas are not available yet: the storage node has not "
                                  "published a usage snapshot (%1).")
                                   .arg(path));
        return;
    }
    m_quotaStatus->setText(tr("Measured by the storage node at %1 (cluster clock), %2 ago.")
                               .arg(QDateTime::fromSecsSinceEpoch(snapshot->measuredAt)
                                        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                                   ageText(m_clock() - snapshot->measuredAt)));
    for (const UsageEntry &e : snapshot->entries) {
        const int row = m_quota->rowCount();
        m_quota->insertRow(row);
        const QString who = e.filesystem == QLatin1String("project")
            ? tr("/%1 (group %2)").arg(e.filesystem, e.owner)
            : tr("/%1 (user %2)").arg(e.filesystem, e.owner);
        m_quota->setItem(row, 0, new QTableWidgetItem(who));
        m_quota->setCellWidget(row, 1,
            usageBar(e.bytes, e.spaceQuota,
                e.spaceQuota > 0 ? tr("%1 of %2").arg(sizeText(e.bytes), sizeText(e.spaceQuota))
                                 : tr("%1, no quota").arg(sizeText(e.bytes))));
        m_quota->setCellWidget(row, 2,
            usageBar(e.files, e.fileQuota,
                e.fileQuota > 0 ? tr("%1 of %2 files").arg(e.files).arg(e.fileQuota)
                                : tr("%1 files, no quota").arg(e.files)));
    }
}

void FilesystemsView::noteClock(qint64 now, double speed)
{
    Q_UNUSED(now);
    if (speed > 0) {
        m_speed = speed;
    }
    if (isVisible()) {
        refreshFiles(); // a fast-forward ages every file at once
    }
}

QString FilesystemsView::clockNote() const
{
    return m_clockNote->text();
}

QString FilesystemsView::fileCount(qint64 count)
{
    // Two sentences rather than "%n file(s)": English has no translation file to pick the form.
    return count == 1 ? tr("1 file") : tr("%1 files").arg(count);
}

QString FilesystemsView::purgeText(const FileAge &age)
{
    const auto day = [](qint64 t) {
        return QDateTime::fromSecsSinceEpoch(t).toString(QStringLiteral("yyyy-MM-dd"));
    };
    switch (age.purge) {
    case PurgeState::None:
        return {};
    case PurgeState::ToBeListed:
        return tr("purge candidate (goes on the notice at the next check): deleted from %1 at "
                  "the earliest")
            .arg(day(age.purgeAt));
    case PurgeState::Listed:
        return tr("purge candidate (listed %1): deleted from %2")
            .arg(day(age.listedAt), day(age.purgeAt));
    case PurgeState::Due:
        return tr("purge due: deleted at the storage node's next check");
    }
    return {};
}

void FilesystemsView::refreshFiles()
{
    m_files->clear();
    // Ages are judged on the cluster clock, which an instructor may have sped up or
    // fast-forwarded, through the storage node's journal of it (see file_ages.h).
    const qint64 wallNow = QDateTime::currentSecsSinceEpoch();
    const qint64 clusterNow = m_clock() > 0 ? m_clock() : wallNow;
    const FileAgeJudge judge = FileAgeJudge::load(m_clusterDir, wallNow, clusterNow, m_speed);
    const qint64 ahead = clusterNow - wallNow;
    m_clockNote->setVisible(ahead >= 3600);
    if (ahead >= 3600) {
        m_clockNote->setText(tr("The cluster clock is %1 ahead of this computer's (%2): ages "
                                "and the purge count that time.")
                                 // to the nearest hour: the clock is read a moment late
                                 .arg(ageText((ahead + 1800) / 3600 * 3600),
                                     QDateTime::fromSecsSinceEpoch(clusterNow)
                                         .toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
    }
    const QDir cluster(m_clusterDir);
    const auto listed = parsePurgeList(
        readText(cluster.filePath(QStringLiteral("run/storage/purge-%1.tsv").arg(m_user))));
    struct Root {
        QString shown;
        QString host;
        QString filesystem;
    };
    const QList<Root> roots{
        {QStringLiteral("/home/%1").arg(m_user), cluster.filePath(QStringLiteral("home/") + m_user),
            QStringLiteral("home")},
        {QStringLiteral("/scratch/%1").arg(m_user),
            cluster.filePath(QStringLiteral("scratch/") + m_user), QStringLiteral("scratch")},
        {QStringLiteral("/project"), cluster.filePath(QStringLiteral("project")),
            QStringLiteral("project")},
        {QStringLiteral("/datasets"), cluster.filePath(QStringLiteral("datasets")),
            QStringLiteral("datasets")},
    };
    for (const Root &root : roots) {
        const TreeFacts facts = scanFiles(root.host, 100);
        auto *top = new QTreeWidgetItem(m_files);
        top->setText(0, root.shown);
        if (!facts.exists) {
            top->setText(1, tr("not there"));
            continue;
        }
        top->setText(1, sizeText(facts.bytes));
        top->setText(
            2, facts.truncated ? tr("over %1 files").arg(facts.count) : fileCount(facts.count));
        const QList<FileAge> ages
            = judge.judge(facts.files, purgePolicyOf(m_clusterDir, root.filesystem), listed);
        int candidates = 0;
        for (qsizetype i = 0; i < facts.files.size(); ++i) {
            const FileFacts &file = facts.files[i];
            const FileAge &age = ages[i];
            auto *item = new QTreeWidgetItem(top);
            item->setText(0, QString(file.path).replace(root.host, root.shown));
            item->setText(1, sizeText(file.size));
            item->setText(2, tr("unused for %1").arg(ageText(age.age)));
            item->setToolTip(2,
                tr("Last used %1 on the cluster clock.")
                    .arg(QDateTime::fromSecsSinceEpoch(age.lastUse)
                             .toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
            if (age.purge != PurgeState::None) {
                ++candidates;
                item->setText(3, purgeText(age));
                item->setForeground(3, QColor(200, 40, 40));
            }
        }
        if (candidates > 0) {
            top->setText(3,
                candidates == 1 ? tr("1 file on the purge notice")
                                : tr("%1 files on the purge notice").arg(candidates));
        }
    }
    m_files->expandToDepth(0);
    for (int c = 1; c < 4; ++c) {
        m_files->resizeColumnToContents(c);
    }
}

void FilesystemsView::refreshTmpdirs()
{
    m_tmpdirs->clear();
    for (auto it = m_running.cbegin(); it != m_running.cend(); ++it) {
        const QString host = slurmTmpdirOnHost(m_clusterDir, it->node, it->user, it.key());
        const TreeFacts facts = scanFiles(host, 0);
        auto *item = new QTreeWidgetItem(m_tmpdirs);
        item->setData(0, Qt::DisplayRole, it.key()); // sorts as a number: 2 before 10
        item->setText(
            1, QStringLiteral("%1:/localscratch/%2.%3.0").arg(it->node, it->user).arg(it.key()));
        item->setText(2, facts.exists ? sizeText(facts.bytes) : tr("not created"));
        item->setText(3, facts.exists ? fileCount(facts.count) : QString());
    }
    m_tmpdirs->sortItems(0, Qt::AscendingOrder);
    for (int c = 0; c < 4; ++c) {
        m_tmpdirs->resizeColumnToContents(c);
    }
}

void FilesystemsView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    m_timer->start();
}

void FilesystemsView::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    m_timer->stop();
}

void FilesystemsView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
}

void FilesystemsView::retranslateUi()
{
    m_refresh->setText(tr("Refresh"));
    m_quotaTitle->setText(tr("Usage and quotas (diskusage_report)"));
    m_quota->setHorizontalHeaderLabels({tr("Filesystem"), tr("Space"), tr("Files")});
    m_filesTitle->setText(tr("Your files, the longest unused first, aged on the cluster clock "
                             "(the scratch purge removes files unused for too long)"));
    m_files->setHeaderLabels({tr("Path"), tr("Size"), tr("Age"), tr("Purge")});
    m_tmpdirTitle->setText(tr("$SLURM_TMPDIR of running jobs (node-local disk, removed when "
                              "the job ends)"));
    m_tmpdirs->setHeaderLabels({tr("Job"), tr("$SLURM_TMPDIR"), tr("Size"), tr("Files")});
    if (isVisible()) {
        refresh();
    }
}

} // namespace mc::gui
