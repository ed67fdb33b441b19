// The queue's filters without a display: finished jobs hidden like squeue, mine/all, partition,
// state.

#include "mc/gui/job_table_model.h"
#include "mc/gui/queue_filter_model.h"
#include "test_jobs.h"

#include <QAbstractItemModelTester>
#include <QTest>

using mc::gui::JobTableModel;
using mc::gui::QueueFilterModel;
using mc::gui::test::decoded;
using mc::gui::test::decodedAll;
using mc::gui::test::job;
using mc::gui::test::kNow;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;

namespace {

QList<qint64> shownJobs(const QueueFilterModel &model)
{
    QList<qint64> ids;
    for (int row = 0; row < model.rowCount(); ++row) {
        ids.append(model.index(row, 0).data(JobTableModel::JobIdRole).toLongLong());
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

} // namespace

class QueueFilterModelTest : public QObject {
    Q_OBJECT

private:
    JobTableModel *m_jobs = nullptr;
    QueueFilterModel *m_filter = nullptr;

private Q_SLOTS:
    void init()
    {
        m_jobs = new JobTableModel(this);
        m_filter = new QueueFilterModel(this);
        m_filter->setSourceModel(m_jobs);
        new QAbstractItemModelTester(
            m_filter, QAbstractItemModelTester::FailureReportingMode::QtTest, m_filter);
        m_jobs->resetJobs(decodedAll({pendingJob(1), runningJob(2, {"cn01"}).set("user", "bob"),
                              job(3, "COMPLETED", "CD").set("end_time", kNow - 10),
                              pendingJob(4).set("partition", "gpu")}),
            kNow);
    }

    void cleanup()
    {
        delete m_filter;
        delete m_jobs;
    }

    void finishedJobsAreHiddenUnlessAsked()
    {
        QCOMPARE(shownJobs(*m_filter), (QList<qint64>{1, 2, 4}));
        m_filter->setShowFinished(true);
        QCOMPARE(shownJobs(*m_filter), (QList<qint64>{1, 2, 3, 4}));
    }

    void aJobThatFinishesLeavesTheDefaultView()
    {
        m_jobs->updateJob(decoded(runningJob(2, {"cn01"})
                                      .set("state", "COMPLETED")
                                      .set("state_short", "CD")
                                      .set("end_time", kNow)));
        QCOMPARE(shownJobs(*m_filter), (QList<qint64>{1, 4}));
    }

    void userFilterShowsOnlyThatUsersJobs()
    {
        m_filter->setUser(QStringLiteral("bob"));
        QCOMPARE(shownJobs(*m_filter), (QList<qint64>{2}));
        m_filter->setUser({});
        QCOMPARE(shownJobs(*m_filter), (QList<qint64>{1, 2, 4}));
    }

    void partitionAndStateFiltersCombine()
    {
        m_filter->setPartition(QStringLiteral("cpu"));
        QCOMPARE(shownJobs(*m_filter), (QList<qint64>{1, 2}));
        m_filter->setState(QStringLiteral("PD"));
        QCOMPARE(shownJobs(*m_filter), (QList<qint64>{1}));
    }

    void askingForAFinishedStateShowsThoseJobs()
    {
        m_filter->setState(QStringLiteral("COMPLETED"));
        QCOMPARE(shownJobs(*m_filter), (QList<qint64>{3}));
    }
};

QTEST_GUILESS_MAIN(QueueFilterModelTest)
#include "queue_filter_model_test.moc"
