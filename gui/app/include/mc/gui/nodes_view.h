#pragma once
// The nodes page: every node with its state as sinfo names it and its CPUs drawn as slots, each
// filled with the colour of the job that holds it (free slots empty); below, the selected
// node's details: its partitions, memory and GPUs, and each job on it with its user and CPUs.

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace mc::gui {

class NodeTableModel;

class NodesView : public QWidget {
    Q_OBJECT

public:
    // `model` must outlive the view.
    explicit NodesView(NodeTableModel *model, QWidget *parent = nullptr);

    QTableView *tableView() const { return m_table; }
    // The details text of the selected node (empty when none).
    QString detailsText() const;

    // The colour a job is drawn with, the same in every view.
    static QColor jobColor(qint64 jobId);

protected:
    void changeEvent(QEvent *event) override;

private:
    void showDetails();

    NodeTableModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLabel *m_details;
};

} // namespace mc::gui
