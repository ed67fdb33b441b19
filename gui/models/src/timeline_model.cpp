#include "mc/gui/timeline_model.h"

#include "mc/proto/json.h"
#include "mc/record/job_object.h"
#include "mc/record/plan_entry.h"

#include <algorithm>
#include <vector>

namespace mc::gui {

namespace {

QStringList toQStringList(const std::vector<std::string> &names)
{
    QStringList list;
    list.reserve(static_cast<qsizetype>(names.size()));
    for (const auto &name : names) {
        list << QString::fromStdString(name);
    }
    return list;
}

bool isPendingState(const QString &state)
{
    return state == QLatin1String("PENDING");
}

bool isRunningState(const QString &state)
{
    return state == QLatin1String("RUNNING") || state == QLatin1String("SUSPENDED")
        || state == QLatin1String("COMPLETING");
}

} // namespace

TimelineModel::TimelineModel(QObject *parent)
    : QObject(parent)
{ }

TimelineModel::~TimelineModel() = default;

void TimelineModel::reset(
    const QList<mc::record::JobObject> &jobs, const QList<mc::proto::Json> &nodes)
{
    m_nodeNames.clear();
    for (const auto &node : nodes) {
        const QString name = QString::fromStdString(node["name"].toString());
        if (!name.isEmpty() && !m_nodeNames.contains(name)) {
            m_nodeNames << name;
        }
    }
    // Finished jobs already known stay (the snapshot only has the last MinJobAge of them); a
    // pending or running job the snapshot lacks no longer exists (a reset cluster, a restarted
    // controller that lost it): it goes, rather than stay on screen as a ghost.
    QSet<qint64> inSnapshot;
    for (const auto &job : jobs) {
        inSnapshot.insert(job.jobId);
        store(job);
    }
    for (auto it = m_jobs.begin(); it != m_jobs.end();) {
        if ((it->pending || it->running) && !inSnapshot.contains(it.key())) {
            reindex(it.key(), rowsOf(*it), {});
            it = m_jobs.erase(it);
        } else {
            ++it;
        }
    }
    dropOldPast();
    Q_EMIT changed();
}

void TimelineModel::updateJob(const mc::record::JobObject &job)
{
    store(job);
    dropOldPast();
    Q_EMIT changed();
}

void TimelineModel::updateNode(const mc::proto::Json &node)
{
    const QString name = QString::fromStdString(node["name"].toString());
    if (name.isEmpty() || m_nodeNames.contains(name)) {
        return;
    }
    m_nodeNames << name;
    Q_EMIT changed();
}

void TimelineModel::applyPlan(const mc::proto::Json &plan)
{
    for (const auto &entry : plan.items()) {
        const mc::record::PlanEntry planned = mc::record::planEntryFromJson(entry);
        const auto it = m_jobs.find(planned.jobId);
        if (it == m_jobs.end() || !it->pending) {
            continue;
        }
        const QStringList before = rowsOf(*it);
        it->plannedStart = planned.plannedStart;
        it->plannedNodes = toQStringList(planned.nodes);
        reindex(it->jobId, before, rowsOf(*it));
    }
    Q_EMIT changed();
}

void TimelineModel::clearJobs()
{
    m_jobs.clear();
    m_jobsOnRow.clear();
    m_finishedOrder.clear();
    Q_EMIT changed();
}

void TimelineModel::clear()
{
    m_jobs.clear();
    m_jobsOnRow.clear();
    m_finishedOrder.clear();
    m_nodeNames.clear();
    Q_EMIT changed();
}

void TimelineModel::setNow(qint64 now)
{
    if (now == m_now) {
        return;
    }
    m_now = now;
    Q_EMIT changed();
}

void TimelineModel::store(const mc::record::JobObject &object)
{
    const qint64 id = object.jobId;
    if (id <= 0) {
        return; // no job id: no job
    }
    Job &job = m_jobs[id];
    const QStringList before = job.state.isEmpty() ? QStringList() : rowsOf(job);
    const bool wasFinished = !job.state.isEmpty() && !job.pending && !job.running;
    job.jobId = id;
    job.user = QString::fromStdString(object.user);
    job.name = QString::fromStdString(object.name);
    job.state = QString::fromStdString(object.state);
    job.nodes = toQStringList(object.nodes);
    job.startTime = object.startTime;
    job.endTime = object.endTime;
    job.timeLimit = object.timeLimit.value_or(-1);
    job.pending = isPendingState(job.state);
    job.running = isRunningState(job.state);
    job.backfilled = !job.pending && object.backfilled.value_or(false);
    // Every job object carries its planned start (0: none), as the last plan event gave it.
    job.plannedStart = object.plannedStart;
    if (!job.pending) {
        job.plannedStart = 0;
        job.plannedNodes.clear();
    }
    if (!job.pending && !job.running && !wasFinished) {
        m_finishedOrder.push_back(id);
    }
    reindex(id, before, rowsOf(job));
}

void TimelineModel::reindex(qint64 jobId, const QStringList &before, const QStringList &after)
{
    if (before == after) {
        return;
    }
    for (const QString &row : before) {
        const auto it = m_jobsOnRow.find(row);
        if (it != m_jobsOnRow.end()) {
            it->remove(jobId);
        }
    }
    for (const QString &row : after) {
        m_jobsOnRow[row].insert(jobId);
    }
}

void TimelineModel::dropOldPast()
{
    while (static_cast<int>(m_finishedOrder.size()) > kMaxPastJobs) {
        const qint64 id = m_finishedOrder.front();
        m_finishedOrder.pop_front();
        const auto it = m_jobs.find(id);
        if (it != m_jobs.end() && !it->pending && !it->running) {
            reindex(id, rowsOf(*it), {});
            m_jobs.erase(it);
        }
    }
}

qint64 TimelineModel::limitSpan(const Job &job) const
{
    return job.timeLimit < 0 ? kUnlimitedSpan : job.timeLimit;
}

QStringList TimelineModel::rowsOf(const Job &job) const
{
    if (job.pending) {
        if (job.plannedStart <= 0) {
            return {};
        }
        return job.plannedNodes.isEmpty() ? QStringList{unplacedRow()} : job.plannedNodes;
    }
    if (job.running) {
        return job.startTime > 0 ? job.nodes : QStringList();
    }
    // Cancelled while pending: never on a node.
    return job.startTime > 0 && job.endTime > 0 ? job.nodes : QStringList();
}

std::optional<std::pair<qint64, qint64>> TimelineModel::timesOf(const Job &job) const
{
    if (job.pending) {
        if (job.plannedStart <= 0) {
            return std::nullopt;
        }
        const qint64 begin = std::max(job.plannedStart, m_now);
        return std::pair{begin, begin + limitSpan(job)};
    }
    if (job.running) {
        if (job.startTime <= 0) {
            return std::nullopt;
        }
        return std::pair{job.startTime, std::max(job.startTime + limitSpan(job), m_now)};
    }
    if (job.startTime <= 0 || job.endTime <= 0) {
        return std::nullopt;
    }
    return std::pair{job.startTime, std::max(job.endTime, job.startTime)};
}

std::optional<TimelineModel::Block> TimelineModel::blockOf(const Job &job) const
{
    const auto times = timesOf(job);
    if (!times) {
        return std::nullopt;
    }
    const Kind kind = job.pending ? Kind::Planned : (job.running ? Kind::Running : Kind::Past);
    return Block{job.jobId, times->first, times->second, kind, job.user, job.name, job.state,
        job.backfilled};
}

QList<TimelineModel::Block> TimelineModel::blocksOn(const QString &node) const
{
    QList<Block> blocks;
    const auto it = m_jobsOnRow.constFind(node);
    if (it == m_jobsOnRow.cend()) {
        return blocks;
    }
    blocks.reserve(it->size());
    for (const qint64 id : *it) {
        const auto job = m_jobs.constFind(id);
        if (job == m_jobs.cend()) {
            continue;
        }
        if (auto block = blockOf(*job)) {
            blocks.append(std::move(*block));
        }
    }
    std::sort(blocks.begin(), blocks.end(), [](const Block &a, const Block &b) {
        return a.begin != b.begin ? a.begin < b.begin : a.jobId < b.jobId;
    });
    return blocks;
}

bool TimelineModel::hasBlocksOn(const QString &node) const
{
    // A job is indexed on exactly the rows rowsOf() gives, where timesOf() always has a block.
    const auto it = m_jobsOnRow.constFind(node);
    return it != m_jobsOnRow.cend() && !it->isEmpty();
}

int TimelineModel::laneCountOn(const QString &node, int cap) const
{
    const auto it = m_jobsOnRow.constFind(node);
    if (it == m_jobsOnRow.cend()) {
        return 1;
    }
    struct Span {
        qint64 begin;
        qint64 end;
        qint64 jobId;
    };
    std::vector<Span> spans;
    spans.reserve(static_cast<std::size_t>(it->size()));
    for (const qint64 id : *it) {
        const auto job = m_jobs.constFind(id);
        if (job == m_jobs.cend()) {
            continue;
        }
        if (const auto times = timesOf(*job)) {
            spans.push_back({times->first, times->second, id});
        }
    }
    // blocksOn()'s order, then assignLanes()'s rule: the first lane free at the block's begin.
    std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) {
        return a.begin != b.begin ? a.begin < b.begin : a.jobId < b.jobId;
    });
    std::vector<qint64> laneEnds;
    for (const Span &span : spans) {
        const auto free = std::find_if(
            laneEnds.begin(), laneEnds.end(), [&span](qint64 end) { return end <= span.begin; });
        if (free != laneEnds.end()) {
            *free = span.end;
            continue;
        }
        laneEnds.push_back(span.end);
        if (static_cast<int>(laneEnds.size()) >= cap) {
            break; // lanes are never given back: the count can only grow
        }
    }
    return std::clamp(static_cast<int>(laneEnds.size()), 1, std::max(1, cap));
}

