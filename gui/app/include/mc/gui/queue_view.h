#pragma once
// The queue page: the job table as squeue shows it (finished jobs hidden unless asked),
// sortable on any column (numbers sort as numbers), with filters above it: mine or all users,
// partition, state. While the app is not connected, a message in its place says why and what
// to do.

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedLayout;
class QTableView;

namespace mc::gui {

class JobTableModel;
class QueueFilterModel;

class QueueView : public QWidget {
    Q_OBJECT

public:
    // `model` must outlive the view; `me` is the user "My jobs" shows.
    explicit QueueView(JobTableModel *model, QString me, QWidget *parent = nullptr);

    QTableView *tableView() const { return m_table; }
    QueueFilterModel *filterModel() const { return m_proxy; }
    // Shows the table when `connected`, else the not-connected message with `status`.
    void setConnectionState(bool connected, const QString &status);

Q_SIGNALS:
    // The user selected a job (0: none).
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
    QueueFilterModel *m_proxy;
    QTableView *m_table;
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
