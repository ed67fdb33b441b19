#include "mc/storage/clock_journal.h"

#include <QTest>

using namespace mc::storage;

class ClockJournalTest : public QObject {
    Q_OBJECT
private slots:
    void withoutObservationsTheClusterClockIsTheWallClock()
    {
        ClockJournal j;
        QCOMPARE(j.clusterTimeOf(1000), 1000LL);
    }

    void aFastForwardAgesWhatCameBeforeItOnly()
    {
        ClockJournal j;
        const std::int64_t day = 86400;
        QVERIFY(j.observe(1000, 1000, 1.0));
        QVERIFY(!j.observe(1060, 1061, 1.0)); // within tolerance: same segment
        QVERIFY(j.observe(2000, 2000 + 61 * day, 1.0)); // an instructor fast-forwarded 61 days
        QCOMPARE(j.clusterTimeOf(1500), 1500LL); // a file used before the jump keeps its time
        QCOMPARE(j.clusterTimeOf(2100), 2100 + 61 * day); // one used after it is young
        QCOMPARE(j.clusterTimeOf(500), 500LL); // before the journal: the first offset
    }

    void aFasterClockStartsASegment()
    {
        ClockJournal j;
        j.observe(1000, 1000, 1.0);
        QVERIFY(j.observe(2000, 2000, 60.0));
        QCOMPARE(j.clusterTimeOf(2010), 2600LL);
        QVERIFY(!j.observe(2100, 8000, 60.0));
        // Whole wall seconds at 60x: a reading off by less than a wall second is the same clock.
        QVERIFY(!j.observe(2101, 8100, 60.0));
        QVERIFY(j.observe(2102, 8120 + 86400, 60.0)); // a fast-forward of a day
    }

    void survivesARoundTrip()
    {
        ClockJournal j;
        j.observe(1000, 5000, 1.0);
        j.observe(2000, 9000, 2.5);
        ClockJournal k = ClockJournal::decode(j.encode());
        QCOMPARE(k.segments().size(), std::size_t(2));
        QCOMPARE(k.clusterTimeOf(2010), j.clusterTimeOf(2010));
        QCOMPARE(k.segments()[1].speed, 2.5);
    }
};

QTEST_GUILESS_MAIN(ClockJournalTest)
#include "clock_journal_test.moc"
