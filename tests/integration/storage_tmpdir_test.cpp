// $SLURM_TMPDIR: on the node's local disk, created when the job starts, the job's own while it
// runs, gone when it ends (completed or cancelled), as on the Alliance's clusters.
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

private:
    // The host path of the job's $SLURM_TMPDIR, from what the job wrote in ~/where-<id>.
    QString hostTmpdir(const QString &id) const;
    std::unique_ptr<ClusterFixture> m_cluster;
};

void StorageTmpdirTest::initTestCase()
{
    m_cluster = std::make_unique<ClusterFixture>();
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

QTEST_GUILESS_MAIN(StorageTmpdirTest)
#include "storage_tmpdir_test.moc"