QList<int> TimelineModel::assignLanes(const QList<Block> &blocks, int *laneCount)
{
    QList<int> lanes;
    lanes.reserve(blocks.size());
    std::vector<qint64> laneEnds; // when each lane becomes free
    for (const Block &block : blocks) {
        int lane = 0;
        while (lane < static_cast<int>(laneEnds.size())
            && laneEnds[static_cast<std::size_t>(lane)] > block.begin) {
            ++lane;
        }
        if (lane == static_cast<int>(laneEnds.size())) {
            laneEnds.push_back(block.end);
        } else {
            laneEnds[static_cast<std::size_t>(lane)] = block.end;
        }
        lanes.append(lane);
    }
    if (laneCount) {
        *laneCount = std::max(1, static_cast<int>(laneEnds.size()));
    }
    return lanes;
}

std::pair<qint64, qint64> TimelineModel::span() const
{
    qint64 first = m_now;
    qint64 last = m_now;
    for (const Job &job : m_jobs) {
        if (job.pending) {
            if (job.plannedStart > 0) {
                last = std::max(last, std::max(job.plannedStart, m_now) + limitSpan(job));
            }
        } else if (job.startTime > 0) {
            first = std::min(first, job.startTime);
            last = std::max(
                last, job.running ? std::max(job.startTime + limitSpan(job), m_now) : job.endTime);
        }
    }
    return {first, last};
}

} // namespace mc::gui
