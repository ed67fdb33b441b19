#include "mc/gui/node_table_model.h"

#include "mc/proto/json.h"
#include "mc/record/job_object.h"
#include "mc/sched/job_state.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <utility>

namespace mc::gui {

namespace {

QString toQString(const mc::proto::Json &value)
{
    return QString::fromStdString(value.toString());
}

QStringList toQStringList(const std::vector<std::string> &values)
{
    QStringList list;
    list.reserve(static_cast<qsizetype>(values.size()));
    for (const std::string &s : values) {
        list.append(QString::fromStdString(s));
    }
    return list;
}

// sinfo's long and compact (%t) node state names.
constexpr std::array<std::pair<const char *, const char *>, 14> kCompactStates{{
    {"unknown", "unk"},
    {"down", "down"},
    {"idle", "idle"},
    {"allocated", "alloc"},
    {"mixed", "mix"},
    {"future", "futr"},
    {"reserved", "resv"},
    {"drained", "drain"},
    {"draining", "drng"},
    {"completing", "comp"},
    {"maint", "maint"},
    {"fail", "fail"},
    {"failing", "failg"},
    {"planned", "plnd"},
}};

// A job holds its nodes in these states (it has them allocated).
bool holdsNodes(const std::string &state)
{
    const auto parsed = mc::sched::parseJobState(state);
    return parsed
        && (*parsed == mc::sched::JobState::Running || *parsed == mc::sched::JobState::Suspended
            || *parsed == mc::sched::JobState::Completing);
}

} // namespace

NodeTableModel::NodeTableModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

NodeTableModel::~NodeTableModel() = default;

QString NodeTableModel::compactState(const QString &longState)
{
    for (const auto &[longName, compact] : kCompactStates) {
        if (longState == QLatin1String(longName)) {
            return QString::fromLatin1(compact);
        }
    }
    return longState;
}

int NodeTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int NodeTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= kColumnCount) {
        return {};
    }
    static const std::array<const char *, kColumnCount> kTitles{
        "NODELIST", "STATE", "CPUS(A/T)", "JOBS", "MEMORY(A/T)", "GPUS", "PARTITION"};
    return QString::fromLatin1(kTitles[static_cast<size_t>(section)]);
}

QVariant NodeTableModel::display(const NodeRow &row, Column column) const
{
    switch (column) {
    case Column::Name:
        return row.name;
    case Column::Partitions:
        return row.partitions.join(QLatin1Char(','));
    case Column::State:
        return compactState(row.state);
    case Column::Cpus:
        return QStringLiteral("%1/%2").arg(row.allocCpus).arg(row.cpus);
    case Column::Memory:
        return QStringLiteral("%1/%2").arg(row.allocMemory).arg(row.memory);
    case Column::Gpus:
        return row.gpus;
    case Column::Jobs: {
        QStringList ids;
        for (const Holder &h : row.holders) {
            ids.append(QString::number(h.jobId));
        }
        return ids.join(QLatin1Char(','));
    }
    }
    return {};
}

QVariant NodeTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const NodeRow &row = m_rows[static_cast<size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return display(row, column);
    case Qt::ToolTipRole:
        if (column == Column::State && !row.reason.isEmpty()) {
            return row.reason;
        }
        return {};
    case NameRole:
        return row.name;
    case StateRole:
        return row.state;
    case SortRole:
        switch (column) {
        case Column::Cpus:
            return row.allocCpus;
        case Column::Memory:
            return row.allocMemory;
        case Column::Gpus:
            return row.gpus;
        case Column::Jobs:
            return static_cast<qint64>(row.holders.size());
        default:
            return display(row, column);
        }
    case CpuSlotsRole: {
        QVariantList cpuSlots;
        for (const Holder &h : row.holders) {
            for (int i = 0; i < h.cpus && cpuSlots.size() < row.cpus; ++i) {
                cpuSlots.append(h.jobId);
            }
        }
        // The controller's count wins when jobs are not all known yet (e.g. other users').
        while (cpuSlots.size() < std::min(row.allocCpus, row.cpus)) {
            cpuSlots.append(qint64{-1});
        }
        while (cpuSlots.size() < row.cpus) {
            cpuSlots.append(qint64{0});
        }
        return cpuSlots;
    }
    case GpuSlotsRole: {
        QVariantList gpuSlots;
        for (const Holder &h : row.holders) {
            for (int i = 0; i < h.gpus && gpuSlots.size() < row.gpus; ++i) {
                gpuSlots.append(h.jobId);
            }
        }
        while (gpuSlots.size() < std::min(row.allocGpus, row.gpus)) {
            gpuSlots.append(qint64{-1});
        }
        while (gpuSlots.size() < row.gpus) {
            gpuSlots.append(qint64{0});
        }
        return gpuSlots;
    }
    case MemoryBlocksRole: {
        QVariantList blocks;
        qint64 known = 0;
        for (const Holder &h : row.holders) {
            if (h.memoryMb > 0) {
                blocks.append(QVariant(QVariantList{h.jobId, h.memoryMb}));
                known += h.memoryMb;
            }
        }
        if (row.allocMemory > known) {
            blocks.append(QVariant(QVariantList{qint64{-1}, row.allocMemory - known}));
        }
        return blocks;
    }
    case MemoryTotalRole:
        return row.memory;
    case JobIdsRole: {
        QVariantList ids;
        for (const Holder &h : row.holders) {
            ids.append(h.jobId);
        }
        return ids;
    }
    default:
        return {};
    }
}

