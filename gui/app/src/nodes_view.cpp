#include "mc/gui/nodes_view.h"

#include "mc/gui/node_table_model.h"

#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPainter>
#include <QSortFilterProxyModel>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace mc::gui {

namespace {

constexpr int kSlotSize = 12;
constexpr int kSlotGap = 2;

// Paints a node's CPUs (or GPUs) as a row of slots coloured by the job holding each.
class CpuSlotsDelegate : public QStyledItemDelegate {
public:
    CpuSlotsDelegate(QObject *parent, int role = NodeTableModel::CpuSlotsRole)
        : QStyledItemDelegate(parent)
        , m_role(role)
    { }

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override
    {
        QStyledItemDelegate::paint(painter, option, QModelIndex()); // background, selection
        const QVariantList cpuSlots = index.data(m_role).toList();
        const QString label = index.data().toString();
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        const QRect area = option.rect.adjusted(4, 0, -4, 0);
        const int textWidth = option.fontMetrics.horizontalAdvance(QStringLiteral("000/000 "));
        painter->setPen(option.palette.color(QPalette::Text));
        painter->drawText(area.left(), area.top(), textWidth, area.height(),
            Qt::AlignVCenter | Qt::AlignLeft, label);
        int x = area.left() + textWidth;
        const int y = area.top() + (area.height() - kSlotSize) / 2;
        for (const QVariant &slot : cpuSlots) {
            if (x + kSlotSize > area.right()) {
                break;
            }
            const qint64 jobId = slot.toLongLong();
            const QRect box(x, y, kSlotSize, kSlotSize);
            if (jobId != 0) {
                painter->fillRect(box, jobId > 0 ? NodesView::jobColor(jobId) : QColor(Qt::gray));
            }
            painter->setPen(option.palette.color(QPalette::Mid));
            painter->drawRect(box.adjusted(0, 0, -1, -1));
            x += kSlotSize + kSlotGap;
        }
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const auto slotCount = static_cast<int>(index.data(m_role).toList().size());
        const int textWidth = option.fontMetrics.horizontalAdvance(QStringLiteral("000/000 "));
        return {8 + textWidth + slotCount * (kSlotSize + kSlotGap),
            std::max(kSlotSize + 6, option.fontMetrics.height() + 4)};
    }

private:
    int m_role;
};

// Paints a node's memory as a bar, each job's share in its colour (grey: jobs not known here).
class MemoryBarDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override
    {
        QStyledItemDelegate::paint(painter, option, QModelIndex());
        const auto total = index.data(NodeTableModel::MemoryTotalRole).toLongLong();
        painter->save();
        const QRect area = option.rect.adjusted(4, 0, -4, 0);
        const int textWidth
            = option.fontMetrics.horizontalAdvance(QStringLiteral("000000/000000 "));
        painter->setPen(option.palette.color(QPalette::Text));
        painter->drawText(area.left(), area.top(), textWidth, area.height(),
            Qt::AlignVCenter | Qt::AlignLeft, index.data().toString());
        const QRect bar(area.left() + textWidth, area.top() + (area.height() - kSlotSize) / 2,
            std::max(0, std::min(kMemoryBarWidth, area.width() - textWidth)), kSlotSize);
        double x = bar.left();
        for (const QVariant &entry : index.data(NodeTableModel::MemoryBlocksRole).toList()) {
            const QVariantList pair = entry.toList();
            if (total <= 0 || pair.size() != 2) {
                break;
            }
            const qint64 jobId = pair[0].toLongLong();
            const double width = bar.width() * pair[1].toDouble() / static_cast<double>(total);
            const QRectF piece(x, bar.top(), std::min(width, bar.right() - x), bar.height());
            painter->fillRect(piece, jobId > 0 ? NodesView::jobColor(jobId) : QColor(Qt::gray));
            x += width;
        }
        painter->setPen(option.palette.color(QPalette::Mid));
        painter->drawRect(bar.adjusted(0, 0, -1, -1));
        painter->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const override
    {
        return {8 + option.fontMetrics.horizontalAdvance(QStringLiteral("000000/000000 "))
                + kMemoryBarWidth,
            std::max(kSlotSize + 6, option.fontMetrics.height() + 4)};
    }

private:
    static constexpr int kMemoryBarWidth = 120;
};

} // namespace

