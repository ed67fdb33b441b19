// What the filesystems view reads: the storage node's snapshot and purge list, file walks.

#include "mc/gui/storage_files.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace mc::gui;

class StorageFilesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void usageSnapshotIsReadAsTheStorageNodeWritesIt()
    {
        const auto data = parseUsageSnapshot(QStringLiteral(
            "# minicluster storage usage; measured_at (cluster clock) then filesystem owner "
            "bytes files space_quota file_quota\n"
            "measured_at 1800000000\n"
            "home alice 160768 13 53687091200 500000\n"
            "project def-prof 8192 2 1073741824000 500000\n"));
        QVERIFY(data);
        QCOMPARE(data->measuredAt, 1800000000);
        QCOMPARE(data->entries.size(), 2);
        QCOMPARE(data->entries[0],
            (UsageEntry{
                QStringLiteral("home"), QStringLiteral("alice"), 160768, 13, 53687091200, 500000}));
        QVERIFY(!parseUsageSnapshot(QStringLiteral("# nothing measured yet\n")));
    }

    void purgeListMapsPathsToWhenListed()
    {
        const auto listed = parsePurgeList(QStringLiteral(
            "1700000000\t/c/scratch/alice/old.dat\n1700000500\t/c/scratch/alice/b c\n"));
        QCOMPARE(listed.size(), 2);
        QCOMPARE(listed.value(QStringLiteral("/c/scratch/alice/b c")), 1700000500);
    }

    void walkCountsEveryFileAndKeepsTheOldest()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("a/b")));
        for (const char *name : {"one", "a/two", "a/b/three"}) {
            QFile file(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("12345");
        }
        const TreeFacts facts = scanFiles(dir.path(), 2);
        QVERIFY(facts.exists);
        QCOMPARE(facts.count, 3);
        QCOMPARE(facts.bytes, 15);
        QCOMPARE(facts.files.size(), 2);
        QVERIFY(facts.files[0].lastUse <= facts.files[1].lastUse);
        QVERIFY(!scanFiles(dir.filePath(QStringLiteral("none"))).exists);
    }

    void tmpdirAndWordsForPeople()
    {
        QCOMPARE(slurmTmpdirOnHost(
                     QStringLiteral("/c"), QStringLiteral("cn01"), QStringLiteral("alice"), 42),
            QStringLiteral("/c/nodes/cn01/localscratch/alice.42.0"));
        QCOMPARE(ageText(3 * 86400 + 5), QStringLiteral("3 d"));
        QCOMPARE(ageText(7200), QStringLiteral("2 h"));
        QCOMPARE(ageText(59), QStringLiteral("59 s"));
        QCOMPARE(sizeText(300), QStringLiteral("300 B"));
        QCOMPARE(sizeText(1536), QStringLiteral("1.5 KiB"));
    }
};

QTEST_GUILESS_MAIN(StorageFilesTest)
#include "storage_files_test.moc"
