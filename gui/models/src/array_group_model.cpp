#include "mc/gui/array_group_model.h"

#include "job_row.h"
#include "mc/gui/job_table_model.h"

#include <algorithm>
#include <utility>

namespace mc::gui {

namespace {

using Column = JobTableModel::Column;

constexpr int column(Column c)
{
    return JobTableModel::columnIndex(c);
}

// Where a changed job shows: under `parent` (0: top level, else the array's id) at `row`.
struct Place {
    qint64 parent = 0;
    int row = 0;
    friend bool operator<(const Place &a, const Place &b)
    {
        return a.parent != b.parent ? a.parent < b.parent : a.row < b.row;
    }
};

} // namespace

ArrayGroupModel::ArrayGroupModel(QObject *parent)
    : QAbstractItemModel(parent)
{ }

ArrayGroupModel::~ArrayGroupModel() = default;

void ArrayGroupModel::setSourceModel(JobTableModel *jobs)
{
    beginResetModel();
    if (m_jobs) {
        disconnect(m_jobs, nullptr, this, nullptr);
    }
    m_jobs = jobs;
    rebuild();
    endResetModel();
    if (!m_jobs) {
        return;
    }
    connect(m_jobs, &QAbstractItemModel::rowsInserted, this,
        [this](const QModelIndex &, int first, int last) {
            for (int row = first; row <= last; ++row) {
                addJob(row);
            }
        });
    // The store's rows are still there before they go: their job ids say which of ours to remove.
    connect(m_jobs, &QAbstractItemModel::rowsAboutToBeRemoved, this,
        [this](const QModelIndex &, int first, int last) {
            for (int row = last; row >= first; --row) {
                removeJob(m_jobs->jobIdAt(row));
            }
        });
    connect(m_jobs, &QAbstractItemModel::dataChanged, this, &ArrayGroupModel::sourceRowsChanged);
    connect(m_jobs, &QAbstractItemModel::headerDataChanged, this,
        &QAbstractItemModel::headerDataChanged);
    // The store never moves rows; a reset (or a layout change) is taken as a new start.
    connect(
        m_jobs, &QAbstractItemModel::modelAboutToBeReset, this, &ArrayGroupModel::beginResetModel);
    connect(m_jobs, &QAbstractItemModel::modelReset, this, [this] {
        rebuild();
        endResetModel();
    });
    connect(m_jobs, &QAbstractItemModel::layoutChanged, this, [this] {
        beginResetModel();
        rebuild();
        endResetModel();
    });
}

void ArrayGroupModel::rebuild()
{
    m_tops.clear();
    m_topRowOfJob.clear();
    m_groups.clear();
    m_arrayOfJob.clear();
    m_dirtyFrom = INT_MAX;
    if (!m_jobs) {
        return;
    }
    for (int row = 0; row < m_jobs->rowCount(); ++row) {
        const qint64 jobId = m_jobs->jobIdAt(row);
        const qint64 arrayId = m_jobs->arrayJobIdAt(row);
        if (arrayId == 0) {
            m_topRowOfJob.insert(jobId, static_cast<int>(m_tops.size()));
            m_tops.push_back({jobId, false});
            continue;
        }
        m_arrayOfJob.insert(jobId, arrayId);
        auto group = m_groups.find(arrayId);
        if (group == m_groups.end()) {
            group = m_groups.insert(arrayId, Group{});
            group->topRow = static_cast<int>(m_tops.size());
            m_tops.push_back({arrayId, true});
        }
        if (m_jobs->arrayTaskIdAt(row) < 0) {
            group->record = jobId;
        } else {
            group->taskRow.insert(jobId, static_cast<int>(group->tasks.size()));
            group->tasks.push_back(jobId);
        }
    }
}

QModelIndex ArrayGroupModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= JobTableModel::kColumnCount) {
        return {};
    }
    if (!parent.isValid()) {
        return row < static_cast<int>(m_tops.size()) ? createIndex(row, column, quintptr{0})
                                                     : QModelIndex();
    }
    if (parent.model() != this || parent.internalId() != 0 || parent.column() != 0) {
        return {};
    }
    const Top &top = m_tops[static_cast<std::size_t>(parent.row())];
    if (!top.group) {
        return {};
    }
    const auto group = m_groups.constFind(top.key);
    if (row >= static_cast<int>(group->tasks.size())) {
        return {};
    }
    return createIndex(row, column, static_cast<quintptr>(top.key));
}

QModelIndex ArrayGroupModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0) {
        return {};
    }
    const auto arrayId = static_cast<qint64>(child.internalId());
    return createIndex(topRowOf(arrayId, true), 0, quintptr{0});
}

int ArrayGroupModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid()) {
        return static_cast<int>(m_tops.size());
    }
    if (parent.internalId() != 0 || parent.column() != 0) {
        return 0;
    }
    const Top &top = m_tops[static_cast<std::size_t>(parent.row())];
    return top.group ? static_cast<int>(m_groups.constFind(top.key)->tasks.size()) : 0;
}

int ArrayGroupModel::columnCount(const QModelIndex &) const
{
    return JobTableModel::kColumnCount;
}

bool ArrayGroupModel::hasChildren(const QModelIndex &parent) const
{
    return rowCount(parent) > 0;
}

Qt::ItemFlags ArrayGroupModel::flags(const QModelIndex &index) const
{
    if (!index.isValid()) {
        return Qt::NoItemFlags;
    }
    Qt::ItemFlags flags = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    if (index.internalId() != 0 || !m_tops[static_cast<std::size_t>(index.row())].group) {
        flags |= Qt::ItemNeverHasChildren;
    }
    return flags;
}

QVariant ArrayGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_jobs ? m_jobs->headerData(section, orientation, role) : QVariant();
}

QModelIndex ArrayGroupModel::sourceIndexOfJob(qint64 jobId, int column) const
{
    const int row = m_jobs->rowOfJob(jobId);
    return row < 0 ? QModelIndex() : m_jobs->index(row, column);
}

QModelIndex ArrayGroupModel::mapToSource(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this) {
        return {};
    }
    if (index.internalId() != 0) {
        const auto group = m_groups.constFind(static_cast<qint64>(index.internalId()));
        return sourceIndexOfJob(
            group->tasks[static_cast<std::size_t>(index.row())], index.column());
    }
    const Top &top = m_tops[static_cast<std::size_t>(index.row())];
    if (!top.group) {
        return sourceIndexOfJob(top.key, index.column());
    }
    const qint64 record = m_groups.constFind(top.key)->record;
    return record != 0 ? sourceIndexOfJob(record, index.column()) : QModelIndex();
}

QVariant ArrayGroupModel::data(const QModelIndex &index, int role) const
{
    // Called for every cell painted, sorted and filtered: the checks stay cheap (no parent
    // lookup), the index being one of ours.
    if (!index.isValid() || index.model() != this) {
        return {};
    }
    const bool isGroup
        = index.internalId() == 0 && m_tops[static_cast<std::size_t>(index.row())].group;
    if (role == ArrayGroupRole) {
        return isGroup;
    }
    if (!isGroup) {
        return mapToSource(index).data(role);
    }
    const qint64 arrayId = m_tops[static_cast<std::size_t>(index.row())].key;
    const Group &group = *m_groups.constFind(arrayId);
    if (role == Qt::ToolTipRole) {
        return group.tasks.empty() ? tr("No task of this array has started yet.")
                                   : tr("Started tasks: %1").arg(taskCounts(group));
    }
    if (group.record != 0) {
        return sourceIndexOfJob(group.record, index.column()).data(role);
    }
    return summaryData(group, arrayId, index.column(), role);
}

QVariant ArrayGroupModel::summaryData(
    const Group &group, qint64 arrayId, int columnNumber, int role) const
{
    const QModelIndex first = sourceIndexOfJob(group.tasks.front(), columnNumber);
    const auto which = static_cast<Column>(columnNumber);
    const bool shared
        = which == Column::Partition || which == Column::Name || which == Column::User;
    switch (role) {
    case Qt::DisplayRole:
        if (which == Column::JobId) {
            return QString::number(arrayId); // the whole array, as scancel and squeue -j name it
        }
        if (which == Column::NodeList) {
            return summaryText(group);
        }
        return shared ? first.data(role) : QVariant();
    case Qt::TextAlignmentRole:
        return first.data(role);
    case JobTableModel::JobIdRole:
        return qint64{0};
    case JobTableModel::StateRole:
        return QString();
    case JobTableModel::ArrayJobIdRole:
        return arrayId;
    case JobTableModel::ArrayTaskIdRole:
        return qint64{-1};
    case JobTableModel::SortRole: {
        JobRow row;
        row.arrayJobId = arrayId;
        switch (which) {
        case Column::JobId:
            return groupedSortKey(row);
        case Column::Time:
        case Column::Nodes:
            return qint64{0};
        case Column::NodeList:
            return summaryText(group);
        default:
            return shared ? first.data(role) : QString();
        }
    }
    default:
        return {};
    }
}

