#pragma once
// What the timeline draws: per node, the jobs that ran there (past), run there now (running)
// and are planned to start there (the scheduler's backfill plan), as blocks of cluster time.
//
// Sources: job objects (snapshot and job events: start_time, end_time, time_limit, nodes,
// planned_start), plan events ({"event": "plan", "plan": [{job_id, planned_start, nodes}]}) and
// node objects (the rows, in the order the controller first reported them). A running block
// ends at start + time_limit (the latest the job may run), never before `now`; a planned block
// lasts the job's time limit; an unlimited job is drawn kUnlimitedSpan long. A planned job whose
// nodes the plan does not name is listed under unplacedRow() rather than guessed.
//
// Finished jobs are kept (at most kMaxPastJobs, the oldest dropped first), so the timeline
// shows the past beyond the queue's MinJobAge. changed() is emitted after every update; views
// coalesce repaints.

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <deque>
#include <optional>
#include <utility>

namespace mc::proto {
class Json;
}

namespace mc::record {
struct JobObject;
}

namespace mc::gui {

class TimelineModel : public QObject {
    Q_OBJECT

public:
    enum class Kind { Past, Running, Planned };
    struct Block {
        qint64 jobId = 0;
        qint64 begin = 0; // epoch seconds (cluster clock)
        qint64 end = 0;
        Kind kind = Kind::Past;
        QString user;
        QString name;
        QString state; // long state name
        bool backfilled = false; // started by backfill, ahead of a higher-priority job
        friend bool operator==(const Block &, const Block &) = default;
    };

    static constexpr int kMaxPastJobs = 5000;
    static constexpr qint64 kUnlimitedSpan = 7 * 24 * 3600;

    explicit TimelineModel(QObject *parent = nullptr);
    ~TimelineModel() override;

    void reset(const QList<mc::record::JobObject> &jobs, const QList<mc::proto::Json> &nodes);
    void updateJob(const mc::record::JobObject &job);
    void updateNode(const mc::proto::Json &node);
    // A plan event's `plan` array: planned starts and nodes of pending jobs.
    void applyPlan(const mc::proto::Json &plan);
    void clear();
    // Forgets every job, past ones included, and keeps the nodes (a cluster reset).
    void clearJobs();

    // The cluster clock (epoch seconds): running blocks grow to at least `now`.
    void setNow(qint64 now);
    qint64 now() const { return m_now; }

    QStringList nodeNames() const { return m_nodeNames; }
    // The pseudo-row for planned jobs whose nodes are not known yet.
    static QString unplacedRow() { return QStringLiteral("*"); }
    // Blocks on `node` (or unplacedRow()), by begin time.
    QList<Block> blocksOn(const QString &node) const;
    // Lanes for the blocks of one row (sorted by begin, as blocksOn() gives them), so that
    // jobs sharing a node at the same time are drawn one above the other: lane i of block i,
    // the first lane free at its begin. `laneCount` receives the number of lanes (at least 1).
    static QList<int> assignLanes(const QList<Block> &blocks, int *laneCount);
    // assignLanes()'s lane count for the blocks on `node`, at most `cap` (the walk stops there),
    // 1 when the row has none. Cheaper than blocksOn(): it copies no text, so a view can ask it
    // for every row at each refresh.
    int laneCountOn(const QString &node, int cap) const;
    // Whether any block is drawn on `node` (or unplacedRow()).
    bool hasBlocksOn(const QString &node) const;
    // Earliest begin and latest end of all blocks; {now, now} when there are none.
    std::pair<qint64, qint64> span() const;
    int jobCount() const { return static_cast<int>(m_jobs.size()); }

Q_SIGNALS:
    void changed();

private:
    struct Job {
        qint64 jobId = 0;
        QString user;
        QString name;
        QString state;
        QStringList nodes;
        QStringList plannedNodes;
        qint64 startTime = 0;
        qint64 endTime = 0;
        qint64 timeLimit = -1;
        qint64 plannedStart = 0;
        bool pending = false;
        bool running = false;
        bool backfilled = false; // the controller's `backfilled`
    };

    void store(const mc::record::JobObject &job);
    void dropOldPast();
    // The rows a job is drawn on now (none: not drawn), and its block at m_now.
    QStringList rowsOf(const Job &job) const;
    std::optional<Block> blockOf(const Job &job) const;
    // The job's block's {begin, end} at m_now, without its text; nullopt: not drawn.
    std::optional<std::pair<qint64, qint64>> timesOf(const Job &job) const;
    // Moves a job in the row index after its placement changed.
    void reindex(qint64 jobId, const QStringList &before, const QStringList &after);
    qint64 limitSpan(const Job &job) const;

    QHash<qint64, Job> m_jobs;
    // Which jobs are drawn on each row: blocksOn() builds only the rows asked for, so a paint
    // of the visible rows costs what they hold, not the whole cluster's history.
    QHash<QString, QSet<qint64>> m_jobsOnRow;
    std::deque<qint64> m_finishedOrder; // finished job ids, oldest first
    QStringList m_nodeNames;
    qint64 m_now = 0;
};

} // namespace mc::gui
