#pragma once
// One job as the queue table shows it: a protocol job object reduced to the fields of squeue's
// default columns, and squeue's rules for TIME (%M) and NODELIST(REASON) (%R). Pure functions.

#include <QString>

namespace mc::record {
struct JobObject;
}

namespace mc::gui {

struct JobRow {
    qint64 jobId = 0;
    QString partition;
    QString name;
    QString user;
    QString state; // long name: "PENDING", "RUNNING", ... (squeue %T)
    QString stateShort; // "PD", "R", ... (squeue %t)
    QString reason; // Slurm's reason name: "Resources", "None", ...
    QString nodeList; // allocated nodes as a compressed hostlist; empty while pending
    qint64 numNodes = 0;
    qint64 arrayJobId = 0; // 0: not part of an array
    qint64 arrayTaskId = -1; // -1: not a task (the array's own record, or no array)
    QString arrayTaskStr; // pending tasks of the array record ("4-10%2")
    qint64 startTime = 0; // epoch seconds, 0 = not started
    qint64 endTime = 0; // epoch seconds, 0 = not ended
    bool isPending = false;
    bool isRunning = false;
    // TIME grows with the clock (running, suspended or completing without an end time yet).
    bool isLive = false;
    // Done for good (CD, CA, F, TO, ...): ages out of the queue after MinJobAge.
    bool isFinished = false;
    // %R shows "(reason)" rather than the node list: pending jobs and jobs that failed.
    bool showsReason = false;

    friend bool operator==(const JobRow &, const JobRow &) = default;
};

// squeue's JOBID (%i): "1234", a task "1234_5", the array record "1234_[4-10%2]".
QString displayJobId(const JobRow &row);
// Sorts an array's record and its tasks together, in task order, where the array's job id
// would sort.
qint64 groupedSortKey(const JobRow &row);

// Reads a decoded job object of docs/protocol.md; a missing job_id (0) gives jobId -1. The
// state's short name is derived from the long one when `state_short` is absent.
JobRow jobRowOf(const mc::record::JobObject &job);

// squeue TIME in seconds at cluster time `now` (epoch seconds): time used so far for live jobs,
// end - start for ended ones, 0 for jobs that never started; never negative.
qint64 elapsedSeconds(const JobRow &row, qint64 now);

// squeue NODELIST(REASON): "(Resources)" for pending and failed jobs, else the node list.
QString nodeListOrReason(const JobRow &row);

} // namespace mc::gui
