#pragma once
// The queue page: the jobs as squeue shows them (finished jobs hidden unless asked), each job
// array one expandable row (`1234_[5-100%4]`, or `1234` once every task started) with its
// started tasks under it (ArrayGroupModel), sortable on any column (numbers sort as numbers),
// with filters above it: mine or all users, partition, state. While the app is not connected,
// a message in its place says why and what to do.

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedLayout;
class QTreeView;

namespace mc::gui {

class ArrayGroupModel;
class JobTableModel;
class QueueFilterModel;

class QueueView : public QWidget {
    Q_OBJECT

public:
    // `model` must outlive the view; `me` is the user "My jobs" shows.
    explicit QueueView(JobTableModel *model, QString me, QWidget *parent = nullptr);

    QTreeView *treeView() const { return m_tree; }
    ArrayGroupModel *groupModel() const { return m_groups; }
    QueueFilterModel *filterModel() const { return m_proxy; }
    // Selects the row of `jobId` (expanding its array's row for a task); false when not shown.
    bool selectJob(qint64 jobId);
    // Shows the table when `connected`, else the not-connected message with `status`.
    void setConnectionState(bool connected, const QString &status);

Q_SIGNALS:
    // The user selected a job (0: none, or an array's summary row).
    void jobSelected(qint64 jobId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    QWidget *createFilterBar();
    void notePartitions(int firstRow, int lastRow);
    void applyFilters();

    JobTableModel *m_model;
    QString m_me;
    ArrayGroupModel *m_groups;
    QueueFilterModel *m_proxy;
    QTreeView *m_tree;
    QLabel *m_message;
    QStackedLayout *m_stack;
    QComboBox *m_users = nullptr;
    QComboBox *m_partitions = nullptr;
    QComboBox *m_states = nullptr;
    QCheckBox *m_finished = nullptr;
    bool m_connected = false;
    QString m_status;
};

} // namespace mc::gui
