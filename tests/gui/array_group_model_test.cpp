// The queue's tree without a display: each array one row (its record, or a summary once every
// task started) with its started tasks as children; kept right through inserts, changes and
// removals, checked by QAbstractItemModelTester, and through the queue's filters and sorting.

#include "mc/gui/array_group_model.h"
#include "mc/gui/job_table_model.h"
#include "mc/gui/queue_filter_model.h"
#include "test_jobs.h"

#include <QAbstractItemModelTester>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

#include <memory>

using mc::gui::ArrayGroupModel;
using mc::gui::JobTableModel;
using mc::gui::QueueFilterModel;
using mc::gui::test::decoded;
using mc::gui::test::decodedAll;
using mc::gui::test::job;
using mc::gui::test::kNow;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;
using Column = JobTableModel::Column;

namespace {

// Array 16's record: tasks 3 to 8 not started, two at a time.
Json arrayRecord(std::int64_t arrayId, const std::string &pending = "3-8%2")
{
    return pendingJob(arrayId, "JobArrayTaskLimit")
        .set("array_job_id", arrayId)
        .set("array_task_str", pending);
}

Json task(std::int64_t id, std::int64_t arrayId, std::int64_t taskId, const std::string &node)
{
    return runningJob(id, {node}).set("array_job_id", arrayId).set("array_task_id", taskId);
}

Json finished(Json job)
{
    return job.set("state", "COMPLETED").set("state_short", "CD").set("end_time", kNow - 5);
}

QString text(const QModelIndex &index, Column column = Column::JobId)
{
    return index.siblingAtColumn(JobTableModel::columnIndex(column)).data().toString();
}

// "9 16_[3-8%2](16_1 16_2) 20": the rows as shown, children in parentheses.
QString outline(const QAbstractItemModel &model, const QModelIndex &parent = {})
{
    QStringList rows;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        QString shown = index.data().toString();
        if (model.rowCount(index) > 0) {
            shown += QLatin1Char('(') + outline(model, index) + QLatin1Char(')');
        }
        rows << shown;
    }
    return rows.join(QLatin1Char(' '));
}

// The same outline with every level sorted, for models whose order is arrival order.
QString sortedOutline(const QAbstractItemModel &model, const QModelIndex &parent = {})
{
    QStringList rows;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        QString shown = index.data().toString();
        if (model.rowCount(index) > 0) {
            shown += QLatin1Char('(') + sortedOutline(model, index) + QLatin1Char(')');
        }
        rows << shown;
    }
    rows.sort();
    return rows.join(QLatin1Char(' '));
}

} // namespace

class ArrayGroupModelTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<JobTableModel> m_jobs;
    std::unique_ptr<ArrayGroupModel> m_tree;
    std::unique_ptr<QueueFilterModel> m_queue;

    void expectOutline(const QString &expected) { QCOMPARE(outline(*m_queue), expected); }

