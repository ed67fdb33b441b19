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
#include <QVBoxLayout>

namespace mc::gui {

namespace {

constexpr int kSlotSize = 12;
constexpr int kSlotGap = 2;

// Paints a node's CPUs as a row of cpuSlots coloured by the job holding each.
class CpuSlotsDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
        const QModelIndex &index) const override
    {
        QStyledItemDelegate::paint(painter, option, QModelIndex()); // background, selection
        const QVariantList cpuSlots = index.data(NodeTableModel::CpuSlotsRole).toList();
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
        const auto slotCount
            = static_cast<int>(index.data(NodeTableModel::CpuSlotsRole).toList().size());
        const int textWidth = option.fontMetrics.horizontalAdvance(QStringLiteral("000/000 "));
        return {8 + textWidth + slotCount * (kSlotSize + kSlotGap),
            std::max(kSlotSize + 6, option.fontMetrics.height() + 4)};
    }
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
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setItemDelegateForColumn(
        NodeTableModel::columnIndex(NodeTableModel::Column::Cpus), new CpuSlotsDelegate(m_table));

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
    const auto holders = m_model->holdersAt(row);
    if (holders.isEmpty()) {
        lines << tr("No job runs on it.");
    }
    for (const auto &holder : holders) {
        lines << tr("Job %1 (%2): CPUs %3").arg(holder.jobId).arg(holder.user).arg(holder.cpus);
    }
    m_details->setText(lines.join(QLatin1Char('\n')));
}

} // namespace mc::gui
