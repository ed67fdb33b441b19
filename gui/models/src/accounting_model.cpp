#include "mc/gui/accounting_model.h"

#include "mc/proto/json.h"
#include "mc/record/job_object.h"
#include "mc/sched/time_format.h"

#include <QCoreApplication>

#include <algorithm>

namespace mc::gui {

AccountingModel::Record AccountingModel::recordOf(const mc::record::JobObject &job, qint64 now)
{
    Record r;
    r.jobId = job.jobId;
    r.name = QString::fromStdString(job.name);
    r.user = QString::fromStdString(job.user);
    r.partition = QString::fromStdString(job.partition);
    r.state = QString::fromStdString(job.state);
    r.cpus = job.numCpus.value_or(0);
    const qint64 submit = job.submitTime;
    const qint64 start = job.startTime;
    const qint64 end = job.endTime;
    if (start > 0) {
        r.waitSeconds = std::max<qint64>(0, start - submit);
        r.elapsedSeconds = std::max<qint64>(0, (end > 0 ? end : now) - start);
    }
    for (const auto &step : job.steps) {
        r.totalCpuMs += step.totalCpuMs;
        r.usedMemoryKb = std::max<qint64>(r.usedMemoryKb, step.maxRssKb);
    }
    const qint64 minMemory = job.minMemory;
    const qint64 nodes = std::max<qint64>(1, job.numNodes.value_or(1));
    r.requestedMemoryMb
        = job.memPerCpu ? minMemory * std::max<qint64>(1, r.cpus) : minMemory * nodes;
    // Like seff, figures only once the job has ended: a running job's usage is not final.
    const qint64 coreWallMs = r.elapsedSeconds * r.cpus * 1000;
    if (end > 0 && coreWallMs > 0) {
        r.cpuEfficiency
            = 100.0 * static_cast<double>(r.totalCpuMs) / static_cast<double>(coreWallMs);
    }
    if (end > 0 && start > 0 && r.requestedMemoryMb > 0) {
        r.memoryEfficiency = 100.0 * static_cast<double>(r.usedMemoryKb)
            / static_cast<double>(r.requestedMemoryMb * 1024);
    }
    return r;
}

AccountingModel::AccountingModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

int AccountingModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_records.size());
}

int AccountingModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant AccountingModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const Record &r = m_records[static_cast<std::size_t>(index.row())];
    const auto column = static_cast<Column>(index.column());
    const auto percent = [](const std::optional<double> &value) -> QVariant {
        return value ? QVariant(*value) : QVariant();
    };
    QVariant value;
    switch (column) {
    case Column::JobId:
        value = r.jobId;
        break;
    case Column::Wait:
        value = r.waitSeconds >= 0 ? QVariant(r.waitSeconds) : QVariant();
        break;
    case Column::Elapsed:
        value = r.elapsedSeconds;
        break;
    case Column::Cpus:
        value = r.cpus;
        break;
    case Column::CpuEff:
        value = percent(r.cpuEfficiency);
        break;
    case Column::MemEff:
        value = percent(r.memoryEfficiency);
        break;
    default:
        break;
    }
    if (role == ValueRole) {
        return value;
    }
    if (role == Qt::TextAlignmentRole) {
        return column >= Column::Wait ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    }
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    switch (column) {
    case Column::Name:
        return r.name;
    case Column::User:
        return r.user;
    case Column::Partition:
        return r.partition;
    case Column::State:
        return r.state;
    default:
        break;
    }
    if (role == SortRole) {
        return value.isValid() ? value : QVariant(-1.0);
    }
    if (!value.isValid()) {
        return QStringLiteral("—");
    }
    switch (column) {
    case Column::Wait:
    case Column::Elapsed:
        return QString::fromStdString(mc::sched::formatHms(value.toLongLong()));
    case Column::CpuEff:
    case Column::MemEff:
        return QStringLiteral("%1%").arg(value.toDouble(), 0, 'f', 2);
    default:
        return value;
    }
}

QVariant AccountingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= kColumnCount) {
        return {};
    }
    // sacct's field names where it has one, as sacct prints them; the others (seff's words for
    // the efficiencies, the wait) in the app's language.
    static const char *const kTitles[] = {"JobID", "JobName", "User", "Partition", "State",
        QT_TRANSLATE_NOOP("mc::gui::AccountingModel", "Wait"), "Elapsed", "AllocCPUS",
        QT_TRANSLATE_NOOP("mc::gui::AccountingModel", "CPU Efficiency"),
        QT_TRANSLATE_NOOP("mc::gui::AccountingModel", "Memory Efficiency")};
    const auto column = static_cast<Column>(section);
    if (column == Column::Wait || column == Column::CpuEff || column == Column::MemEff) {
        return QCoreApplication::translate("mc::gui::AccountingModel", kTitles[section]);
    }
    return QString::fromLatin1(kTitles[section]);
}

void AccountingModel::setReply(const mc::proto::Json &reply, qint64 now)
{
    beginResetModel();
    m_records.clear();
    for (const auto &job : reply["jobs"].items()) {
        m_records.push_back(recordOf(mc::record::jobObjectFromJson(job), now));
    }
    endResetModel();
}

} // namespace mc::gui