private Q_SLOTS:
    void init()
    {
        // A proxy's complaint about the signals it got is a failure.
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".+")));
        m_jobs = std::make_unique<JobTableModel>();
        m_tree = std::make_unique<ArrayGroupModel>();
        m_tree->setSourceModel(m_jobs.get());
        m_queue = std::make_unique<QueueFilterModel>();
        m_queue->setSourceModel(m_tree.get());
        m_queue->sort(JobTableModel::columnIndex(Column::JobId), Qt::AscendingOrder);
        new QAbstractItemModelTester(
            m_tree.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, m_tree.get());
        new QAbstractItemModelTester(
            m_queue.get(), QAbstractItemModelTester::FailureReportingMode::QtTest, m_queue.get());
    }

    void cleanup()
    {
        m_queue.reset();
        m_tree.reset();
        m_jobs.reset();
    }

    void aPendingArrayIsOneRowWithItsStartedTasksUnderIt()
    {
        m_jobs->resetJobs(decodedAll({pendingJob(20), arrayRecord(16), task(17, 16, 1, "cn01"),
                              task(18, 16, 2, "cn02"), runningJob(9, {"cn03"})}),
            kNow);
        QCOMPARE(m_tree->rowCount(), 3);
        expectOutline(QStringLiteral("9 16_[3-8%2](16_1 16_2) 20"));
        // The array's row is its record: squeue's columns and reason.
        const QModelIndex array = m_tree->indexOfArray(16);
        QVERIFY(array.data(ArrayGroupModel::ArrayGroupRole).toBool());
        QCOMPARE(array.data(JobTableModel::JobIdRole).toLongLong(), 16);
        QCOMPARE(text(array, Column::State), QStringLiteral("PD"));
        QCOMPARE(text(array, Column::NodeList), QStringLiteral("(JobArrayTaskLimit)"));
        QCOMPARE(array.data(Qt::ToolTipRole).toString(), QStringLiteral("Started tasks: 2 R"));
        const QModelIndex firstTask = m_tree->indexOfJob(17);
        QCOMPARE(firstTask.parent(), array);
        QCOMPARE(text(firstTask, Column::NodeList), QStringLiteral("cn01"));
        QVERIFY(!firstTask.data(ArrayGroupModel::ArrayGroupRole).toBool());
        QCOMPARE(m_tree->mapToSource(firstTask).row(), m_jobs->rowOfJob(17));
    }

    void tasksArrivingBeforeTheirRecordAreStillGrouped()
    {
        m_jobs->resetJobs(
            decodedAll({task(17, 16, 1, "cn01"), arrayRecord(16), task(18, 16, 2, "cn02")}), kNow);
        expectOutline(QStringLiteral("16_[3-8%2](16_1 16_2)"));
    }

    void theRecordBecomingTheLastTaskLeavesASummaryRow()
    {
        m_jobs->resetJobs(
            decodedAll({arrayRecord(16, "3"), task(17, 16, 1, "cn01"), task(18, 16, 2, "cn02")}),
            kNow);
        m_jobs->updateJob(decoded(finished(task(17, 16, 1, "cn01"))));
        // Slurm gives the last task the array's own id.
        m_jobs->updateJob(decoded(task(16, 16, 3, "cn01")));
        m_queue->setShowFinished(true);
        expectOutline(QStringLiteral("16(16_1 16_2 16_3)"));
        const QModelIndex array = m_tree->indexOfArray(16);
        QCOMPARE(array.data(JobTableModel::JobIdRole).toLongLong(), 0);
        QCOMPARE(text(array, Column::Name), QStringLiteral("train"));
        QCOMPARE(text(array, Column::User), QStringLiteral("alice"));
        QCOMPARE(text(array, Column::State), QString());
        QCOMPARE(text(array, Column::NodeList), QStringLiteral("3 tasks: 1 CD, 2 R"));
        QCOMPARE(m_tree->indexOfJob(16).parent(), array);
        QVERIFY(!m_tree->mapToSource(array).isValid());

        // A task that ends changes the summary.
        m_jobs->updateJob(decoded(finished(task(18, 16, 2, "cn02"))));
        QCOMPARE(text(array, Column::NodeList), QStringLiteral("3 tasks: 2 CD, 1 R"));
    }

    void theArraysRowGoesWithItsLastJob()
    {
        m_jobs->resetJobs(
            decodedAll({arrayRecord(16), task(17, 16, 1, "cn01"), pendingJob(20)}), kNow);
        m_jobs->resetJobs(decodedAll({task(17, 16, 1, "cn01"), pendingJob(20)}), kNow);
        m_queue->setShowFinished(true);
        expectOutline(QStringLiteral("16(16_1) 20"));
        m_jobs->resetJobs(decodedAll({pendingJob(20)}), kNow);
        expectOutline(QStringLiteral("20"));
        QVERIFY(!m_tree->indexOfArray(16).isValid());
        QVERIFY(!m_tree->indexOfJob(17).isValid());
        // Finished jobs age out of the store, and out of the tree.
        m_jobs->resetJobs(
            decodedAll({arrayRecord(30, "2"), finished(task(31, 30, 1, "cn01"))}), kNow);
        m_jobs->setNow(kNow + JobTableModel::kMinJobAge);
        expectOutline(QStringLiteral("30_[2]"));
        QCOMPARE(m_tree->rowCount(m_tree->indexOfArray(30)), 0);
    }

    void finishedTasksAreHiddenAndAFinishedArrayWithThem()
    {
        m_jobs->resetJobs(
            decodedAll({arrayRecord(16), finished(task(17, 16, 1, "cn01")), task(18, 16, 2, "cn02"),
                finished(task(41, 40, 1, "cn01")), finished(task(40, 40, 2, "cn02"))}),
            kNow);
        expectOutline(QStringLiteral("16_[3-8%2](16_2)"));
        m_queue->setShowFinished(true);
        expectOutline(QStringLiteral("16_[3-8%2](16_1 16_2) 40(40_1 40_2)"));
    }

    void filtersKeepAnArraysRowWhileOneOfItsTasksPasses()
    {
        m_jobs->resetJobs(
            decodedAll({arrayRecord(16), task(17, 16, 1, "cn01"), task(18, 16, 2, "cn02"),
                pendingJob(20).set("user", "bob"), task(51, 50, 1, "gpu01").set("partition", "gpu"),
                task(50, 50, 2, "gpu02").set("partition", "gpu")}),
            kNow);
        m_queue->setState(QStringLiteral("RUNNING"));
        expectOutline(QStringLiteral("16_[3-8%2](16_1 16_2) 50(50_1 50_2)"));
        m_queue->setState(QStringLiteral("PD"));
        expectOutline(QStringLiteral("16_[3-8%2] 20"));
        m_queue->setState({});
        m_queue->setUser(QStringLiteral("bob"));
        expectOutline(QStringLiteral("20"));
        m_queue->setUser(QStringLiteral("alice"));
        m_queue->setPartition(QStringLiteral("gpu"));
        expectOutline(QStringLiteral("50(50_1 50_2)"));
        // A task starting later shows under its array at once.
        m_queue->setPartition(QStringLiteral("cpu"));
        m_jobs->updateJob(decoded(task(19, 16, 3, "cn03")));
        expectOutline(QStringLiteral("16_[3-8%2](16_1 16_2 16_3)"));
    }

    void sortingOrdersArraysAmongJobsAndTasksWithinTheirArray()
    {
        m_jobs->resetJobs(
            decodedAll({task(18, 16, 2, "cn02").set("start_time", kNow - 10), arrayRecord(16),
                task(17, 16, 1, "cn01").set("start_time", kNow - 500), pendingJob(20),
                runningJob(9, {"cn03"}, kNow - 100)}),
            kNow);
        m_queue->sort(JobTableModel::columnIndex(Column::JobId), Qt::DescendingOrder);
        expectOutline(QStringLiteral("20 16_[3-8%2](16_2 16_1) 9"));
        m_queue->sort(JobTableModel::columnIndex(Column::Time), Qt::DescendingOrder);
        QCOMPARE(text(m_queue->index(0, 0)), QStringLiteral("9"));
        const QModelIndex array = m_queue->mapFromSource(m_tree->indexOfArray(16));
        QCOMPARE(text(m_queue->index(0, 0, array)), QStringLiteral("16_1")); // 8:20 before 0:10
        QCOMPARE(text(m_queue->index(1, 0, array)), QStringLiteral("16_2"));
    }

    // Many random arrivals, changes and departures: after each one the tree built incrementally
    // is the tree built from scratch (the testers check every signal on the way).
    void incrementalChangesMatchARebuild()
    {
        QRandomGenerator random(7);
        QList<Json> live;
        for (int step = 0; step < 400; ++step) {
            const int action = random.bounded(10);
            if (action < 5 || live.isEmpty()) {
                const std::int64_t id = 100 + step;
                const int kind = random.bounded(3);
                const std::int64_t arrayId = 1000 + random.bounded(4);
                Json next = kind == 0 ? pendingJob(id)
                    : kind == 1       ? task(id, arrayId, step, "cn01")
                                      : arrayRecord(arrayId, "1-9");
                if (kind == 2) {
                    bool known = false;
                    for (const Json &j : live) {
                        known = known || j["job_id"].toInt() == arrayId;
                    }
                    if (known) {
                        continue;
                    }
                }
                live.append(next);
                m_jobs->updateJob(decoded(next));
            } else if (action < 8) {
                const auto at = random.bounded(static_cast<int>(live.size()));
                Json changed = live[at];
                if (changed["array_job_id"].toInt() != 0 && !changed.contains("array_task_id")) {
                    changed.set("array_task_id", 99)
                        .set("state", "RUNNING")
                        .set("state_short", "R");
                } else {
                    changed = finished(changed);
                }
                live[at] = changed;
                m_jobs->updateJob(decoded(changed));
            } else {
                live.removeAt(random.bounded(static_cast<int>(live.size())));
                m_jobs->resetJobs(decodedAll(live), kNow);
            }
            ArrayGroupModel rebuilt;
            rebuilt.setSourceModel(m_jobs.get());
            QCOMPARE(sortedOutline(*m_tree), sortedOutline(rebuilt));
        }
        QVERIFY(m_tree->rowCount() > 0);
    }
};

QTEST_GUILESS_MAIN(ArrayGroupModelTest)
#include "array_group_model_test.moc"
