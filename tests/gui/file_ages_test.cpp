// File ages and scratch purge candidates judged on the cluster clock (the storage node's journal
// of it), not on this computer's clock, without a display.

#include "mc/gui/file_ages.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using mc::gui::FileAge;
using mc::gui::FileAgeJudge;
using mc::gui::FileFacts;
using mc::gui::PurgePolicy;
using mc::gui::purgePolicyOf;
using mc::gui::PurgeState;

namespace {

constexpr qint64 kDay = 86400;
constexpr qint64 kWall = 1'790'000'000; // this computer's clock when the app looks
constexpr qint64 kJumpWall = kWall - 1000; // when the instructor fast-forwarded 61 days
constexpr qint64 kAhead = 61 * kDay;
const PurgePolicy kScratch{60, 14};

// The storage node's journal: the clock ran with the wall clock, then jumped 61 days.
QString journal()
{
    return QStringLiteral("%1 %1 1.000000\n%2 %3 1.000000\n")
        .arg(kWall - 30 * kDay)
        .arg(kJumpWall)
        .arg(kJumpWall + kAhead);
}

FileFacts file(const char *path, qint64 lastUseOnThisComputer)
{
    return {QString::fromLatin1(path), 100, lastUseOnThisComputer};
}

} // namespace

class FileAgesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aFastForwardAgesTheFilesUsedBeforeItAndNotTheOthers()
    {
        const FileAgeJudge judge(journal(), kWall, kWall + kAhead, 1.0);
        QCOMPARE(judge.now(), kWall + kAhead);
        const QList<FileAge> ages = judge.judge(
            {file("/s/before", kJumpWall - 500), file("/s/after", kJumpWall + 500)}, kScratch, {});
        // 500 s before the jump: 61 days and 1,500 s ago on the cluster clock.
        QCOMPARE(ages[0].age, kAhead + 1500);
        QCOMPARE(ages[0].lastUse, kJumpWall - 500);
        QCOMPARE(ages[0].purge, PurgeState::ToBeListed);
        QCOMPARE(ages[0].purgeAt, kWall + kAhead + 14 * kDay); // listed now, 14 days' notice
        QCOMPARE(ages[1].age, 500);
        QCOMPARE(ages[1].purge, PurgeState::None);
    }

    void listedFilesGoAfterTheWholeNoticeAndUsingAFileTakesItOff()
    {
        const FileAgeJudge judge(journal(), kWall, kWall + kAhead, 1.0);
        const qint64 now = judge.now();
        const QList<FileAge> ages = judge.judge(
            {file("/s/long-listed", kJumpWall - 20 * kDay), file("/s/just-listed", kJumpWall - 10),
                file("/s/used-since", kJumpWall + 20)},
            kScratch,
            {{QStringLiteral("/s/long-listed"), now - 15 * kDay},
                {QStringLiteral("/s/just-listed"), now - 2 * kDay},
                {QStringLiteral("/s/used-since"), now - 3 * kDay}});
        QCOMPARE(ages[0].purge, PurgeState::Due);
        QCOMPARE(ages[1].purge, PurgeState::Listed);
        QCOMPARE(ages[1].listedAt, now - 2 * kDay);
        QCOMPARE(ages[1].purgeAt, now + 12 * kDay);
        QCOMPARE(ages[2].purge, PurgeState::None);
    }

    void homeIsNeverPurgedHoweverOld()
    {
        const FileAgeJudge judge(journal(), kWall, kWall + kAhead, 1.0);
        const auto ages = judge.judge({file("/h/old", kJumpWall - 200 * kDay)}, PurgePolicy{}, {});
        QVERIFY(ages[0].age > 200 * kDay);
        QCOMPARE(ages[0].purge, PurgeState::None);
    }

    void aJumpTheStorageNodeHasNotSeenCountsFromWhenTheAppSeesIt()
    {
        // No journal at all: the app's own reading is the only one, so files keep the ages
        // this computer gives them...
        const FileAgeJudge fresh(QString(), kWall, kWall, 1.0);
        QCOMPARE(fresh.judge({file("/s/a", kWall - 3600)}, kScratch, {})[0].age, 3600);
        // ...and a jump after the node's last reading is dated now.
        const QString old = QStringLiteral("%1 %1 1.000000\n").arg(kWall - kDay);
        const FileAgeJudge jumped(old, kWall, kWall + kAhead, 1.0);
        QCOMPARE(jumped.clusterTimeOf(kWall - 3600), kWall - 3600);
        QCOMPARE(jumped.judge({file("/s/a", kWall - 3600)}, kScratch, {})[0].age, kAhead + 3600);
    }

    void policyComesFromMiniclusterConf()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("etc")));
        QFile conf(dir.filePath(QStringLiteral("etc/minicluster.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("Filesystem=home Quota=50G Files=500k\n"
                   "Filesystem=scratch Quota=20T Files=1000k PurgeAfterDays=60 "
                   "PurgeNoticeDays=14\n");
        conf.close();
        QCOMPARE(purgePolicyOf(dir.path(), QStringLiteral("scratch")).afterDays, 60);
        QCOMPARE(purgePolicyOf(dir.path(), QStringLiteral("scratch")).noticeDays, 14);
        QCOMPARE(purgePolicyOf(dir.path(), QStringLiteral("home")).afterDays, 0);
        QCOMPARE(purgePolicyOf(dir.path(), QStringLiteral("project")).afterDays, 0);
    }
};

QTEST_GUILESS_MAIN(FileAgesTest)
#include "file_ages_test.moc"
