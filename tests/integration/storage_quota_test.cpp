// Quotas on the shared filesystems: diskusage_report measures them as the Alliance prints them;
// over quota, the user is told at login, by sbatch and by diskusage_report, and nothing is
// deleted.
#include "storage_support.h"

#include <QtTest>

using namespace storage_test;

class StorageQuotaTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void diskusageReportShowsHomeScratchAndProject();
    void overQuotaIsToldAtLoginAndNothingIsDeleted();

private:
    std::unique_ptr<ClusterFixture> m_cluster;
};

void StorageQuotaTest::initTestCase()
{
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY(setStoragePolicy(*m_cluster,
        QStringLiteral("Filesystem=home Quota=50G Files=40\n"
                       "Filesystem=scratch Quota=20T Files=1000k PurgeAfterDays=60\n"
                       "Filesystem=project Quota=1000G Files=500k\n"
                       "StorageCheckInterval=1\n")));
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
}

void StorageQuotaTest::cleanupTestCase()
{
    m_cluster.reset();
}

void StorageQuotaTest::diskusageReportShowsHomeScratchAndProject()
{
    ShellResult r = m_cluster->shell(QStringLiteral("diskusage_report"));
    QCOMPARE(r.exitCode, 0);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0],
        QStringLiteral("                             Description                Space           "
                       "# of files"));
    QVERIFY2(lines[1].startsWith(QStringLiteral("                      /home (user alice)")),
        qPrintable(r.out));
    QVERIFY(lines[1].endsWith(QStringLiteral("/40")));
    QVERIFY(lines[2].contains(QStringLiteral("/scratch (user alice)")));
    QVERIFY(lines[2].endsWith(QStringLiteral("1/1000k"))); // the empty scratch folder itself
    QVERIFY(lines[3].contains(QStringLiteral("/project (group def-prof)")));
    QVERIFY(lines[3].contains(QStringLiteral("/1000G")));
    for (const QString &l : lines) {
        QCOMPARE(l.size(), 82); // columns of 40, 21 and 21 characters
    }
    // The Alliance's links and variables.
    ShellResult env = m_cluster->shell(
        QStringLiteral("echo $SCRATCH $PROJECT; readlink ~/scratch ~/projects/def-prof"));
    QVERIFY2(env.out.contains(QStringLiteral("scratch/alice")), qPrintable(env.out));
    QVERIFY(env.out.contains(QStringLiteral("project/def-prof/alice")));
}

void StorageQuotaTest::overQuotaIsToldAtLoginAndNothingIsDeleted()
{
    ShellResult fill = m_cluster->shell(
        QStringLiteral("mkdir -p ~/many && for i in $(seq 1 60); do echo $i > ~/many/f$i; done"));
    QCOMPARE(fill.exitCode, 0);
    ShellResult report = m_cluster->shell(QStringLiteral("diskusage_report"));
    QVERIFY2(report.out.contains(QStringLiteral("You are over your quota on /home (user alice)")),
        qPrintable(report.out));
    if (readFile(m_cluster->dir() + QStringLiteral("/run/sandbox"))
            .startsWith(QStringLiteral("plain"))) {
        QSKIP("the plain fallback's `shell -c` is not a login shell: no login message to check");
    }
    // The storage node's snapshot (every second here) feeds the login message.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_cluster->shell(QStringLiteral("true")).err.contains(QStringLiteral("over your quota")),
        15000);
    ShellResult login = m_cluster->shell(QStringLiteral("true"));
    QVERIFY2(
        login.err.contains(QStringLiteral("*** You are over your quota on /home (user alice)")),
        qPrintable(login.err));
    QVERIFY(!login.err.contains(QStringLiteral("(user bob)")));
    // sbatch says it too, before the job goes, and still submits it.
    ShellResult submit = m_cluster->shell(QStringLiteral("sbatch --parsable --wrap true"));
    QCOMPARE(submit.exitCode, 0);
    QVERIFY2(submit.err.contains(
                 QStringLiteral("sbatch: warning: You are over your quota on /home (user alice)")),
        qPrintable(submit.err));
    QVERIFY(!submit.out.trimmed().isEmpty());
    ShellResult count = m_cluster->shell(QStringLiteral("ls ~/many | wc -l"));
    QCOMPARE(count.out.trimmed(), QStringLiteral("60"));
    // Another user within quota is told nothing.
    QVERIFY(!m_cluster->shell(QStringLiteral("true"), QStringLiteral("bob"))
                 .err.contains(QStringLiteral("quota")));
    // Back under quota: the message goes.
    QCOMPARE(m_cluster->shell(QStringLiteral("rm -r ~/many")).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(
        !m_cluster->shell(QStringLiteral("true")).err.contains(QStringLiteral("quota")), 15000);
}

QTEST_GUILESS_MAIN(StorageQuotaTest)
#include "storage_quota_test.moc"
