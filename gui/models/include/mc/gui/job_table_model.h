#pragma once
// The queue as `squeue` shows it by default: one row per job, columns JOBID PARTITION NAME USER
// ST TIME NODES NODELIST(REASON), with Slurm's words and formats (titles are not translated).
//
// Rows are keyed by job id and kept in arrival order (sort with a proxy on SortRole). They change
// incrementally: a new job inserts one row, a changed job emits dataChanged for its row only, an
// identical update emits nothing. Finished jobs stay listed with their state while the
// controller still reports them: until a snapshot no longer contains them, or until kMinJobAge
// seconds after their end on the cluster clock (Slurm's MinJobAge, as the `jobs` request uses).
//
// Time: TIME is computed against the cluster clock now(), which follows the controller's `now`
// (from snapshots and job objects) and, between messages, advances with the steady clock at the
// cluster clock's speed (setClock(), from the controller's `clock` reply and events); once a
// second the TIME cells of live rows are refreshed (dataChanged on that column only). Tests set
// the clock with setNow() and never wait for the refresh.

#include <QAbstractTableModel>
#include <QHash>
#include <QList>

#include <chrono>
#include <vector>

class QTimer;

namespace mc::record {
struct JobObject;
}

namespace mc::gui {

struct JobRow;

class JobTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum class Column { JobId, Partition, Name, User, State, Time, Nodes, NodeList };
    static constexpr int kColumnCount = 8;
    static constexpr int columnIndex(Column column) { return static_cast<int>(column); }

    // Plain enum on purpose: roles are ints in Qt's API.
    enum Role : int {
        JobIdRole = Qt::UserRole + 1, // qint64 job id
        StateRole, // QString, long state name: "PENDING", "RUNNING", ...
        // numbers for JOBID, TIME and NODES, the text elsewhere; JOBID sorts an array's record
        // and its tasks together (squeue shows them as 1234_[4-10] and 1234_3)
        SortRole,
        ArrayJobIdRole, // qint64: the array's id (%A), 0 when the job is not part of an array
        ArrayTaskIdRole, // qint64: the task's index (%a), -1 for the array's record or no array
    };

    // Seconds a finished job stays listed after its end (Slurm's default MinJobAge).
    static constexpr qint64 kMinJobAge = 300;
    static constexpr std::chrono::milliseconds kRefreshInterval{1000};

    explicit JobTableModel(QObject *parent = nullptr);
    ~JobTableModel() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Makes the table exactly `jobs` (a subscription snapshot): rows of jobs absent from it are
    // removed, the others updated or inserted. `now`: the controller's clock, 0 if unknown.
    void resetJobs(const QList<mc::record::JobObject> &jobs, qint64 now);
    // Inserts or updates one job from a job object; objects without job_id are ignored.
    void updateJob(const mc::record::JobObject &job);
    // Removes every row (the queue is unknown, e.g. while disconnected).
    void clear();

    // Sets the cluster clock (epoch seconds): refreshes TIME of live rows and removes finished
    // jobs older than kMinJobAge.
    void setNow(qint64 now);
    qint64 now() const { return m_now; }
    // The controller's clock and its rate (cluster seconds per real second, > 0): an instructor
    // sped it up or fast-forwarded it. Between messages now() advances at that rate.
    void setClock(qint64 now, double speed);
    double clockSpeed() const { return m_speed; }

    // Row of a job, -1 if it is not listed.
    int rowOfJob(qint64 jobId) const;
    // Job id and long state name ("PENDING", ...) of a row; precondition: 0 <= row < rowCount().
    qint64 jobIdAt(int row) const;
    QString stateAt(int row) const;
    // The array's id (0: not an array) and the task's index (-1: the array's record, whose
    // pending tasks are "4-10%2", or not an array) of a row; same precondition.
    qint64 arrayJobIdAt(int row) const;
    qint64 arrayTaskIdAt(int row) const;

    int pendingCount() const { return m_pending; }
    int runningCount() const { return m_running; }

Q_SIGNALS:
    // The number of PENDING or RUNNING jobs changed.
    void countsChanged(int pending, int running);

private:
    void noteControllerNow(qint64 now);
    void refreshFromSteadyClock();
    // Inserts or replaces one row; the caller emits the counts.
    void upsert(JobRow row);
    // Removes one row and keeps the job -> row index exact.
    void eraseRow(int row);
    void removeAgedJobs();
    void countRow(const JobRow &row, int sign);
    void emitCountsIfChanged();
    QVariant displayText(const JobRow &row, Column column) const;
    QVariant sortValue(const JobRow &row, Column column) const;

    std::vector<JobRow> m_rows;
    QHash<qint64, int> m_rowOfJob;
    qint64 m_now = 0;
    // The controller's last `now` and when it arrived, to advance the clock between messages.
    qint64 m_controllerNow = 0;
    std::chrono::steady_clock::time_point m_controllerNowAt;
    double m_speed = 1.0;
    QTimer *m_refreshTimer = nullptr;
    int m_pending = 0;
    int m_running = 0;
    int m_reportedPending = 0;
    int m_reportedRunning = 0;
};

} // namespace mc::gui
