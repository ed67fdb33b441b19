#include "mc/gui/job_table_model.h"

#include "job_row.h"
#include "mc/record/job_object.h"
#include "mc/sched/time_format.h"

#include <QSet>
#include <QTimer>

#include <utility>

namespace mc::gui {

namespace {

using Column = JobTableModel::Column;

// squeue's default header, verbatim (not translated: these are Slurm's words).
QString columnTitle(Column column)
{
    switch (column) {
    case Column::JobId:
        return QStringLiteral("JOBID");
    case Column::Partition:
        return QStringLiteral("PARTITION");
    case Column::Name:
        return QStringLiteral("NAME");
    case Column::User:
        return QStringLiteral("USER");
    case Column::State:
        return QStringLiteral("ST");
    case Column::Time:
        return QStringLiteral("TIME");
    case Column::Nodes:
        return QStringLiteral("NODES");
    case Column::NodeList:
        return QStringLiteral("NODELIST(REASON)");
    }
    return {};
}

bool isNumeric(Column column)
{
    return column == Column::JobId || column == Column::Time || column == Column::Nodes;
}

QVariant alignment(Column column)
{
    const Qt::Alignment horizontal = isNumeric(column) ? Qt::AlignRight : Qt::AlignLeft;
    return QVariant::fromValue(horizontal | Qt::AlignVCenter);
}

} // namespace

JobTableModel::JobTableModel(QObject *parent)
    : QAbstractTableModel(parent)
    , m_refreshTimer(new QTimer(this))
{
    m_refreshTimer->setInterval(kRefreshInterval);
    connect(m_refreshTimer, &QTimer::timeout, this, &JobTableModel::refreshFromSteadyClock);
}

JobTableModel::~JobTableModel() = default;

int JobTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int JobTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant JobTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const JobRow &row = m_rows[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, column);
    case Qt::TextAlignmentRole:
        return alignment(column);
    case JobIdRole:
        return row.jobId;
    case StateRole:
        return row.state;
    case SortRole:
        return sortValue(row, column);
    case ArrayJobIdRole:
        return row.arrayJobId;
    case ArrayTaskIdRole:
        return row.arrayTaskId;
    default:
        return {};
    }
}

QVariant JobTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= kColumnCount) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const auto column = static_cast<Column>(section);
    if (role == Qt::DisplayRole) {
        return columnTitle(column);
    }
    if (role == Qt::TextAlignmentRole) {
        return alignment(column);
    }
    return {};
}

QVariant JobTableModel::displayText(const JobRow &row, Column column) const
{
    switch (column) {
    case Column::JobId:
        return displayJobId(row);
    case Column::Partition:
        return row.partition;
    case Column::Name:
        return row.name;
    case Column::User:
        return row.user;
    case Column::State:
        return row.stateShort;
    case Column::Time:
        return QString::fromStdString(mc::sched::formatElapsed(elapsedSeconds(row, m_now)));
    case Column::Nodes:
        return QString::number(row.numNodes);
    case Column::NodeList:
        return nodeListOrReason(row);
    }
    return {};
}

QVariant JobTableModel::sortValue(const JobRow &row, Column column) const
{
    switch (column) {
    case Column::JobId:
        return groupedSortKey(row);
    case Column::Time:
        return elapsedSeconds(row, m_now);
    case Column::Nodes:
        return row.numNodes;
    default:
        return displayText(row, column);
    }
}

void JobTableModel::resetJobs(const QList<mc::record::JobObject> &jobs, qint64 now)
{
    noteControllerNow(now);
    QSet<qint64> listed;
    std::vector<JobRow> rows;
    rows.reserve(static_cast<std::size_t>(jobs.size()));
    for (const mc::record::JobObject &job : jobs) {
        JobRow row = jobRowOf(job);
        if (row.jobId < 0) {
            continue;
        }
        noteControllerNow(job.now);
        listed.insert(row.jobId);
        rows.push_back(std::move(row));
    }
    for (int i = static_cast<int>(m_rows.size()) - 1; i >= 0; --i) {
        if (!listed.contains(m_rows[static_cast<std::size_t>(i)].jobId)) {
            eraseRow(i);
        }
    }
    for (JobRow &row : rows) {
        upsert(std::move(row));
    }
    removeAgedJobs();
    emitCountsIfChanged();
}

void JobTableModel::updateJob(const mc::record::JobObject &job)
{
    JobRow row = jobRowOf(job);
    if (row.jobId < 0) {
        return;
    }
    noteControllerNow(job.now);
    upsert(std::move(row));
    emitCountsIfChanged();
}

