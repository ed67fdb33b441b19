#include "job_row.h"

#include "mc/record/job_object.h"
#include "mc/sched/hostlist.h"
#include "mc/sched/job_state.h"

#include <algorithm>
#include <optional>

namespace mc::gui {

namespace {

using mc::sched::JobState;

QString toQString(std::string_view text)
{
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// squeue prints the reason instead of the nodes for these (Slurm's print.c: pending, timeout,
// out of memory, deadline, failed).
bool showsReasonIn(JobState state)
{
    switch (state) {
    case JobState::Pending:
    case JobState::Timeout:
    case JobState::OutOfMemory:
    case JobState::Deadline:
    case JobState::Failed:
        return true;
    default:
        return false;
    }
}

} // namespace

QString displayJobId(const JobRow &row)
{
    if (row.arrayJobId == 0) {
        return QString::number(row.jobId);
    }
    if (row.arrayTaskId >= 0) {
        return QStringLiteral("%1_%2").arg(row.arrayJobId).arg(row.arrayTaskId);
    }
    if (!row.arrayTaskStr.isEmpty()) {
        return QStringLiteral("%1_[%2]").arg(row.arrayJobId).arg(row.arrayTaskStr);
    }
    return QString::number(row.jobId);
}

qint64 groupedSortKey(const JobRow &row)
{
    constexpr qint64 kTasksPerArray = 1000000; // above Slurm's MaxArraySize limit
    const qint64 base = row.arrayJobId != 0 ? row.arrayJobId : row.jobId;
    return base * kTasksPerArray + (row.arrayTaskId >= 0 ? row.arrayTaskId + 1 : 0);
}

JobRow jobRowOf(const mc::record::JobObject &job)
{
    JobRow row;
    row.jobId = job.jobId > 0 ? job.jobId : -1; // no job id: no job
    row.partition = toQString(job.partition);
    row.name = toQString(job.name);
    row.user = toQString(job.user);
    row.state = toQString(job.state);
    row.reason = toQString(job.reason);
    row.nodeList = QString::fromStdString(mc::sched::compressHostlist(job.nodes));
    row.numNodes = job.numNodes.value_or(0);
    row.arrayJobId = job.arrayJobId;
    if (row.arrayJobId != 0 && job.arrayTaskId) {
        row.arrayTaskId = *job.arrayTaskId;
    }
    row.arrayTaskStr = toQString(job.arrayTaskStr);
    row.startTime = job.startTime;
    row.endTime = job.endTime;

    const std::optional<JobState> state = mc::sched::parseJobState(job.state);
    row.stateShort = toQString(job.stateShort);
    if (row.stateShort.isEmpty() && state) {
        row.stateShort = toQString(mc::sched::shortName(*state));
    }
    if (state) {
        row.isPending = *state == JobState::Pending;
        row.isRunning = *state == JobState::Running;
        row.isFinished = mc::sched::isFinished(*state);
        row.showsReason = showsReasonIn(*state);
        // A running job's end_time may be its expected end: only the clock counts for it.
        row.isLive = row.isRunning || *state == JobState::Suspended
            || (*state == JobState::Completing && row.endTime <= 0);
    }
    return row;
}

qint64 elapsedSeconds(const JobRow &row, qint64 now)
{
    if (row.startTime <= 0) {
        return 0;
    }
    const qint64 end = row.isLive || row.endTime <= 0 ? now : row.endTime;
    return std::max<qint64>(0, end - row.startTime);
}

QString nodeListOrReason(const JobRow &row)
{
    if (row.showsReason) {
        return QLatin1Char('(') + row.reason + QLatin1Char(')');
    }
    return row.nodeList;
}

} // namespace mc::gui
