#include "mc/storage/usage_report.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace mc::storage;

namespace {

void writeBytes(const std::string &path, std::size_t n)
{
    std::ofstream(path) << std::string(n, 'x');
}

} // namespace

class UsageReportTest : public QObject {
    Q_OBJECT
private slots:
    void reportHasTheAllianceColumns()
    {
        std::vector<UsageLine> lines = {
            {"home", "mkurepa", 157 * 1024, 13, 50LL << 30, 500000},
            {"scratch", "mkurepa", 25 * 1024, 1, 20LL << 40, 1000000},
            {"project", "def-hfani", 181LL << 30, 503000, 1000LL << 30, 505000},
        };
        // The lines of an Alliance cluster's diskusage_report, column for column.
        QCOMPARE(formatReport(lines),
            std::string("                             Description                Space"
                        "           # of files\n"
                        "                    /home (user mkurepa)             157k/50G"
                        "              13/500k\n"
                        "                 /scratch (user mkurepa)              25k/20T"
                        "              1/1000k\n"
                        "              /project (group def-hfani)           181G/1000G"
                        "            503k/505k\n"));
    }

    void measuresAllocatedSpaceAndEveryEntry()
    {
        QTemporaryDir tmp;
        std::string dir = tmp.path().toStdString();
        StorageView view = hostView(dir);
        namespace fs = std::filesystem;
        fs::create_directories(view.userHome("alice") + "/sub");
        fs::create_directories(view.userScratch("alice"));
        fs::create_directories(view.accountProject("def-prof") + "/alice");
        writeBytes(view.userHome("alice") + "/a", 10000);
        writeBytes(view.userHome("alice") + "/sub/b", 1);
        auto conf = parseStorageConf("Filesystem=home Quota=4k Files=3\n"
                                     "Filesystem=scratch Quota=1G Files=10\n"
                                     "Filesystem=project Quota=1G Files=10\n");
        auto lines = measureUsage(conf, view, "alice", {"def-prof"});
        QCOMPARE(lines.size(), std::size_t(3));
        QCOMPARE(lines[0].files, 4LL); // home, sub, a, sub/b
        QVERIFY(lines[0].bytes >= 10000); // allocated blocks: at least the data
        QCOMPARE(lines[1].files, 1LL); // the empty scratch folder itself
        QCOMPARE(lines[2].owner, std::string("def-prof"));
        QCOMPARE(lines[2].files, 2LL);
        QVERIFY(lines[0].overSpace());
        QVERIFY(lines[0].overFiles());
        QVERIFY(!lines[1].overSpace() && !lines[1].overFiles());

        auto notices = overQuotaNotices(lines);
        QCOMPARE(notices.size(), std::size_t(1));
        QVERIFY(notices[0].find("/home (user alice)") != std::string::npos);
        QVERIFY(notices[0].find("4 files of 3") != std::string::npos);
        QVERIFY(notices[0].find("Nothing is deleted") != std::string::npos);
    }

    void datasetsAndTheJobTmpdirHaveTheirOwnQuotas()
    {
        QTemporaryDir tmp;
        std::string dir = tmp.path().toStdString();
        StorageView view = hostView(dir);
        namespace fs = std::filesystem;
        fs::create_directories(view.datasets + "/mnist");
        writeBytes(view.datasets + "/mnist/train.csv", 100);
        std::string tmpdir = dir + "/nodes/cn01/localscratch/alice.12.0";
        fs::create_directories(tmpdir);
        for (int i = 0; i < 5; ++i) {
            writeBytes(tmpdir + "/f" + std::to_string(i), 10);
        }
        auto conf = parseStorageConf("Filesystem=home Quota=50G Files=500k\n"
                                     "Filesystem=datasets Quota=1T Files=1000k\n"
                                     "Filesystem=localscratch Quota=100G Files=4\n");
        QVERIFY(conf.problems.empty());
        // Not in the per-user measure (the storage node's snapshot)...
        QCOMPARE(measureUsage(conf, view, "alice", {}).size(), std::size_t(1));
        // ...but in diskusage_report's: /datasets always, the tmpdir inside a job only.
        auto outside = measureSharedUsage(conf, view, "", "");
        QCOMPARE(outside.size(), std::size_t(1));
        QCOMPARE(outside[0].description(), std::string("/datasets (shared)"));
        QCOMPARE(outside[0].files, 3LL); // datasets, mnist, train.csv
        auto lines = measureSharedUsage(conf, view, tmpdir, "12");
        QCOMPARE(lines.size(), std::size_t(2));
        QCOMPARE(lines[1].description(), std::string("/localscratch (job 12)"));
        QCOMPARE(lines[1].files, 6LL);
        QVERIFY(lines[1].overFiles() && !lines[0].overFiles());
        QVERIFY(formatReport(lines).find("/localscratch (job 12)") != std::string::npos);
        auto notices = overQuotaNotices(lines);
        QCOMPARE(notices.size(), std::size_t(1));
        QVERIFY(notices[0].find("6 files of 4") != std::string::npos);
        QVERIFY(notices[0].find("No space left on device") != std::string::npos);
        // A job whose folder is gone (ended) has no line.
        QCOMPARE(measureSharedUsage(conf, view, dir + "/gone", "13").size(), std::size_t(1));
    }

    void sbatchAndTheLoginReadTheSnapshot()
    {
        QTemporaryDir tmp;
        std::string dir = tmp.path().toStdString();
        StorageView view = hostView(dir);
        std::filesystem::create_directories(view.etc);
        std::ofstream(view.etc + "/group") << "alice:x:1001:\ndef-prof:x:6000:alice,bob\n";
        UsageSnapshot s;
        s.measuredAt = 1234;
        s.lines = {{"home", "alice", 10, 1, 100, 10}, {"scratch", "bob", 1000, 1, 100, 10},
            {"project", "def-prof", 5, 20, 100, 10}};
        QVERIFY(writeSnapshot(view.usageSnapshot(), s));
        auto back = readSnapshot(view.usageSnapshot());
        QVERIFY(back);
        QCOMPARE(back->measuredAt, 1234LL);
        QCOMPARE(back->lines.size(), std::size_t(3));

        auto alice = quotaWarnings(view.etc, "alice");
        QCOMPARE(alice.size(), std::size_t(1)); // the project of her group, not bob's scratch
        QVERIFY(alice[0].find("/project (group def-prof)") != std::string::npos);
        QCOMPARE(quotaWarnings(view.etc, "bob").size(), std::size_t(2));
        QVERIFY(quotaWarnings(dir + "/nowhere/etc", "alice").empty());
    }

    void sandboxViewUsesTheSandboxPaths()
    {
        StorageView v = viewFromEtc("/opt/minicluster/etc");
        QCOMPARE(v.scratch, std::string("/scratch"));
        QCOMPARE(v.usageSnapshot(), std::string("/opt/minicluster/run/storage/usage.tsv"));
        StorageView h = viewFromEtc("/data/cl/etc/");
        QCOMPARE(h.userScratch("a"), std::string("/data/cl/scratch/a"));
    }
};

QTEST_GUILESS_MAIN(UsageReportTest)
#include "usage_report_test.moc"