QString ArrayGroupModel::summaryText(const Group &group) const
{
    return group.tasks.size() == 1
        ? tr("1 task: %1").arg(taskCounts(group))
        : tr("%1 tasks: %2").arg(group.tasks.size()).arg(taskCounts(group));
}

QString ArrayGroupModel::taskCounts(const Group &group) const
{
    if (!group.summary.isEmpty()) {
        return group.summary;
    }
    // Slurm's short state names, in the order the tasks first reach them.
    QList<std::pair<QString, int>> counts;
    const int stateColumn = column(Column::State);
    for (const qint64 task : group.tasks) {
        const QString state = sourceIndexOfJob(task, stateColumn).data().toString();
        const auto found = std::find_if(
            counts.begin(), counts.end(), [&state](const auto &c) { return c.first == state; });
        if (found == counts.end()) {
            counts.append({state, 1});
        } else {
            ++found->second;
        }
    }
    QStringList parts;
    for (const auto &[state, count] : counts) {
        parts << QStringLiteral("%1 %2").arg(count).arg(state);
    }
    group.summary = parts.join(QStringLiteral(", "));
    return group.summary;
}

QModelIndex ArrayGroupModel::indexOfJob(qint64 jobId, int column) const
{
    if (m_topRowOfJob.contains(jobId)) {
        return index(topRowOf(jobId, false), column);
    }
    const auto array = m_arrayOfJob.constFind(jobId);
    if (array == m_arrayOfJob.cend()) {
        return {};
    }
    const Group &group = *m_groups.constFind(*array);
    if (group.record == jobId) {
        return index(topRowOf(*array, true), column);
    }
    return createIndex(group.taskRow.value(jobId), column, static_cast<quintptr>(*array));
}

QModelIndex ArrayGroupModel::indexOfArray(qint64 arrayJobId, int column) const
{
    return m_groups.contains(arrayJobId) ? index(topRowOf(arrayJobId, true), column)
                                         : QModelIndex();
}

int ArrayGroupModel::topRowOf(qint64 key, bool group) const
{
    const int stored = group ? m_groups.constFind(key)->topRow : m_topRowOfJob.value(key);
    if (stored < m_dirtyFrom) {
        return stored;
    }
    renumberTops();
    return group ? m_groups.constFind(key)->topRow : m_topRowOfJob.value(key);
}

void ArrayGroupModel::renumberTops() const
{
    for (int row = m_dirtyFrom; row < static_cast<int>(m_tops.size()); ++row) {
        const Top &top = m_tops[static_cast<std::size_t>(row)];
        if (top.group) {
            m_groups.find(top.key)->topRow = row;
        } else {
            m_topRowOfJob.insert(top.key, row);
        }
    }
    m_dirtyFrom = INT_MAX;
}

void ArrayGroupModel::appendTop(const Top &top)
{
    const int row = static_cast<int>(m_tops.size());
    beginInsertRows({}, row, row);
    m_tops.push_back(top);
    if (top.group) {
        m_groups.find(top.key)->topRow = row;
    } else {
        m_topRowOfJob.insert(top.key, row);
    }
    endInsertRows();
}

void ArrayGroupModel::removeTop(int row)
{
    beginRemoveRows({}, row, row);
    const Top top = m_tops[static_cast<std::size_t>(row)];
    m_tops.erase(m_tops.begin() + row);
    if (top.group) {
        m_groups.remove(top.key);
    } else {
        m_topRowOfJob.remove(top.key);
    }
    m_dirtyFrom = std::min(m_dirtyFrom, row);
    endRemoveRows();
}

void ArrayGroupModel::addJob(int sourceRow)
{
    const qint64 jobId = m_jobs->jobIdAt(sourceRow);
    const qint64 arrayId = m_jobs->arrayJobIdAt(sourceRow);
    if (arrayId == 0) {
        appendTop({jobId, false});
        return;
    }
    const bool isRecord = m_jobs->arrayTaskIdAt(sourceRow) < 0;
    m_arrayOfJob.insert(jobId, arrayId);
    auto group = m_groups.find(arrayId);
    if (group == m_groups.end()) {
        // The array's row arrives whole: with its record, or with its first task as a child.
        Group created;
        if (isRecord) {
            created.record = jobId;
        } else {
            created.tasks.push_back(jobId);
            created.taskRow.insert(jobId, 0);
        }
        m_groups.insert(arrayId, std::move(created));
        appendTop({arrayId, true});
        return;
    }
    if (isRecord) {
        group->record = jobId;
        groupChanged(arrayId, false);
    } else {
        addTask(*group, arrayId, jobId);
        groupChanged(arrayId, true);
    }
}