void JobTableModel::clear()
{
    if (!m_rows.empty()) {
        beginResetModel();
        m_rows.clear();
        m_rowOfJob.clear();
        m_pending = 0;
        m_running = 0;
        endResetModel();
    }
    m_refreshTimer->stop();
    emitCountsIfChanged();
}

void JobTableModel::setNow(qint64 now)
{
    if (now == m_now) {
        return;
    }
    m_now = now;
    // One dataChanged per run of consecutive live rows, on the TIME column only.
    const int timeColumn = columnIndex(Column::Time);
    const int count = static_cast<int>(m_rows.size());
    for (int first = 0; first < count; ++first) {
        if (!m_rows[static_cast<std::size_t>(first)].isLive) {
            continue;
        }
        int last = first;
        while (last + 1 < count && m_rows[static_cast<std::size_t>(last + 1)].isLive) {
            ++last;
        }
        Q_EMIT dataChanged(
            index(first, timeColumn), index(last, timeColumn), {Qt::DisplayRole, SortRole});
        first = last;
    }
    removeAgedJobs();
    emitCountsIfChanged();
}

int JobTableModel::rowOfJob(qint64 jobId) const
{
    return m_rowOfJob.value(jobId, -1);
}

qint64 JobTableModel::jobIdAt(int row) const
{
    return m_rows.at(static_cast<std::size_t>(row)).jobId;
}

QString JobTableModel::stateAt(int row) const
{
    return m_rows.at(static_cast<std::size_t>(row)).state;
}

qint64 JobTableModel::arrayJobIdAt(int row) const
{
    return m_rows.at(static_cast<std::size_t>(row)).arrayJobId;
}

qint64 JobTableModel::arrayTaskIdAt(int row) const
{
    return m_rows.at(static_cast<std::size_t>(row)).arrayTaskId;
}

void JobTableModel::noteControllerNow(qint64 now)
{
    if (now <= 0) {
        return;
    }
    m_controllerNow = now;
    m_controllerNowAt = std::chrono::steady_clock::now();
    if (!m_refreshTimer->isActive()) {
        m_refreshTimer->start();
    }
    setNow(now);
}

void JobTableModel::setClock(qint64 now, double speed)
{
    if (speed > 0) {
        m_speed = speed;
    }
    noteControllerNow(now);
}

void JobTableModel::refreshFromSteadyClock()
{
    const std::chrono::duration<double> since
        = std::chrono::steady_clock::now() - m_controllerNowAt;
    setNow(m_controllerNow + static_cast<qint64>(since.count() * m_speed));
}

void JobTableModel::upsert(JobRow row)
{
    const int existing = rowOfJob(row.jobId);
    if (existing < 0) {
        const int at = static_cast<int>(m_rows.size());
        beginInsertRows({}, at, at);
        countRow(row, +1);
        m_rowOfJob.insert(row.jobId, at);
        m_rows.push_back(std::move(row));
        endInsertRows();
        return;
    }
    JobRow &current = m_rows[static_cast<std::size_t>(existing)];
    if (current == row) {
        return;
    }
    countRow(current, -1);
    countRow(row, +1);
    current = std::move(row);
    Q_EMIT dataChanged(index(existing, 0), index(existing, kColumnCount - 1));
}

void JobTableModel::eraseRow(int row)
{
    beginRemoveRows({}, row, row);
    const auto at = m_rows.begin() + row;
    countRow(*at, -1);
    m_rowOfJob.remove(at->jobId);
    m_rows.erase(at);
    for (std::size_t i = static_cast<std::size_t>(row); i < m_rows.size(); ++i) {
        m_rowOfJob.insert(m_rows[i].jobId, static_cast<int>(i));
    }
    endRemoveRows();
}

void JobTableModel::removeAgedJobs()
{
    for (int i = static_cast<int>(m_rows.size()) - 1; i >= 0; --i) {
        const JobRow &row = m_rows[static_cast<std::size_t>(i)];
        if (row.isFinished && row.endTime > 0 && m_now - row.endTime >= kMinJobAge) {
            eraseRow(i);
        }
    }
}

void JobTableModel::countRow(const JobRow &row, int sign)
{
    m_pending += row.isPending ? sign : 0;
    m_running += row.isRunning ? sign : 0;
}

void JobTableModel::emitCountsIfChanged()
{
    if (m_pending == m_reportedPending && m_running == m_reportedRunning) {
        return;
    }
    m_reportedPending = m_pending;
    m_reportedRunning = m_running;
    Q_EMIT countsChanged(m_pending, m_running);
}

} // namespace mc::gui
