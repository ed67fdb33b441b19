#include "mc/sched/job_array.h"
#include "mc/sched/job_transitions.h"

#include <QtTest>

using namespace mc::sched;

class JobArrayTest : public QObject {
    Q_OBJECT

private slots:
    void parsesRangesListsStepsAndThrottle()
    {
        QCOMPARE(parseArraySpec("1-100")->taskIds.size(), std::size_t(100));
        QCOMPARE(parseArraySpec("1,3,5")->taskIds, (std::vector<std::uint32_t>{1, 3, 5}));
        QCOMPARE(parseArraySpec("0-20:2")->taskIds.size(), std::size_t(11));
        QCOMPARE(parseArraySpec("0-20:2")->taskIds.back(), 20u);
        QCOMPARE(parseArraySpec("1-10%2")->maxRunning, 2);
        // Slurm's strtol throttle: "%", "%0" and "%abc" are no limit, "%2x" is 2.
        QCOMPARE(parseArraySpec("1-10%")->maxRunning, 0);
        QCOMPARE(parseArraySpec("1-10%0")->maxRunning, 0);
        QCOMPARE(parseArraySpec("1-10%abc")->maxRunning, 0);
        QCOMPARE(parseArraySpec("1-10%2x")->maxRunning, 2);
        QCOMPARE(parseArraySpec("5,1-3")->taskIds, (std::vector<std::uint32_t>{1, 2, 3, 5}));
    }

    void rejectsMalformedSpecs()
    {
        QVERIFY(!parseArraySpec(""));
        QVERIFY(!parseArraySpec("5-1"));
        QVERIFY(!parseArraySpec("1-10:0"));
        QVERIFY(!parseArraySpec("a-b"));
        QVERIFY(!parseArraySpec("0-1001"));
    }

    void readsJobIdsAsSlurmsCommandsDo()
    {
        QCOMPARE(parseJobIdSpec("12")->job, 12u);
        QVERIFY(parseJobIdSpec("12")->tasks.empty()); // the whole job or array
        QCOMPARE(parseJobIdSpec("12_2")->tasks, (std::vector<std::uint32_t>{2}));
        QCOMPARE(parseJobIdSpec("12_[1-3,5]")->tasks, (std::vector<std::uint32_t>{1, 2, 3, 5}));
        QCOMPARE(parseJobIdSpec("12_[3]")->job, 12u);
        for (const char *bad : {"", "0", "x", "12_", "12_x", "12_[]", "12_[1-3%2]", "12_[3-1]",
                 "12_1_2", "-4", "12.batch"}) {
            QVERIFY2(!parseJobIdSpec(bad), bad);
        }
    }

    void formatsPendingTasksAsSqueueDoes()
    {
        QCOMPARE(formatArrayTasks({3, 4, 5, 6, 7, 8, 9, 10}, 2), std::string("[3-10%2]"));
        QCOMPARE(formatArrayTasks({1, 3, 5}, 0), std::string("[1,3,5]"));
        QCOMPARE(formatArrayTasks({0, 2, 4, 5, 6}, 0), std::string("[0,2,4-6]"));
    }

    void splittingKeepsOneRecordUntilTheLastTask()
    {
        Job record;
        record.id = JobId{7};
        record.arrayJobId = 7;
        record.arrayPending = {1, 2};
        auto first = splitArrayTask(record, 1, JobId{8});
        QVERIFY(!first.lastTask);
        QCOMPARE(first.task.id.value, 8u);
        QCOMPARE(first.task.arrayTaskId, std::optional<std::uint32_t>(1));
        QCOMPARE(first.record.arrayPending, std::vector<std::uint32_t>{2});
        auto last = splitArrayTask(first.record, 2, JobId{9});
        QVERIFY(last.lastTask);
        QCOMPARE(last.task.id.value, 7u); // the record itself becomes the last task
    }
};

QTEST_APPLESS_MAIN(JobArrayTest)
#include "job_array_test.moc"