QColor NodesView::jobColor(qint64 jobId)
{
    // Golden-angle hues, with saturation and brightness varied too: neighbouring job ids get
    // clearly different colours.
    const int hue = static_cast<int>((jobId * 137) % 360);
    const int saturation = 110 + static_cast<int>(jobId % 3) * 55;
    const int value = 240 - static_cast<int>(jobId % 2) * 45;
    return QColor::fromHsv(hue, saturation, value);
}

NodesView::NodesView(NodeTableModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_details(new QLabel(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(NodeTableModel::SortRole);

    m_table->setObjectName(QStringLiteral("nodesTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(
        std::max(kSlotSize + 6, m_table->fontMetrics().height() + 6));
    // Columns are fitted to their contents when nodes are added, not at every change: with
    // 200 nodes, ResizeToContents would walk every row at each allocation.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *fit = new QTimer(this);
    fit->setSingleShot(true);
    fit->setInterval(0);
    connect(fit, &QTimer::timeout, m_table, &QTableView::resizeColumnsToContents);
    connect(model, &QAbstractItemModel::rowsInserted, fit, qOverload<>(&QTimer::start));
    connect(model, &QAbstractItemModel::modelReset, fit, qOverload<>(&QTimer::start));
    m_table->setItemDelegateForColumn(
        NodeTableModel::columnIndex(NodeTableModel::Column::Cpus), new CpuSlotsDelegate(m_table));
    m_table->setItemDelegateForColumn(NodeTableModel::columnIndex(NodeTableModel::Column::Memory),
        new MemoryBarDelegate(m_table));
    m_table->setItemDelegateForColumn(NodeTableModel::columnIndex(NodeTableModel::Column::Gpus),
        new CpuSlotsDelegate(m_table, NodeTableModel::GpuSlotsRole));

    m_details->setObjectName(QStringLiteral("nodeDetails"));
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setMargin(4);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_details);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &NodesView::showDetails);
    connect(model, &QAbstractItemModel::dataChanged, this, &NodesView::showDetails);
    showDetails();
}

void NodesView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        showDetails();
    }
}

QString NodesView::detailsText() const
{
    return m_details->text();
}

void NodesView::showDetails()
{

    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid()) {
        m_details->setText(tr("Click a node to see the jobs on it."));
        return;
    }
    const int row = m_proxy->mapToSource(current).row();
    const auto cell = [this, row](NodeTableModel::Column column) {
        return m_model->index(row, NodeTableModel::columnIndex(column)).data().toString();
    };
    QStringList lines;
    lines << tr("%1: %2, partitions %3. CPUs %4 allocated/total, memory %5 MiB, GPUs %6.")
                 .arg(cell(NodeTableModel::Column::Name),
                     m_model->index(row, 0).data(NodeTableModel::StateRole).toString(),
                     cell(NodeTableModel::Column::Partitions), cell(NodeTableModel::Column::Cpus),
                     cell(NodeTableModel::Column::Memory), cell(NodeTableModel::Column::Gpus));
    const QString reason
        = m_model->index(row, NodeTableModel::columnIndex(NodeTableModel::Column::State))
              .data(Qt::ToolTipRole)
              .toString();
    if (!reason.isEmpty()) {
        lines << tr("Reason: %1").arg(reason);
    }
    const auto holders = m_model->holdersAt(row);
    if (holders.isEmpty()) {
        lines << tr("No job runs on it.");
    }
    for (const auto &holder : holders) {
        lines << tr("Job %1 (%2): CPUs %3, memory %4 MiB, GPUs %5")
                     .arg(holder.jobId)
                     .arg(holder.user)
                     .arg(holder.cpus)
                     .arg(holder.memoryMb)
                     .arg(holder.gpus);
    }
    m_details->setText(lines.join(QLatin1Char('\n')));
}

} // namespace mc::gui
