#include "mc/sched/job_transitions.h"
#include "mc/sched/node_hold.h"

#include <QtTest>

using namespace mc::sched;

class JobTransitionsTest : public QObject {
    Q_OBJECT

private slots:
    void startRecordsNodesAndAShortenedLimit()
    {
        Job j;
        j.timeLimit = 1800;
        StartDecision s{JobId{1}, {"cn01", "cn02"}, JobShape{2, 3, 100, 0, false, {}, {}},
            std::nullopt, 600, false};
        const Job r = startJob(j, s, 50);
        QCOMPARE(r.state, JobState::Running);
        QCOMPARE(r.allocCpus, 6);
        QCOMPARE(r.batchHost, std::string("cn01"));
        QCOMPARE(r.timeLimit, 600);
        QVERIFY(isOverTime(r, 650));
        QVERIFY(!isOverTime(r, 649));
    }

    // The one rule of the controller and the simulator: an exclusive job holds whole nodes,
    // and its AllocCPUS counts them; a shared one holds its share.
    void exclusiveJobHoldsWholeNodesAndCountsTheirCpus()
    {
        NodeUsage small{"cn01", 4, 8000};
        NodeUsage big{"cn02", 16, 64000};
        big.gpus = 2;
        StartDecision s{JobId{1}, {"cn01", "cn02"}, JobShape{2, 1, 500, 0, true, {}, {}},
            std::nullopt, {}, false};
        const Job r = startOnNodes(Job{}, s, {&small, &big}, 50);
        QCOMPARE(r.allocCpus, 4 + 16);
        applyHold(big, holdOn(big, s.shape), +1);
        QCOMPARE(big.allocCpus, 16);
        QCOMPARE(big.allocMemory, 64000);
        QCOMPARE(big.allocGpus, 2);
        applyHold(big, holdOn(big, s.shape), -1);
        applyHold(big, holdOn(big, s.shape), -1); // never below zero
        QCOMPARE(big.allocCpus, 0);

        s.shape.exclusive = false;
        QCOMPARE(startOnNodes(Job{}, s, {&small, &big}, 50).allocCpus, 2);
        const NodeHold share = holdOn(big, s.shape);
        QCOMPARE(share.cpus, 1);
        QCOMPARE(share.memory, 500);
        QCOMPARE(share.gpus, 0);
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
