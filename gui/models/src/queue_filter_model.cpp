#include "mc/gui/queue_filter_model.h"

#include "mc/gui/array_group_model.h"
#include "mc/gui/job_table_model.h"
#include "mc/sched/job_state.h"

namespace mc::gui {

namespace {

std::optional<mc::sched::JobState> stateOf(const QString &name)
{
    return mc::sched::parseJobState(name.toStdString());
}

} // namespace

QueueFilterModel::QueueFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(JobTableModel::SortRole);
    // Rows change state (PD -> R -> CD) as events arrive: filter and sort again each time.
    setDynamicSortFilter(true);
}

void QueueFilterModel::setUser(const QString &user)
{
    m_user = user;
    invalidateFilter();
}

void QueueFilterModel::setPartition(const QString &partition)
{
    m_partition = partition;
    invalidateFilter();
}

void QueueFilterModel::setState(const QString &state)
{
    m_state = state;
    invalidateFilter();
}

void QueueFilterModel::setShowFinished(bool show)
{
    m_showFinished = show;
    invalidateFilter();
}

bool QueueFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const QModelIndex first = sourceModel()->index(sourceRow, 0, sourceParent);
    const bool isArray = first.data(ArrayGroupModel::ArrayGroupRole).toBool();
    // An array's summary (no record left) has no state of its own: only its tasks count.
    const bool isSummary = isArray && first.data(JobTableModel::JobIdRole).toLongLong() == 0;
    if (!isSummary && acceptsJob(sourceRow, sourceParent)) {
        return true;
    }
    if (!isArray) {
        return false;
    }
    // Not Qt's recursive filtering: ArrayGroupModel signals a change of the array's row whenever
    // one of its tasks arrives, goes or changes state, which makes this judge it again.
    for (int task = 0; task < sourceModel()->rowCount(first); ++task) {
        if (acceptsJob(task, first)) {
            return true;
        }
    }
    return false;
}

bool QueueFilterModel::acceptsJob(int sourceRow, const QModelIndex &sourceParent) const
{
    const QAbstractItemModel *jobs = sourceModel();
    const auto text = [&](JobTableModel::Column column) {
        return jobs->index(sourceRow, JobTableModel::columnIndex(column), sourceParent)
            .data()
            .toString();
    };
    const QString stateName
        = jobs->index(sourceRow, 0, sourceParent).data(JobTableModel::StateRole).toString();
    const auto state = stateOf(stateName);
    if (!m_showFinished && state && mc::sched::isFinished(*state) && m_state.isEmpty()) {
        return false;
    }
    if (!m_state.isEmpty() && stateOf(m_state) != state) {
        return false;
    }
    if (!m_user.isEmpty() && text(JobTableModel::Column::User) != m_user) {
        return false;
    }
    if (!m_partition.isEmpty() && text(JobTableModel::Column::Partition) != m_partition) {
        return false;
    }
    return true;
}

} // namespace mc::gui
