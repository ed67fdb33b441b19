#include "mc/sched/job_transitions.h"

#include <QtTest>

using namespace mc::sched;

class JobTransitionsTest : public QObject {
    Q_OBJECT

private slots:
    void startRecordsNodesAndAShortenedLimit()
    {
        Job j;
        j.timeLimit = 1800;
        StartDecision s{JobId{1}, {"cn01", "cn02"}, JobShape{2, 3, 100, 0, false, {}}, std::nullopt,
            600, false};
        const Job r = startJob(j, s, 50);
        QCOMPARE(r.state, JobState::Running);
        QCOMPARE(r.allocCpus, 6);
        QCOMPARE(r.batchHost, std::string("cn01"));
        QCOMPARE(r.timeLimit, 600);
        QVERIFY(isOverTime(r, 650));
        QVERIFY(!isOverTime(r, 649));
    }

    void requeueReturnsToPendingAndCountsRestarts()
    {
        Job j;
        j.state = JobState::Running;
        j.nodeList = {"cn01"};
        const Job r = requeueJob(j, 300, 121);
        QCOMPARE(r.state, JobState::Pending);
        QVERIFY(r.nodeList.empty());
        QCOMPARE(r.restarts, 1);
        QCOMPARE(r.eligibleTime, 300 + 121); // BeginTime until the requeue delay is over
    }

    void userCannotReleaseAnAdminHold()
    {
        Job j = holdJob(Job{}, true);
        QCOMPARE(j.reason, Reason::JobHeldAdmin);
        QVERIFY(!releaseJob(j, false));
        QVERIFY(releaseJob(j, true));
        QVERIFY(!releaseJob(j, true)->heldByAdmin);
        QVERIFY(releaseJob(holdJob(Job{}, false), false));
    }

    void endReasonFollowsTheState()
    {
        QCOMPARE(endJob(Job{}, JobState::Timeout, {}, 10).reason, Reason::TimeLimit);
        QCOMPARE(endJob(Job{}, JobState::Failed, {1, 0}, 10).reason, Reason::NonZeroExitCode);
        QCOMPARE(endJob(Job{}, JobState::Completed, {}, 10).endTime, 10);
    }
};

QTEST_APPLESS_MAIN(JobTransitionsTest)
#include "job_transitions_test.moc"