void NodeTableModel::reset(
    const QList<mc::proto::Json> &nodes, const QList<mc::record::JobObject> &jobs)
{
    beginResetModel();
    m_rows.clear();
    m_rowOfNode.clear();
    m_nodesOfJob.clear();
    m_waiting.clear();
    endResetModel();
    for (const auto &node : nodes) {
        updateNode(node);
    }
    for (const auto &job : jobs) {
        updateJob(job);
    }
}

void NodeTableModel::clear()
{
    reset({}, {});
}

int NodeTableModel::rowOfNode(const QString &name) const
{
    return m_rowOfNode.value(name, -1);
}

QList<NodeTableModel::Holder> NodeTableModel::holdersAt(int row) const
{
    return m_rows[static_cast<size_t>(row)].holders;
}

void NodeTableModel::emitRowChanged(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, kColumnCount - 1));
}

void NodeTableModel::updateNode(const mc::proto::Json &node)
{
    NodeRow fresh;
    fresh.name = toQString(node["name"]);
    if (fresh.name.isEmpty()) {
        return;
    }
    fresh.partitions = toQStringList(node["partitions"].toStringList());
    fresh.state = toQString(node["state"]);
    fresh.reason = toQString(node["reason"]);
    fresh.cpus = node["cpus"].toInt();
    fresh.allocCpus = node["alloc_cpus"].toInt();
    fresh.memory = node["memory"].toInt();
    fresh.allocMemory = node["alloc_memory"].toInt();
    fresh.gpus = node["gpus"].toInt();
    fresh.allocGpus = node["alloc_gpus"].toInt();

    const int row = rowOfNode(fresh.name);
    if (row >= 0) {
        NodeRow &existing = m_rows[static_cast<size_t>(row)];
        fresh.holders = existing.holders;
        existing = std::move(fresh);
        emitRowChanged(row);
        return;
    }
    fresh.holders = m_waiting.take(fresh.name);
    const int newRow = static_cast<int>(m_rows.size());
    beginInsertRows({}, newRow, newRow);
    m_rowOfNode.insert(fresh.name, newRow);
    m_rows.push_back(std::move(fresh));
    endInsertRows();
}

void NodeTableModel::updateJob(const mc::record::JobObject &job)
{
    if (job.jobId <= 0) {
        return; // no job id: no job
    }
    QStringList nodes;
    Holder holder{job.jobId, QString::fromStdString(job.user)};
    if (holdsNodes(job.state)) {
        nodes = toQStringList(job.nodes);
        if (!nodes.isEmpty()) {
            holder.cpus
                = static_cast<int>(std::max<qint64>(job.numCpus.value_or(0) / nodes.size(), 1));
            const qint64 minMemory = job.minMemory;
            holder.memoryMb = job.memPerCpu ? minMemory * holder.cpus : minMemory;
            holder.gpus = static_cast<int>(job.gpus);
            const std::string &gres = job.gres;
            if (holder.gpus == 0 && gres.rfind("gpu", 0) == 0) {
                const auto colon = gres.rfind(':');
                holder.gpus = colon == std::string::npos ? 1 : std::atoi(gres.c_str() + colon + 1);
            }
        }
    }
    setHolders(holder, nodes);
}

void NodeTableModel::setHolders(const Holder &holder, const QStringList &nodes)
{
    const qint64 jobId = holder.jobId;
    const QStringList before = m_nodesOfJob.value(jobId);
    if (before == nodes && !nodes.isEmpty()) {
        // The usual job event: nothing changed on its nodes.
        const int row = rowOfNode(nodes.first());
        const QList<Holder> &holders
            = row >= 0 ? m_rows[static_cast<size_t>(row)].holders : m_waiting[nodes.first()];
        if (holders.contains(holder)) {
            return;
        }
    }
    const auto removeFrom = [jobId](QList<Holder> &holders) {
        return holders.removeIf([jobId](const Holder &h) { return h.jobId == jobId; }) > 0;
    };
    for (const QString &name : before) {
        const int row = rowOfNode(name);
        if (row >= 0) {
            if (removeFrom(m_rows[static_cast<size_t>(row)].holders) && !nodes.contains(name)) {
                emitRowChanged(row);
            }
        } else {
            removeFrom(m_waiting[name]);
        }
    }
    if (nodes.isEmpty()) {
        m_nodesOfJob.remove(jobId);
        return;
    }
    m_nodesOfJob.insert(jobId, nodes);
    const auto insertSorted = [&holder](QList<Holder> &holders) {
        const auto at = std::lower_bound(holders.begin(), holders.end(), holder,
            [](const Holder &a, const Holder &b) { return a.jobId < b.jobId; });
        holders.insert(at, holder);
    };
    for (const QString &name : nodes) {
        const int row = rowOfNode(name);
        if (row >= 0) {
            insertSorted(m_rows[static_cast<size_t>(row)].holders);
            emitRowChanged(row);
        } else {
            insertSorted(m_waiting[name]);
        }
    }
}

} // namespace mc::gui
