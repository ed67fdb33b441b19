#pragma once
// History and charts: the jobs of the accounting database (the `acct` request, what sacct
// reads) in a table with seff's figures, and three charts drawn with Qt Charts: how long jobs
// waited before they started, their CPU efficiency and their memory efficiency (as seff
// computes them, see AccountingModel). "Only my jobs" narrows it to the shell's user.
//
// It asks again (coalesced, at most every kRefreshDelay) when a job ends, so the history follows
// the cluster without polling; refresh() asks at once.

#include "mc/proto/json.h"
#include "mc/record/job_object.h"

#include <QWidget>

#include <chrono>

class QCheckBox;
class QLabel;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

class QChartView;

namespace mc::gui {

class AccountingModel;
class RequestClient;

class HistoryView : public QWidget {
    Q_OBJECT

public:
    static constexpr std::chrono::milliseconds kRefreshDelay{2000};

    // `requests` must outlive the view; `user`: the shell's user, for "Only my jobs".
    HistoryView(RequestClient *requests, QString user, QWidget *parent = nullptr);
    ~HistoryView() override;

    AccountingModel *model() const { return m_model; }
    QTableView *tableView() const { return m_table; }
    QString statusText() const;
    // The charts' bars: counts per bin, for tests. `chart`: 0 wait, 1 CPU, 2 memory.
    QList<int> binCounts(int chart) const;

    // Sends an `acct` request now.
    void refresh();
    // A job event: a job that has just ended brings a refresh (coalesced).
    void noteJob(const mc::record::JobObject &job);
    void setClusterNow(qint64 now) { m_now = now; }

Q_SIGNALS:
    void jobSelected(qint64 jobId);
    // An `acct` reply was shown (or failed).
    void refreshed();

protected:
    void changeEvent(QEvent *event) override;

private:
    // "1 job in the accounting database." / "12 jobs in ...".
    static QString jobCountText(int count);
    void retranslateUi();
    void showReply(const mc::proto::Json &reply);
    void rebuildCharts();

    RequestClient *m_requests;
    QString m_user;
    qint64 m_now = 0;
    AccountingModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QPushButton *m_refresh;
    QCheckBox *m_onlyMine;
    QLabel *m_status;
    QTimer *m_refreshTimer;
    QList<QChartView *> m_charts;
    QList<QList<int>> m_bins;
    mc::proto::Json m_lastReply;
    bool m_failed = false;
};

} // namespace mc::gui
