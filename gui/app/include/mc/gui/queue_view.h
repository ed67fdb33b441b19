#pragma once
// The queue page: the job table, sortable on any column (numbers sort as numbers), and while the
// app is not connected, a message in its place saying why and what to do.

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QStackedLayout;
class QTableView;

namespace mc::gui {

class JobTableModel;

class QueueView : public QWidget {
    Q_OBJECT

public:
    // `model` must outlive the view.
    explicit QueueView(JobTableModel *model, QWidget *parent = nullptr);

    QTableView *tableView() const { return m_table; }
    // Shows the table when `connected`, else the not-connected message with `status`.
    void setConnectionState(bool connected, const QString &status);

private:
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLabel *m_message;
    QStackedLayout *m_stack;
};

} // namespace mc::gui
