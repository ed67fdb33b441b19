#pragma once
// The queue as a tree: each job array is one row with its started tasks as children, as a
// reader of squeue thinks of it. Over a JobTableModel (the flat store, one row per job object):
//  - a job that is not part of an array is a top-level row, as in the table;
//  - an array is one top-level row. While the controller still holds its record (the tasks not
//    started yet, squeue's `1234_[5-100%4]`), that row IS the record: every column is the
//    record's. Once every task has started the record is gone, and the row summarizes the
//    array: JOBID is the array's id (what `scancel 1234` or `squeue -j 1234` name), NAME, USER
//    and PARTITION those of its tasks, NODELIST(REASON) the count of tasks in each state
//    ("3 tasks: 2 R, 1 CD"); ST, TIME and NODES stay empty and JobIdRole is 0;
//  - the array's started tasks (`1234_3`, running or finished) are that row's children.
// The record becoming the last task (Slurm gives the last task the array's id) moves it under
// its array's row. Roles are JobTableModel's, plus ArrayGroupRole; a group row's tooltip counts
// its started tasks by state.
//
// Changes are incremental, like the store's: a new job inserts one row (top-level or child), a
// changed job emits dataChanged for its row, a removed job removes its row, and its array's
// row when nothing of the array is left. A task that arrives, goes or changes state also emits
// dataChanged for its array's row (its summary follows; a filter judges the row again). Rows keep
// their order of arrival; sort and filter with a QSortFilterProxyModel (QueueFilterModel).
// Cost: O(1) per inserted or changed job; a removal renumbers the later top-level rows lazily,
// on the next lookup that needs them, so a batch of removals costs one pass.

#include <QAbstractItemModel>
#include <QHash>
#include <QString>

#include <climits>
#include <vector>

namespace mc::gui {

class JobTableModel;

class ArrayGroupModel : public QAbstractItemModel {
    Q_OBJECT

public:
    enum Role : int {
        // bool: the row is an array (its record or its summary), with its tasks as children
        ArrayGroupRole = Qt::UserRole + 50,
    };

    explicit ArrayGroupModel(QObject *parent = nullptr);
    ~ArrayGroupModel() override;

    // The store this model groups; it must outlive this model or be replaced first.
    void setSourceModel(JobTableModel *jobs);
    JobTableModel *sourceModel() const { return m_jobs; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

    // The row showing job `jobId` (a plain job, an array task, or an array's record, which is
    // its array's row); invalid when the job is not listed.
    QModelIndex indexOfJob(qint64 jobId, int column = 0) const;
    // The row of array `arrayJobId`; invalid when no part of it is listed.
    QModelIndex indexOfArray(qint64 arrayJobId, int column = 0) const;
    // The store's cell behind `index`; invalid for an array's summary row (no record).
    QModelIndex mapToSource(const QModelIndex &index) const;

private:
    struct Top {
        qint64 key = 0; // the job's id, or the array's id for a group
        bool group = false;
    };
    struct Group {
        int topRow = 0; // valid while below m_dirtyFrom (see topRowOf)
        qint64 record = 0; // job id of the array's record; 0 once every task started
        std::vector<qint64> tasks; // started tasks' job ids, in order of arrival
        QHash<qint64, int> taskRow;
        mutable QString summary; // taskCounts(); empty: to be computed
    };

    void rebuild();
    void addJob(int sourceRow);
    void removeJob(qint64 jobId);
    void sourceRowsChanged(
        const QModelIndex &topLeft, const QModelIndex &bottomRight, const QList<int> &roles);
    void appendTop(const Top &top);
    void removeTop(int row);
    // Top-level row of a plain job or of a group: exact once the rows from m_dirtyFrom on are
    // renumbered, which happens here when `stored` is at or past it.
    int topRowOf(qint64 key, bool group) const;
    void renumberTops() const;
    void addTask(Group &group, qint64 arrayId, qint64 jobId);
    void removeTask(Group &group, qint64 arrayId, qint64 jobId);
    void groupChanged(qint64 arrayId, bool summaryOnly);
    QVariant summaryData(const Group &group, qint64 arrayId, int column, int role) const;
    QString summaryText(const Group &group) const; // "3 tasks: 2 R, 1 CD"
    QString taskCounts(const Group &group) const; // "2 R, 1 CD"
    QModelIndex sourceIndexOfJob(qint64 jobId, int column) const;

    JobTableModel *m_jobs = nullptr;
    std::vector<Top> m_tops;
    mutable QHash<qint64, int> m_topRowOfJob; // plain jobs
    mutable QHash<qint64, Group> m_groups; // by array id
    QHash<qint64, qint64> m_arrayOfJob; // records and tasks -> their array's id
    mutable int m_dirtyFrom = INT_MAX;
};

} // namespace mc::gui
