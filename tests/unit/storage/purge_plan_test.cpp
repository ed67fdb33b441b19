#include "mc/storage/purge_plan.h"

#include <QTest>

using namespace mc::storage;

class PurgePlanTest : public QObject {
    Q_OBJECT
private slots:
    void youngFilesAreNeitherListedNorPurged()
    {
        std::int64_t now = 1000 * kDay;
        auto d = planPurge({{"/scratch/a/new", 10, now - 10 * kDay}}, {}, now, 60, 14);
        QVERIFY(d.notice.empty());
        QVERIFY(d.purge.empty());
    }

    void anOldFileIsFirstListedThenPurgedAfterTheNotice()
    {
        std::int64_t now = 1000 * kDay;
        std::vector<PurgeCandidate> files
            = {{"/scratch/a/old", 10, now - 61 * kDay}, {"/scratch/a/older", 20, now - 90 * kDay}};
        auto first = planPurge(files, {}, now, 60, 14);
        QVERIFY(first.purge.empty()); // never purged without a notice first
        QCOMPARE(first.notice.size(), std::size_t(2));
        QCOMPARE(first.notice[0].path, std::string("/scratch/a/older")); // oldest first
        QCOMPARE(first.notice[0].ageSeconds, 90 * kDay);
        QCOMPARE(first.notice[0].purgeAt, now + 14 * kDay);

        std::map<std::string, std::int64_t> listed;
        for (const auto &e : first.notice) {
            listed[e.path] = e.listedAt;
        }
        auto early = planPurge(files, listed, now + 13 * kDay, 60, 14);
        QVERIFY(early.purge.empty());
        QCOMPARE(early.notice[0].listedAt, now);

        auto due = planPurge(files, listed, now + 14 * kDay, 60, 14);
        QCOMPARE(due.purge.size(), std::size_t(2));
        QVERIFY(due.notice.empty());
    }

    void aFileNearTheLimitIsListedAheadAndGoesWhenOldEnough()
    {
        std::int64_t now = 1000 * kDay;
        auto d = planPurge({{"/s/f", 1, now - 50 * kDay}}, {}, now, 60, 14);
        QCOMPARE(d.notice.size(), std::size_t(1));
        QCOMPARE(d.notice[0].purgeAt, now + 14 * kDay); // max(listed + 14, lastUse + 60)
        auto d2 = planPurge({{"/s/g", 1, now - 47 * kDay}}, {}, now, 60, 14);
        QCOMPARE(d2.notice[0].purgeAt, now + 14 * kDay); // 47 + 14 = 61 > 60
        auto d3 = planPurge({{"/s/h", 1, now - 46 * kDay}}, {}, now, 60, 14);
        QCOMPARE(d3.notice[0].purgeAt, now + 14 * kDay);
    }

    void usingAListedFileTakesItOffTheList()
    {
        std::int64_t now = 1000 * kDay;
        std::map<std::string, std::int64_t> listed = {{"/s/f", now - 20 * kDay}};
        auto d = planPurge({{"/s/f", 1, now - kDay}}, listed, now, 60, 14);
        QVERIFY(d.notice.empty());
        QVERIFY(d.purge.empty());
        // Used after being listed, then old again: listed anew, with a fresh notice period.
        auto again = planPurge({{"/s/f", 1, now - kDay}}, listed, now + 70 * kDay, 60, 14);
        QVERIFY(again.purge.empty());
        QCOMPARE(again.notice.size(), std::size_t(1));
        QCOMPARE(again.notice[0].listedAt, now + 70 * kDay);
    }

    void noPolicyNoPurge()
    {
        auto d = planPurge({{"/s/f", 1, 0}}, {}, 1000 * kDay, 0, 14);
        QVERIFY(d.notice.empty() && d.purge.empty());
    }
};

QTEST_GUILESS_MAIN(PurgePlanTest)
#include "purge_plan_test.moc"
