#include "mc/gui/queue_view.h"

#include "mc/gui/job_table_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStackedLayout>
#include <QTableView>

namespace mc::gui {

QueueView::QueueView(JobTableModel *model, QWidget *parent)
    : QWidget(parent)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_message(new QLabel(this))
    , m_stack(new QStackedLayout(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(JobTableModel::SortRole);

    m_table->setObjectName(QStringLiteral("queueTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(
        JobTableModel::columnIndex(JobTableModel::Column::JobId), Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);

    m_message->setObjectName(QStringLiteral("notConnectedMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setTextFormat(Qt::RichText);
    m_message->setWordWrap(true);
    m_message->setMargin(24);

    m_stack->addWidget(m_table);
    m_stack->addWidget(m_message);
    setConnectionState(false, QString());
}

void QueueView::setConnectionState(bool connected, const QString &status)
{
    if (connected) {
        m_stack->setCurrentWidget(m_table);
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
