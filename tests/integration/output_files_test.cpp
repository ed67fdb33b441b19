// Where a batch job's output goes, decided on the node as slurmstepd does: the filename
// patterns, --open-mode, and a missing output directory (JobLaunchFailure, 0:53).
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QtTest>

namespace {

QString readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return QString::fromUtf8(f.readAll());
}

bool writeFile(const QString &path, const QString &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate)
        && f.write(text.toUtf8()) == text.toUtf8().size();
}

QString sacct(const ClusterFixture &cluster, const QString &args)
{
    return cluster.shell(QStringLiteral("sacct ") + args).out;
}

} // namespace

class OutputFilesTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void everyFilenamePatternIsExpandedOnTheNode();
    void openModeAppendKeepsWhatTheFileHeldAndTruncateDoesNot();
    void missingOutputDirectoryFailsTheLaunchWith053();

private:
    std::unique_ptr<ClusterFixture> m_cluster;
};

void OutputFilesTest::initTestCase()
{
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
}

void OutputFilesTest::cleanupTestCase()
{
    m_cluster.reset();
}

void OutputFilesTest::everyFilenamePatternIsExpandedOnTheNode()
{
    // reference/02_sbatch.txt: pat-%x-%j-%u-%N-%n-%t.out; %A/%a outside an array are the job
    // id and 4294967294; %% is a percent sign.
    ShellResult submit = m_cluster->shell(QStringLiteral(
        "sbatch --parsable -J pat -o 'pat-%x-%j-%u-%N-%n-%t-%A-%a-%%.out' --wrap 'echo patterns'"));
    QCOMPARE(submit.exitCode, 0);
    const QString id = submit.out.trimmed();
    const QString name = QStringLiteral("pat-pat-%1-alice-cn01-0-0-%1-4294967294-%.out").arg(id);
    QTRY_COMPARE_WITH_TIMEOUT(readFile(m_cluster->homeFile(QStringLiteral("alice"), name)),
        QStringLiteral("patterns\n"), 10000);
}

void OutputFilesTest::openModeAppendKeepsWhatTheFileHeldAndTruncateDoesNot()
{
    const QString appended = m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("ap.out"));
    const QString truncated
        = m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("tr.out"));
    QVERIFY(writeFile(appended, QStringLiteral("earlier run\n")));
    QVERIFY(writeFile(truncated, QStringLiteral("earlier run\n")));
    ShellResult submit = m_cluster->shell(
        QStringLiteral("sbatch --open-mode=append -o ap.out --wrap 'echo this run'; "
                       "sbatch --open-mode=truncate -o tr.out --wrap 'echo this run'; "
                       "sbatch --open-mode=sideways --wrap true"));
    QCOMPARE(submit.err, QStringLiteral("sbatch: error: Invalid --open-mode specification\n"));
    QTRY_COMPARE_WITH_TIMEOUT(readFile(appended), QStringLiteral("earlier run\nthis run\n"), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(readFile(truncated), QStringLiteral("this run\n"), 10000);
}

void OutputFilesTest::missingOutputDirectoryFailsTheLaunchWith053()
{
    ShellResult submit = m_cluster->shell(
        QStringLiteral("sbatch --parsable -o nowhere/out.txt --wrap 'echo lost'"));
    QCOMPARE(submit.exitCode, 0);
    const QString id = submit.out.trimmed();
    QTRY_VERIFY_WITH_TIMEOUT(sacct(*m_cluster, QStringLiteral("-n -X -o State -j ") + id)
                                 .contains(QStringLiteral("FAILED")),
        10000);
    const QString rows = sacct(*m_cluster, QStringLiteral("-n -o JobID,State,ExitCode -j ") + id);
    QVERIFY2(
        rows.contains(id + QStringLiteral("                FAILED     0:53")), qPrintable(rows));
    QVERIFY2(
        rows.contains(id + QStringLiteral(".batch       CANCELLED     0:53")), qPrintable(rows));
    QVERIFY(
        !QDir(m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("nowhere"))).exists());
}

QTEST_GUILESS_MAIN(OutputFilesTest)
#include "output_files_test.moc"
