#include "mc/gui/job_table_model.h"
#include "test_jobs.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using mc::gui::JobTableModel;
using mc::gui::test::decoded;
using mc::gui::test::decodedAll;
using mc::gui::test::kNow;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using Column = JobTableModel::Column;

class JobTableModelTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<JobTableModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;

    QString text(int row, Column column) const
    {
        return m_model->index(row, JobTableModel::columnIndex(column)).data().toString();
    }

private Q_SLOTS:
    void init()
    {
        m_model = std::make_unique<JobTableModel>();
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_model.get(), QAbstractItemModelTester::FailureReportingMode::Fatal);
    }

    void cleanup()
    {
        m_tester.reset();
        m_model.reset();
    }

    void headersAreSqueueDefaultColumns()
    {
        QStringList titles;
        for (int section = 0; section < m_model->columnCount(); ++section) {
            titles << m_model->headerData(section, Qt::Horizontal).toString();
        }
        QCOMPARE(titles,
            QStringList(
                {"JOBID", "PARTITION", "NAME", "USER", "ST", "TIME", "NODES", "NODELIST(REASON)"}));
    }

    void newJobIsInsertedAsOneRow()
    {
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);
        m_model->updateJob(decoded(pendingJob(12)));
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(m_model->rowCount(), 1);
        QCOMPARE(text(0, Column::JobId), QStringLiteral("12"));
        QCOMPARE(text(0, Column::Partition), QStringLiteral("cpu"));
        QCOMPARE(text(0, Column::Name), QStringLiteral("train"));
        QCOMPARE(text(0, Column::User), QStringLiteral("alice"));
        QCOMPARE(text(0, Column::Nodes), QStringLiteral("1"));
    }

    void pendingJobShowsReasonInParentheses()
    {
        m_model->updateJob(decoded(pendingJob(12, "Resources")));
        QCOMPARE(text(0, Column::State), QStringLiteral("PD"));
        QCOMPARE(text(0, Column::Time), QStringLiteral("0:00"));
        QCOMPARE(text(0, Column::NodeList), QStringLiteral("(Resources)"));
    }

    void runningJobShowsCompressedNodeList()
    {
        m_model->updateJob(decoded(runningJob(13, {"cn01", "cn02"})));
        QCOMPARE(text(0, Column::State), QStringLiteral("R"));
        QCOMPARE(text(0, Column::Nodes), QStringLiteral("2"));
        QCOMPARE(text(0, Column::NodeList), QStringLiteral("cn[01-02]"));
    }

    void runningJobTimeIsClusterNowMinusStartTime()
    {
        m_model->updateJob(decoded(runningJob(13, {"cn01"}, kNow - 65)));
        QCOMPARE(m_model->now(), kNow);
        QCOMPARE(text(0, Column::Time), QStringLiteral("1:05"));
    }

    void stateChangeEmitsDataChangedForThatRowOnly()
    {
        m_model->updateJob(decoded(pendingJob(12)));
        m_model->updateJob(decoded(pendingJob(13, "Priority")));
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        QSignalSpy inserted(m_model.get(), &QAbstractItemModel::rowsInserted);

        m_model->updateJob(decoded(runningJob(13, {"cn03"})));

        QCOMPARE(inserted.count(), 0);
        QCOMPARE(changed.count(), 1);
        const auto topLeft = changed.at(0).at(0).value<QModelIndex>();
        const auto bottomRight = changed.at(0).at(1).value<QModelIndex>();
        QCOMPARE(topLeft.row(), 1);
        QCOMPARE(bottomRight.row(), 1);
        QCOMPARE(topLeft.column(), 0);
        QCOMPARE(bottomRight.column(), JobTableModel::kColumnCount - 1);
        QCOMPARE(text(1, Column::State), QStringLiteral("R"));
        QCOMPARE(text(1, Column::NodeList), QStringLiteral("cn03"));
        QCOMPARE(text(0, Column::NodeList), QStringLiteral("(Resources)"));
    }

    void identicalUpdateEmitsNothing()
    {
        m_model->updateJob(decoded(pendingJob(12)));
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);
        m_model->updateJob(decoded(pendingJob(12)));
        QCOMPARE(changed.count(), 0);
        QCOMPARE(m_model->rowCount(), 1);
    }

    void advancingTheClockRefreshesTimeOfRunningRowsOnly()
    {
        m_model->updateJob(decoded(runningJob(1, {"cn01"})));
        m_model->updateJob(decoded(runningJob(2, {"cn02"})));
        m_model->updateJob(decoded(pendingJob(3)));
        m_model->updateJob(decoded(runningJob(4, {"cn03"})));
        QSignalSpy changed(m_model.get(), &QAbstractItemModel::dataChanged);

        m_model->setNow(kNow + 10);

        const int timeColumn = JobTableModel::columnIndex(Column::Time);
        QList<int> rows;
        for (const auto &arguments : changed) {
            const auto topLeft = arguments.at(0).value<QModelIndex>();
            const auto bottomRight = arguments.at(1).value<QModelIndex>();
            QCOMPARE(topLeft.column(), timeColumn);
            QCOMPARE(bottomRight.column(), timeColumn);
            for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
                rows << row;
            }
        }
        QCOMPARE(rows, QList<int>({0, 1, 3}));
        QCOMPARE(text(0, Column::Time), QStringLiteral("1:15"));
        QCOMPARE(text(2, Column::Time), QStringLiteral("0:00"));
    }

    void failedJobShowsReasonAndCompletedJobShowsNodes()
    {
        m_model->updateJob(decoded(runningJob(7, {"cn01"}, kNow - 20)
                                       .set("state", "FAILED")
                                       .set("state_short", "F")
                                       .set("reason", "NonZeroExitCode")
                                       .set("end_time", kNow - 20)));
        m_model->updateJob(decoded(runningJob(8, {"cn01", "cn02", "cn04"}, kNow - 30)
                                       .set("state", "COMPLETED")
                                       .set("state_short", "CD")
                                       .set("end_time", kNow - 18)));
        QCOMPARE(text(0, Column::State), QStringLiteral("F"));
        QCOMPARE(text(0, Column::NodeList), QStringLiteral("(NonZeroExitCode)"));
        QCOMPARE(text(0, Column::Time), QStringLiteral("0:00"));
        QCOMPARE(text(1, Column::State), QStringLiteral("CD"));
        QCOMPARE(text(1, Column::NodeList), QStringLiteral("cn[01-02,04]"));
        QCOMPARE(text(1, Column::Time), QStringLiteral("0:12"));
    }

    void shortStateIsDerivedWhenMissing()
    {
        m_model->updateJob(
            decoded(pendingJob(5).set("state", "CANCELLED").set("state_short", nullptr)));
        QCOMPARE(text(0, Column::State), QStringLiteral("CA"));
    }

    void finishedJobStaysListedUntilMinJobAgeThenAgesOut()
    {
        m_model->updateJob(decoded(runningJob(9, {"cn01"}, kNow - 50)
                                       .set("state", "COMPLETED")
                                       .set("state_short", "CD")
                                       .set("end_time", kNow)));
        m_model->updateJob(decoded(runningJob(10, {"cn02"})));
        QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);

        m_model->setNow(kNow + JobTableModel::kMinJobAge - 1);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(m_model->stateAt(0), QStringLiteral("COMPLETED"));

        m_model->setNow(kNow + JobTableModel::kMinJobAge);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(m_model->rowCount(), 1);
        QCOMPARE(m_model->jobIdAt(0), 10);
        QCOMPARE(m_model->rowOfJob(10), 0);
        QCOMPARE(m_model->rowOfJob(9), -1);
    }

    void snapshotRemovesJobsItNoLongerReportsAndKeepsTheOthers()
    {
        m_model->updateJob(decoded(pendingJob(1)));
        m_model->updateJob(decoded(pendingJob(2)));
        m_model->updateJob(decoded(pendingJob(3)));
        QSignalSpy removed(m_model.get(), &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(m_model.get(), &QAbstractItemModel::modelReset);

        m_model->resetJobs(
            decodedAll({runningJob(3, {"cn01"}), pendingJob(4), pendingJob(1)}), kNow);

        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(m_model->rowCount(), 3);
        QCOMPARE(m_model->rowOfJob(2), -1);
        QCOMPARE(m_model->jobIdAt(m_model->rowOfJob(3)), 3);
        QCOMPARE(m_model->stateAt(m_model->rowOfJob(3)), QStringLiteral("RUNNING"));
        QVERIFY(m_model->rowOfJob(4) >= 0);
    }

    void countsChangedReportsPendingAndRunning()
    {
        QSignalSpy counts(m_model.get(), &JobTableModel::countsChanged);
        m_model->updateJob(decoded(pendingJob(1)));
        m_model->updateJob(decoded(pendingJob(2)));
        m_model->updateJob(decoded(runningJob(2, {"cn01"})));
        QCOMPARE(counts.count(), 3);
        QCOMPARE(counts.last(), QVariantList({1, 1}));
        QCOMPARE(m_model->pendingCount(), 1);
        QCOMPARE(m_model->runningCount(), 1);

        m_model->clear();
        QCOMPARE(m_model->rowCount(), 0);
        QCOMPARE(counts.last(), QVariantList({0, 0}));
    }

    void rolesGiveJobIdStateAndNumericSortKeys()
    {
        m_model->updateJob(decoded(runningJob(42, {"cn01"}, kNow - 600)));
        const QModelIndex jobIdCell = m_model->index(0, JobTableModel::columnIndex(Column::JobId));
        const QModelIndex timeCell = m_model->index(0, JobTableModel::columnIndex(Column::Time));
        QCOMPARE(jobIdCell.data(JobTableModel::JobIdRole).toLongLong(), 42);
        QCOMPARE(timeCell.data(JobTableModel::JobIdRole).toLongLong(), 42);
        QCOMPARE(timeCell.data(JobTableModel::StateRole).toString(), QStringLiteral("RUNNING"));
        m_model->updateJob(decoded(runningJob(43, {"cn01"}, kNow - 600)));
        QVERIFY(jobIdCell.data(JobTableModel::SortRole).toLongLong()
            < m_model->index(1, 0).data(JobTableModel::SortRole).toLongLong());
        QCOMPARE(timeCell.data(JobTableModel::SortRole).toLongLong(), 600);
        QCOMPARE(timeCell.data().toString(), QStringLiteral("10:00"));
    }

    void arrayTasksShowAsSqueueDoesAndSortWithTheirArray()
    {
        // Array 50: its record with the tasks still pending, and task 3 running as job 53;
        // job 51 is an ordinary job submitted between them.
        m_model->updateJob(
            decoded(pendingJob(50).set("array_job_id", 50).set("array_task_str", "4-10%2")));
        m_model->updateJob(
            decoded(runningJob(53, {"cn01"}).set("array_job_id", 50).set("array_task_id", 3)));
        m_model->updateJob(decoded(pendingJob(51)));
        m_model->updateJob(
            decoded(runningJob(52, {"cn02"}).set("array_job_id", 50).set("array_task_id", 2)));
        const auto cell = [this](qint64 id) {
            return m_model->index(m_model->rowOfJob(id), JobTableModel::columnIndex(Column::JobId));
        };
        QCOMPARE(cell(50).data().toString(), QStringLiteral("50_[4-10%2]"));
        QCOMPARE(cell(53).data().toString(), QStringLiteral("50_3"));
        QCOMPARE(cell(52).data().toString(), QStringLiteral("50_2"));
        QCOMPARE(cell(51).data().toString(), QStringLiteral("51"));
        const auto key = [&cell](qint64 id) {
            return cell(id).data(JobTableModel::SortRole).toLongLong();
        };
        // Sorted by JOBID: the record, its tasks in task order, then the next job.
        QVERIFY(key(50) < key(52));
        QVERIFY(key(52) < key(53));
        QVERIFY(key(53) < key(51));
    }

    void objectWithoutJobIdIsIgnored()
    {
        m_model->updateJob(decoded(mc::proto::Json::object().set("state", "PENDING")));
        QCOMPARE(m_model->rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(JobTableModelTest)
#include "job_table_model_test.moc"
