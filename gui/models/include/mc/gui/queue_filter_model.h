#pragma once
// The queue as the user asks to see it, over a JobTableModel: like `squeue` it hides finished
// jobs unless asked (`squeue -t all`), and filters by user (`--me` / `-u`), partition (`-p`) and
// state (`-t`). Sorts on JobTableModel::SortRole. Empty filters let everything through.
// Over an ArrayGroupModel (the queue's tree) each row is judged on its own, and an array's row
// is also kept while one of its tasks passes; the summary row of an array whose tasks all
// started (no record left) is shown only that way.

#include <QSortFilterProxyModel>
#include <QString>

namespace mc::gui {

class QueueFilterModel : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit QueueFilterModel(QObject *parent = nullptr);

    // Only this user's jobs; empty: all users.
    void setUser(const QString &user);
    QString user() const { return m_user; }
    // Only this partition's jobs; empty: all.
    void setPartition(const QString &partition);
    // Only jobs in this state, long or short name ("PENDING", "R"); empty: all.
    void setState(const QString &state);
    // Finished jobs (CD, CA, F, TO, ...) are hidden unless this is set.
    void setShowFinished(bool show);
    bool showFinished() const { return m_showFinished; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    // The filters applied to one job's own row.
    bool acceptsJob(int sourceRow, const QModelIndex &sourceParent) const;

    QString m_user;
    QString m_partition;
    QString m_state;
    bool m_showFinished = false;
};

} // namespace mc::gui
