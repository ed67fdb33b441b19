// The scratch purge on the cluster clock: an instructor fast-forwards 61 days, the student's old
// scratch file is listed in ~/scratch_purge_notice.txt with its age (and the login says so);
// 15 days later it is purged and the purge is logged. Home and newer files stay.
#include "storage_support.h"

#include <QFileInfo>
#include <QtTest>

#include <ctime>

using namespace storage_test;

class StoragePurgeTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void oldScratchFilesAreListedThenPurgedOnTheClusterClock();

private:
    std::unique_ptr<ClusterFixture> m_cluster;
};

void StoragePurgeTest::initTestCase()
{
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY(setStoragePolicy(*m_cluster,
        QStringLiteral("Filesystem=home Quota=50G Files=500k\n"
                       "Filesystem=scratch Quota=20T Files=1000k PurgeAfterDays=60 "
                       "PurgeNoticeDays=14\n"
                       "StorageCheckInterval=1\n")));
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
}

void StoragePurgeTest::cleanupTestCase()
{
    m_cluster.reset();
}

void StoragePurgeTest::oldScratchFilesAreListedThenPurgedOnTheClusterClock()
{
    QCOMPARE(m_cluster
                 ->shell(QStringLiteral("mkdir -p ~/scratch/run1 && echo 1,2 > "
                                        "~/scratch/run1/old.csv && echo keep > ~/keep.txt"))
                 .exitCode,
        0);
    const QString old = m_cluster->dir() + QStringLiteral("/scratch/alice/run1/old.csv");
    // The storage node dates a clock jump to the second it sees it: let the file's second end.
    const qint64 written = QFileInfo(old).lastModified().toSecsSinceEpoch();
    QTRY_VERIFY_WITH_TIMEOUT(static_cast<qint64>(std::time(nullptr)) > written, 3000);

    const QString notice
        = m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("scratch_purge_notice.txt"));
    QVERIFY(!QFile::exists(notice));
    QVERIFY2(advanceClock(*m_cluster, 61 * 86400) >= 0, "the controller refused the fast-forward");
    QTRY_VERIFY_WITH_TIMEOUT(readFile(notice).contains(QStringLiteral("/run1/old.csv")), 15000);
    const QString text = readFile(notice);
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\\n +61 +.*run1/old\\.csv"))),
        qPrintable(text));
    QVERIFY(QFile::exists(old)); // listed first, never purged at once
    // The daemons' list of alice's files is theirs alone: it names her files.
    const QFileInfo listed(m_cluster->dir() + QStringLiteral("/run/storage/purge-alice.tsv"));
    QVERIFY(listed.exists());
    QCOMPARE(listed.permissions()
            & ~(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser),
        QFile::Permissions());
    // A file written after the fast-forward is young on the cluster clock.
    QCOMPARE(m_cluster->shell(QStringLiteral("echo new > ~/scratch/new.csv")).exitCode, 0);
    ShellResult login = m_cluster->shell(QStringLiteral("true"));
    if (!readFile(m_cluster->dir() + QStringLiteral("/run/sandbox"))
             .startsWith(QStringLiteral("plain"))) {
        QVERIFY2(login.err.contains(QStringLiteral("due to be purged")), qPrintable(login.err));
    }

    QVERIFY(advanceClock(*m_cluster, 15 * 86400) > 0);
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(old), 15000);
    QVERIFY(QFile::exists(m_cluster->dir() + QStringLiteral("/scratch/alice/run1")));
    QVERIFY(QFile::exists(m_cluster->dir() + QStringLiteral("/scratch/alice/new.csv")));
    QVERIFY(
        QFile::exists(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("keep.txt"))));
    // The log line follows the unlink by microseconds: wait for it too.
    const QString logPath = m_cluster->dir() + QStringLiteral("/log/purge.log");
    const QRegularExpression logged(
        QStringLiteral("purged (/scratch|\\S+/scratch)/alice/run1/old\\.csv user=alice age=76d"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(logPath).contains(logged), 5000);
    QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(notice), 15000);
}

QTEST_GUILESS_MAIN(StoragePurgeTest)
#include "storage_purge_test.moc"
