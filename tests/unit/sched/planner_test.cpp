#include "mc/sched/planner.h"

#include <QtTest>

using mc::sched::Amount;
using mc::sched::kInfinite;
using mc::sched::Planner;

class PlannerTest : public QObject {
    Q_OBJECT

private slots:
    void releasedResourcesCountFromTheirEndOn()
    {
        Planner p({Amount{0, 0, 0}}, 100);
        p.addRelease(0, 700, Amount{4, 8000, 0});
        QVERIFY(!p.fits(0, Amount{1, 0, 0}, 100, 200));
        QVERIFY(p.fits(0, Amount{4, 8000, 0}, 700, kInfinite));
        QCOMPARE(p.earliestOn(0, Amount{2, 0, 0}, 60), std::optional<mc::sched::Seconds>(700));
    }

    void takenResourcesLeaveTheWindowFreeAfterwards()
    {
        Planner p({Amount{4, 100, 0}}, 0);
        p.take(0, Amount{4, 100, 0}, 600, 1200);
        QVERIFY(p.fits(0, Amount{4, 100, 0}, 0, 600)); // ends right when the reservation starts
        QVERIFY(!p.fits(0, Amount{1, 0, 0}, 0, 601));
        QVERIFY(p.fits(0, Amount{4, 100, 0}, 1200, kInfinite));
        QCOMPARE(p.freeAt(0, 900).cpus, 0);
        QCOMPARE(p.freeAt(0, 1200).cpus, 4);
    }

    void earliestSlotNeedsAllNodesAtTheSameTime()
    {
        Planner p({Amount{0, 0, 0}, Amount{4, 0, 0}}, 0);
        p.addRelease(0, 500, Amount{4, 0, 0});
        p.take(1, Amount{4, 0, 0}, 100, 300); // node 1 busy in [100, 300)
        const auto slot = p.earliestSlot({0, 1}, Amount{4, 0, 0}, 200, 2);
        QVERIFY(slot);
        QCOMPARE(slot->start, 500);
        QCOMPARE(slot->nodes.size(), std::size_t(2));
        const auto single = p.earliestSlot({0, 1}, Amount{4, 0, 0}, 100, 1);
        QVERIFY(single);
        QCOMPARE(single->start, 0); // node 1 is free for 100 s from now
        QCOMPARE(single->nodes.front(), std::size_t(1));
    }

    void aJobThatNeverFitsHasNoSlot()
    {
        Planner p({Amount{2, 0, 0}}, 0);
        QVERIFY(!p.earliestSlot({0}, Amount{4, 0, 0}, 60, 1));
        QVERIFY(!p.earliestOn(0, Amount{4, 0, 0}, 60));
    }
};

QTEST_APPLESS_MAIN(PlannerTest)
#include "planner_test.moc"
