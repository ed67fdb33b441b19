// $SLURM_TMPDIR: on the node's local disk, created when the job starts, the job's own while it
// runs, gone when it ends (completed or cancelled), as on the Alliance's clusters; weighed
// against the localscratch quota by diskusage_report in the job; never slowed down by
// SharedFsLatency=, which slows the shared filesystems.
#include "storage_support.h"

#include <QtTest>

using namespace storage_test;

class StorageTmpdirTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void tmpdirLivesExactlyAsLongAsTheJob();
    void aCancelledJobLeavesNoTmpdir();
    void diskusageReportInAJobWeighsItsTmpdir();
    void sharedFilesystemsAreSlowedInJobsButNotTheTmpdir();

private:
    // The host path of the job's $SLURM_TMPDIR, from what the job wrote in ~/where-<id>.
    QString hostTmpdir(const QString &id) const;
    std::unique_ptr<ClusterFixture> m_cluster;
};

void StorageTmpdirTest::initTestCase()
{
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY(setStoragePolicy(*m_cluster,
        QStringLiteral("Filesystem=home Quota=50G Files=500k\n"
                       "Filesystem=scratch Quota=20T Files=1000k PurgeAfterDays=60\n"
                       "Filesystem=project Quota=1000G Files=500k\n"
                       "Filesystem=localscratch Quota=100G Files=3\n"
                       "SharedFsLatency=200us\n")));
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
}

void StorageTmpdirTest::cleanupTestCase()
{
    m_cluster.reset();
}

QString StorageTmpdirTest::hostTmpdir(const QString &id) const
{
    const QStringList words
        = readFile(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("where-") + id))
              .split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.size() < 2) {
        return {};
    }
    const QString node = words[0];
    const QString seen = words[1].trimmed();
    const QString name = seen.mid(seen.lastIndexOf(QLatin1Char('/')) + 1);
    return m_cluster->dir() + QStringLiteral("/nodes/") + node + QStringLiteral("/localscratch/")
        + name;
}

void StorageTmpdirTest::tmpdirLivesExactlyAsLongAsTheJob()
{
    QVERIFY(writeFile(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("go")), {}));
    ShellResult submit = m_cluster->shell(
        QStringLiteral("sbatch --parsable -o tmp-%j.out --wrap 'echo data > $SLURM_TMPDIR/data; "
                       "echo $(hostname) $SLURM_TMPDIR > ~/where-$SLURM_JOB_ID; "
                       "while [ -e ~/go ]; do sleep 0.1; done'"));
    QCOMPARE(submit.exitCode, 0);
    const QString id = submit.out.trimmed();
    QTRY_VERIFY_WITH_TIMEOUT(!hostTmpdir(id).isEmpty(), 15000);
    const QString tmp = hostTmpdir(id);
    QVERIFY2(tmp.contains(QStringLiteral("/localscratch/alice.") + id + QStringLiteral(".0")),
        qPrintable(tmp));
    QCOMPARE(readFile(tmp + QStringLiteral("/data")), QStringLiteral("data\n"));
    QVERIFY(QFile::remove(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("go"))));
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(tmp), 15000);
    QTRY_VERIFY_WITH_TIMEOUT(m_cluster->shell(QStringLiteral("sacct -n -X -o State -j ") + id)
                                 .out.contains(QStringLiteral("COMPLETED")),
        15000);
}

void StorageTmpdirTest::aCancelledJobLeavesNoTmpdir()
{
    ShellResult submit = m_cluster->shell(
        QStringLiteral("sbatch --parsable -o tmp-%j.out --wrap 'echo $(hostname) $SLURM_TMPDIR > "
                       "~/where-$SLURM_JOB_ID; sleep 300'"));
    QCOMPARE(submit.exitCode, 0);
    const QString id = submit.out.trimmed();
    QTRY_VERIFY_WITH_TIMEOUT(!hostTmpdir(id).isEmpty(), 15000);
    const QString tmp = hostTmpdir(id);
    QVERIFY(QFileInfo::exists(tmp));
    QCOMPARE(m_cluster->shell(QStringLiteral("scancel ") + id).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(tmp), 40000);
}

void StorageTmpdirTest::diskusageReportInAJobWeighsItsTmpdir()
{
    // Inside a job, diskusage_report adds its $SLURM_TMPDIR against the localscratch quota
    // (3 entries here: the folder and four files are 5).
    ShellResult submit = m_cluster->shell(
        QStringLiteral("sbatch --parsable -o du-%j.out --wrap 'cd $SLURM_TMPDIR && touch a b c d; "
                       "diskusage_report; echo DONE'"));
    QCOMPARE(submit.exitCode, 0);
    const QString id = submit.out.trimmed();
    const QString out = m_cluster->homeFile(
        QStringLiteral("alice"), QStringLiteral("du-") + id + QStringLiteral(".out"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(out).contains(QStringLiteral("DONE")), 20000);
    const QString text = readFile(out);
    QVERIFY2(text.contains(QRegularExpression(QStringLiteral("\\n +/localscratch \\(job ") + id
                 + QStringLiteral("\\) .* 5/3\\n"))),
        qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("No space left on device")));
    // On the login node (no job): no such line.
    QVERIFY(!m_cluster->shell(QStringLiteral("diskusage_report"))
                 .out.contains(QStringLiteral("/localscratch")));
}

void StorageTmpdirTest::sharedFilesystemsAreSlowedInJobsButNotTheTmpdir()
{
    // SharedFsLatency= reaches jobs through sbatch's environment: libmc_slowfs.so counts the
    // operations it delayed (MC_SLOWFS_COUNT_FILE), so no timing is asserted here.
    ShellResult submit = m_cluster->shell(QStringLiteral(
        "sbatch --parsable -o slow-%j.out --wrap 'echo x > ~/scratch/f; cp ~/scratch/f "
        "$SLURM_TMPDIR/f; MC_SLOWFS_COUNT_FILE=$SLURM_TMPDIR/c1 cat ~/scratch/f; "
        "MC_SLOWFS_COUNT_FILE=$SLURM_TMPDIR/c2 cat $SLURM_TMPDIR/f; "
        "echo COUNTS $(cut -d\" \" -f2 $SLURM_TMPDIR/c1) $(cut -d\" \" -f2 $SLURM_TMPDIR/c2)'"));
    QCOMPARE(submit.exitCode, 0);
    const QString out = m_cluster->homeFile(QStringLiteral("alice"),
        QStringLiteral("slow-") + submit.out.trimmed() + QStringLiteral(".out"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(out).contains(QStringLiteral("COUNTS")), 20000);
    const auto m = QRegularExpression(QStringLiteral("COUNTS (\\d+) (\\d+)")).match(readFile(out));
    QVERIFY2(m.hasMatch(), qPrintable(readFile(out)));
    QVERIFY2(m.captured(1).toInt() >= 1, qPrintable(readFile(out))); // /scratch: delayed
    QCOMPARE(m.captured(2).toInt(), 0); // $SLURM_TMPDIR: node-local, never delayed
}

QTEST_GUILESS_MAIN(StorageTmpdirTest)
#include "storage_tmpdir_test.moc"
