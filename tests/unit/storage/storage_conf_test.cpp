#include "mc/storage/storage_conf.h"

#include <QTest>

using namespace mc::storage;

class StorageConfTest : public QObject {
    Q_OBJECT
private slots:
    void readsFilesystemLinesAndSkipsOtherKinds()
    {
        auto conf = parseStorageConf("User=alice UID=1001 DefaultAccount=def-prof\n"
                                     "Filesystem=home Quota=50G Files=500k  # per user\n"
                                     "Filesystem=scratch Quota=20T Files=1000k "
                                     "PurgeAfterDays=60 PurgeNoticeDays=14\n"
                                     "Filesystem=project Quota=1000G Files=500k\n"
                                     "StorageCheckInterval=5\n");
        QVERIFY2(conf.problems.empty(), conf.problems.empty() ? "" : conf.problems[0].c_str());
        QCOMPARE(conf.filesystems.size(), std::size_t(3));
        const FilesystemPolicy *scratch = conf.find("scratch");
        QVERIFY(scratch);
        QCOMPARE(scratch->spaceQuota, 20LL << 40);
        QCOMPARE(scratch->fileQuota, 1000000LL);
        QCOMPARE(scratch->purgeAfterDays, 60);
        QCOMPARE(scratch->purgeNoticeDays, 14);
        QVERIFY(scratch->scope() == QuotaScope::User);
        QVERIFY(conf.find("project")->scope() == QuotaScope::Account);
        QCOMPARE(conf.find("home")->purgeAfterDays, 0);
        QCOMPARE(conf.checkIntervalSeconds, 5);
    }

    void reportsWhatItCannotRead()
    {
        auto conf = parseStorageConf("Filesystem=tmp Quota=1G\n"
                                     "Filesystem=home Quota=lots Colour=blue\n"
                                     "Filesystem=home Quota=1G\n"
                                     "StorageCheckInterval=soon\n");
        QCOMPARE(conf.problems.size(), std::size_t(4));
        QVERIFY(conf.problems[0].find("unknown filesystem 'tmp'") != std::string::npos);
        QVERIFY(conf.problems[1].find("cannot read 'Quota=lots'") != std::string::npos);
        QVERIFY(conf.problems[2].find("given twice") != std::string::npos);
        QCOMPARE(conf.problems[3],
            std::string("minicluster.conf:4: StorageCheckInterval= needs whole seconds"));
        QCOMPARE(conf.checkIntervalSeconds, 60);
    }

    void datasetsAndLocalscratchHaveTheirOwnScopesAndOnlyScratchIsPurged()
    {
        auto conf = parseStorageConf("Filesystem=datasets Quota=1T Files=1000k\n"
                                     "Filesystem=localscratch Quota=100G Files=1000k\n"
                                     "Filesystem=home Quota=50G PurgeAfterDays=30\n");
        QCOMPARE(conf.filesystems.size(), std::size_t(3));
        QVERIFY(conf.find("datasets")->scope() == QuotaScope::Shared);
        QCOMPARE(conf.find("datasets")->spaceQuota, 1LL << 40);
        QVERIFY(conf.find("localscratch")->scope() == QuotaScope::Job);
        QCOMPARE(conf.find("localscratch")->fileQuota, 1000000LL);
        QCOMPARE(conf.problems.size(), std::size_t(1));
        QVERIFY(conf.problems[0].find("minicluster.conf:3: PurgeAfterDays= applies to scratch only")
            != std::string::npos);
        QCOMPARE(conf.find("home")->purgeAfterDays, 0);
    }

    void noticeIsNeverLongerThanThePolicy()
    {
        auto conf = parseStorageConf("Filesystem=scratch PurgeAfterDays=3 PurgeNoticeDays=10\n");
        QCOMPARE(conf.find("scratch")->purgeNoticeDays, 3);
    }
};

QTEST_GUILESS_MAIN(StorageConfTest)
#include "storage_conf_test.moc"