void ArrayGroupModel::removeJob(qint64 jobId)
{
    if (m_topRowOfJob.contains(jobId)) {
        removeTop(topRowOf(jobId, false));
        return;
    }
    const auto array = m_arrayOfJob.constFind(jobId);
    if (array == m_arrayOfJob.cend()) {
        return;
    }
    const qint64 arrayId = *array;
    m_arrayOfJob.erase(array);
    Group &group = *m_groups.find(arrayId);
    const bool lastOne = (group.record == jobId && group.tasks.empty())
        || (group.record == 0 && group.tasks.size() == 1);
    if (lastOne) {
        removeTop(topRowOf(arrayId, true));
        return;
    }
    if (group.record == jobId) {
        group.record = 0; // every task started: the row now summarizes them
        groupChanged(arrayId, false);
        return;
    }
    removeTask(group, arrayId, jobId);
    groupChanged(arrayId, true);
}

void ArrayGroupModel::addTask(Group &group, qint64 arrayId, qint64 jobId)
{
    const int row = static_cast<int>(group.tasks.size());
    beginInsertRows(index(topRowOf(arrayId, true), 0), row, row);
    group.tasks.push_back(jobId);
    group.taskRow.insert(jobId, row);
    group.summary.clear();
    endInsertRows();
}

void ArrayGroupModel::removeTask(Group &group, qint64 arrayId, qint64 jobId)
{
    const int row = group.taskRow.value(jobId);
    beginRemoveRows(index(topRowOf(arrayId, true), 0), row, row);
    group.tasks.erase(group.tasks.begin() + row);
    group.taskRow.remove(jobId);
    for (int later = row; later < static_cast<int>(group.tasks.size()); ++later) {
        group.taskRow.insert(group.tasks[static_cast<std::size_t>(later)], later);
    }
    group.summary.clear();
    endRemoveRows();
}

void ArrayGroupModel::groupChanged(qint64 arrayId, bool summaryOnly)
{
    const int row = topRowOf(arrayId, true);
    m_groups.find(arrayId)->summary.clear();
    const QModelIndex first = index(row, 0);
    const QModelIndex last = index(row, JobTableModel::kColumnCount - 1);
    if (summaryOnly) {
        // The tooltip of every cell, and NODELIST(REASON) of a summary row.
        Q_EMIT dataChanged(
            first, last, {Qt::ToolTipRole, Qt::DisplayRole, JobTableModel::SortRole});
    } else {
        Q_EMIT dataChanged(first, last);
    }
}

void ArrayGroupModel::sourceRowsChanged(
    const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles)
{
    const int stateColumn = column(Column::State);
    const bool stateMayChange
        = topLeft.column() <= stateColumn && stateColumn <= bottomRight.column();
    std::vector<Place> places;
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
        const qint64 jobId = m_jobs->jobIdAt(row);
        const auto array = m_arrayOfJob.constFind(jobId);
        if (array == m_arrayOfJob.cend()) {
            places.push_back({0, topRowOf(jobId, false)});
            continue;
        }
        const qint64 arrayId = *array;
        Group &group = *m_groups.find(arrayId);
        const bool isRecord = m_jobs->arrayTaskIdAt(row) < 0;
        if (group.record == jobId && !isRecord) {
            // The record became the array's last task (it keeps the array's id).
            group.record = 0;
            addTask(group, arrayId, jobId);
            groupChanged(arrayId, false);
        } else if (group.record != jobId && isRecord) {
            removeTask(group, arrayId, jobId);
            group.record = jobId;
            groupChanged(arrayId, false);
        } else if (group.record == jobId) {
            places.push_back({0, topRowOf(arrayId, true)});
        } else {
            places.push_back({arrayId, group.taskRow.value(jobId)});
            if (stateMayChange) {
                groupChanged(arrayId, true);
            }
        }
    }
    // One dataChanged per run of consecutive rows under the same parent.
    std::sort(places.begin(), places.end());
    const auto parentIndex = [this](qint64 parent) {
        return parent == 0 ? QModelIndex() : index(topRowOf(parent, true), 0);
    };
    for (std::size_t first = 0; first < places.size();) {
        std::size_t last = first;
        while (last + 1 < places.size() && places[last + 1].parent == places[first].parent
            && places[last + 1].row == places[last].row + 1) {
            ++last;
        }
        const QModelIndex parent = parentIndex(places[first].parent);
        Q_EMIT dataChanged(index(places[first].row, topLeft.column(), parent),
            index(places[last].row, bottomRight.column(), parent), roles);
        first = last + 1;
    }
}

} // namespace mc::gui
