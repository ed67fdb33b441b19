#include "mc/gui/queue_view.h"

#include "mc/gui/array_group_model.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/queue_filter_model.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QStackedLayout>
#include <QTreeView>
#include <QVBoxLayout>

namespace mc::gui {

namespace {

// squeue -t accepts these; the long names are Slurm's and not translated.
constexpr const char *kStates[] = {"PENDING", "RUNNING", "SUSPENDED", "COMPLETING", "COMPLETED",
    "CANCELLED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL"};

} // namespace

QueueView::QueueView(JobTableModel *model, QString me, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_me(std::move(me))
    , m_groups(new ArrayGroupModel(this))
    , m_proxy(new QueueFilterModel(this))
    , m_tree(new QTreeView(this))
    , m_message(new QLabel(this))
{
    m_groups->setSourceModel(model);
    m_proxy->setSourceModel(m_groups);

    m_tree->setObjectName(QStringLiteral("queueTable"));
    m_tree->setModel(m_proxy);
    m_tree->setSortingEnabled(true);
    m_tree->sortByColumn(
        JobTableModel::columnIndex(JobTableModel::Column::JobId), Qt::AscendingOrder);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setAlternatingRowColors(true);
    m_tree->setWordWrap(false);
    m_tree->setAllColumnsShowFocus(true);
    // Every row is one line: the view lays out 10,000 rows without asking each its height.
    m_tree->setUniformRowHeights(true);
    m_tree->setIndentation(m_tree->fontMetrics().horizontalAdvance(QLatin1Char('0')) * 2);
    // Fixed widths: resizing to contents walks every row, too slow with 10,000 jobs.
    m_tree->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_tree->header()->setStretchLastSection(true);
    const int digit = m_tree->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    // JOBID holds the expand arrow and `1234_[5-10%4]` (longer ones are elided).
    const int widths[JobTableModel::kColumnCount] = {10, 8, 9, 7, 3, 7, 5, 12};
    for (int c = 0; c < JobTableModel::kColumnCount; ++c) {
        m_tree->setColumnWidth(c, widths[c] * digit + 12);
    }

    m_message->setObjectName(QStringLiteral("notConnectedMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setTextFormat(Qt::RichText);
    m_message->setWordWrap(true);
    m_message->setMargin(24);

    auto *page = new QWidget(this);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 0, 0, 0);
    pageLayout->setSpacing(2);
    pageLayout->addWidget(createFilterBar());
    pageLayout->addWidget(m_tree, 1);

    m_stack = new QStackedLayout(this);
    m_stack->addWidget(page);
    m_stack->addWidget(m_message);
    retranslateUi();
    setConnectionState(false, QString());

    connect(model, &QAbstractItemModel::rowsInserted, this,
        [this](const QModelIndex &, int first, int last) { notePartitions(first, last); });
    connect(model, &QAbstractItemModel::modelReset, this,
        [this] { notePartitions(0, m_model->rowCount() - 1); });
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            Q_EMIT jobSelected(
                current.isValid() ? current.data(JobTableModel::JobIdRole).toLongLong() : 0);
        });
}

bool QueueView::selectJob(qint64 jobId)
{
    const QModelIndex source = m_groups->indexOfJob(jobId);
    const QModelIndex shown = m_proxy->mapFromSource(source);
    if (!shown.isValid()) {
        return false;
    }
    if (shown.parent().isValid()) {
        m_tree->expand(shown.parent());
    }
    m_tree->setCurrentIndex(shown);
    m_tree->scrollTo(shown);
    return true;
}

QWidget *QueueView::createFilterBar()
{
    auto *bar = new QWidget(this);
    auto *layout = new QHBoxLayout(bar);
    layout->setContentsMargins(4, 2, 4, 2);

    m_users = new QComboBox(bar);
    m_users->setObjectName(QStringLiteral("userFilter"));
    m_users->addItem(QString());
    m_users->addItem(QString(), m_me);
    m_partitions = new QComboBox(bar);
    m_partitions->setObjectName(QStringLiteral("partitionFilter"));
    m_partitions->addItem(QString());
    m_states = new QComboBox(bar);
    m_states->setObjectName(QStringLiteral("stateFilter"));
    m_states->addItem(QString());
    for (const char *state : kStates) {
        m_states->addItem(QString::fromLatin1(state), QString::fromLatin1(state));
    }
    m_finished = new QCheckBox(bar);
    m_finished->setObjectName(QStringLiteral("showFinished"));

    layout->addWidget(m_users);
    layout->addWidget(m_partitions);
    layout->addWidget(m_states);
    layout->addWidget(m_finished);
    layout->addStretch(1);

    for (QComboBox *combo : {m_users, m_partitions, m_states}) {
        connect(combo, &QComboBox::currentIndexChanged, this, &QueueView::applyFilters);
    }
    connect(m_finished, &QCheckBox::toggled, this, &QueueView::applyFilters);
    return bar;
}

void QueueView::applyFilters()
{
    m_proxy->setUser(m_users->currentData().toString());
    m_proxy->setPartition(m_partitions->currentData().toString());
    m_proxy->setState(m_states->currentData().toString());
    m_proxy->setShowFinished(m_finished->isChecked());
}

void QueueView::notePartitions(int firstRow, int lastRow)
{
    const int column = JobTableModel::columnIndex(JobTableModel::Column::Partition);
    for (int row = firstRow; row <= lastRow; ++row) {
        const QString partition = m_model->index(row, column).data().toString();
        if (!partition.isEmpty() && m_partitions->findData(partition) < 0) {
            m_partitions->addItem(partition, partition);
        }
    }
}

void QueueView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        setConnectionState(m_connected, m_status);
    }
}

void QueueView::retranslateUi()
{
    m_users->setItemText(0, tr("All users"));
    m_users->setItemText(1, tr("My jobs (%1)").arg(m_me));
    m_partitions->setItemText(0, tr("All partitions"));
    m_states->setItemText(0, tr("All states"));
    m_finished->setText(tr("Show finished jobs"));
    m_finished->setToolTip(
        tr("Like squeue -t all: also list the jobs that ended in the last 5 minutes."));
}

void QueueView::setConnectionState(bool connected, const QString &status)
{
    m_connected = connected;
    m_status = status;
    if (connected) {
        m_stack->setCurrentIndex(0);
        return;
    }
    m_message->setText(
        QStringLiteral("<p><b>%1</b></p><p>%2</p><p>%3</p>")
            .arg(tr("Not connected to the cluster.").toHtmlEscaped(), status.toHtmlEscaped(),
                tr("Start the cluster with “minicluster up”; this window "
                   "connects to it as soon as it runs.")
                    .toHtmlEscaped()));
    m_stack->setCurrentWidget(m_message);
}

} // namespace mc::gui
