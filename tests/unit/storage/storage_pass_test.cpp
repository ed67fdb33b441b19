// The storage node's pass on a real directory tree, with the cluster clock injected.
#include "mc/storage/storage_pass.h"
#include "mc/storage/usage_report.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace mc::storage;
namespace fs = std::filesystem;

namespace {

std::string readAll(const std::string &path)
{
    std::ifstream in(path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::int64_t wallNow()
{
    return static_cast<std::int64_t>(std::time(nullptr));
}

} // namespace

class StoragePassTest : public QObject {
    Q_OBJECT
private slots:
    void fastForwardListsThenPurgesOldScratchFilesOnly()
    {
        QTemporaryDir tmp;
        StorageView view = hostView(tmp.path().toStdString());
        StorageView seen = viewFromEtc("/opt/minicluster/etc");
        fs::create_directories(view.userHome("alice"));
        fs::create_directories(view.userScratch("alice") + "/run1");
        fs::create_directories(view.accountProject("def-prof"));
        std::ofstream(view.userScratch("alice") + "/run1/old.csv") << "1,2,3\n";
        std::ofstream(view.userHome("alice") + "/keep.txt") << "home is never purged\n";
        auto conf = parseStorageConf("Filesystem=home Quota=1G Files=100\n"
                                     "Filesystem=scratch Quota=1G Files=100 PurgeAfterDays=60 "
                                     "PurgeNoticeDays=14\n"
                                     "Filesystem=project Quota=1G Files=100\n");
        std::vector<StorageUser> users = {{"alice", {"def-prof"}}};
        std::string log = view.run + "/purge.log";

        // The cluster clock until now, then 61 days ahead (an instructor's fast-forward, seen
        // by the storage node just after the files above were written).
        const std::int64_t day = kDay;
        std::int64_t wall = wallNow();
        ClockJournal clock;
        clock.observe(wall - 100, wall - 100, 1.0);
        PassResult first = runStoragePass(conf, view, seen, users, clock, wall, log);
        QCOMPARE(first.listed, 0);
        QVERIFY(!fs::exists(view.userHome("alice") + "/" + kNoticeFile));
        auto snapshot = readSnapshot(view.usageSnapshot());
        QVERIFY(snapshot);
        QCOMPARE(snapshot->lines.size(), std::size_t(3));

        clock.observe(wall + 2, wall + 2 + 61 * day, 1.0);
        PassResult listed
            = runStoragePass(conf, view, seen, users, clock, wall + 2 + 61 * day, log);
        QCOMPARE(listed.listed, 1);
        QCOMPARE(listed.purged, 0);
        std::string notice = readAll(view.userHome("alice") + "/" + kNoticeFile);
        QVERIFY2(notice.find("/scratch/alice/run1/old.csv") != std::string::npos, notice.c_str());
        QVERIFY2(notice.find("       61  ") != std::string::npos, notice.c_str()); // age, days

        // 14 more days: the notice period is over.
        PassResult purged
            = runStoragePass(conf, view, seen, users, clock, wall + 2 + 75 * day, log);
        QCOMPARE(purged.purged, 1);
        QVERIFY(!fs::exists(view.userScratch("alice") + "/run1/old.csv"));
        QVERIFY(fs::exists(view.userScratch("alice") + "/run1")); // directories stay
        QVERIFY(fs::exists(view.userHome("alice") + "/keep.txt"));
        QVERIFY(!fs::exists(view.userHome("alice") + "/" + kNoticeFile));
        std::string logText = readAll(log);
        QVERIFY2(logText.find("purged /scratch/alice/run1/old.csv user=alice age=75d")
                != std::string::npos,
            logText.c_str());
    }

    void filesWrittenAfterAFastForwardAreYoung()
    {
        QTemporaryDir tmp;
        StorageView view = hostView(tmp.path().toStdString());
        fs::create_directories(view.userHome("alice"));
        fs::create_directories(view.userScratch("alice"));
        std::ofstream(view.userScratch("alice") + "/new.csv") << "4\n";
        auto conf = parseStorageConf("Filesystem=scratch PurgeAfterDays=60 PurgeNoticeDays=14\n");
        std::int64_t wall = wallNow();
        ClockJournal clock;
        clock.observe(wall - 100, wall - 100, 1.0);
        clock.observe(wall - 50, wall - 50 + 61 * kDay, 1.0); // before the file was written
        PassResult r = runStoragePass(
            conf, view, view, {{"alice", {}}}, clock, wall + 61 * kDay, view.run + "/log");
        QCOMPARE(r.listed, 0);
        QCOMPARE(r.filesScanned, 1LL);
    }

    void overQuotaDeletesNothing()
    {
        QTemporaryDir tmp;
        StorageView view = hostView(tmp.path().toStdString());
        fs::create_directories(view.userHome("bob"));
        fs::create_directories(view.userScratch("bob"));
        for (int i = 0; i < 5; ++i) {
            std::ofstream(view.userScratch("bob") + "/f" + std::to_string(i)) << i;
        }
        auto conf = parseStorageConf("Filesystem=scratch Quota=1k Files=2 PurgeAfterDays=60\n");
        ClockJournal clock;
        std::int64_t now = wallNow();
        PassResult r = runStoragePass(conf, view, view, {{"bob", {}}}, clock, now, view.run + "/l");
        QCOMPARE(r.purged, 0);
        QCOMPARE(std::distance(
                     fs::directory_iterator(view.userScratch("bob")), fs::directory_iterator()),
            5L);
        auto snapshot = readSnapshot(view.usageSnapshot());
        QVERIFY(snapshot);
        auto notices = overQuotaNotices(snapshot->lines);
        QCOMPARE(notices.size(), std::size_t(1));
        QVERIFY(notices[0].find("6 files of 2") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(StoragePassTest)
#include "storage_pass_test.moc"
