// The course project of sample_jobs/cnn_digits (lesson 11), run short on a real cluster: a
// torch CNN trained in a job from data copied to $SLURM_TMPDIR, resumed from its checkpoint by
// a second job and after SIGUSR1 (it saves and requeues itself), and a throttled sweep array
// gathered by an afterok job.
#include "storage_support.h"

#include <QtTest>

using namespace storage_test;

class MlProjectTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void trainsAndResumesFromItsCheckpoint();
    void usr1SavesRequeuesAndResumes();
    void aThrottledSweepIsGatheredAfterOk();

private:
    QString project(const QString &name) const
    {
        return m_cluster->homeFile(QStringLiteral("alice"), QStringLiteral("cnn_digits/") + name);
    }
    QString submit(const QString &args);
    QString state(const QString &jobId) const;
    QString waitForEnd(const QString &jobId, int timeoutMs = 240000) const;
    std::unique_ptr<ClusterFixture> m_cluster;
};

void MlProjectTest::initTestCase()
{
    if (!QFile::exists(QStringLiteral("/usr/share/lmod/lmod/init/bash"))) {
        QSKIP("Lmod is not installed (Debian package lmod; scripts/deps.sh installs it)");
    }
    QVERIFY2(QFile::exists(
                 QStringLiteral(MC_BIN_DIR "/../share/minicluster/software/python-stacks/pytorch")),
        "no pytorch module: install python3-torch python3-torchvision python3-sklearn "
        "(and the rest of the ML stack) and run cmake again");
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
    QCOMPARE(m_cluster->shell(QStringLiteral("mkdir -p cnn_digits")).exitCode, 0);
    const QString samples = QStringLiteral(MC_SOURCE_DIR "/sample_jobs/cnn_digits/");
    for (const QString &f : QDir(samples).entryList(QDir::Files)) {
        QVERIFY(QFile::copy(samples + f, project(f)));
    }
}

void MlProjectTest::cleanupTestCase()
{
    m_cluster.reset();
}

QString MlProjectTest::submit(const QString &args)
{
    ShellResult r = m_cluster->shell(QStringLiteral("cd cnn_digits && sbatch --parsable ") + args);
    return r.exitCode == 0 ? r.out.trimmed().section(QLatin1Char(';'), 0, 0) : QString();
}

QString MlProjectTest::state(const QString &jobId) const
{
    return m_cluster->shell(QStringLiteral("sacct -X -n -P -o State -j ") + jobId)
        .out.section(QLatin1Char('\n'), 0, 0)
        .trimmed();
}

QString MlProjectTest::waitForEnd(const QString &jobId, int timeoutMs) const
{
    QElapsedTimer timer;
    timer.start();
    QString s = state(jobId);
    while ((s.isEmpty() || s == QStringLiteral("PENDING") || s == QStringLiteral("RUNNING")
               || s == QStringLiteral("REQUEUED") || s == QStringLiteral("COMPLETING"))
        && timer.elapsed() < timeoutMs) {
        QTest::qWait(500);
        s = state(jobId);
    }
    return s;
}

void MlProjectTest::trainsAndResumesFromItsCheckpoint()
{
    const QString first = submit(QStringLiteral("train.sh 2"));
    QVERIFY(!first.isEmpty());
    QCOMPARE(waitForEnd(first), QStringLiteral("COMPLETED"));
    QString out = readFile(project(QStringLiteral("cnn-digits-") + first + QStringLiteral(".out")));
    QVERIFY2(
        out.contains(QStringLiteral("device cpu, 2 CPUs, 1 loader workers, 1437 training images")),
        qPrintable(out));
    QVERIFY2(out.contains(QRegularExpression(QStringLiteral("epoch 2/2 loss [0-9.]+ accuracy"))),
        qPrintable(out));
    QVERIFY2(out.contains(QStringLiteral("done: accuracy")), qPrintable(out));
    QVERIFY(QFile::exists(
        m_cluster->dir() + QStringLiteral("/scratch/alice/checkpoints/cnn-digits.pt")));
    // $SLURM_TMPDIR held the data and went with the job.
    QVERIFY(!out.contains(QStringLiteral("No such file")));

    const QString second = submit(QStringLiteral("train.sh 3"));
    QCOMPARE(waitForEnd(second), QStringLiteral("COMPLETED"));
    out = readFile(project(QStringLiteral("cnn-digits-") + second + QStringLiteral(".out")));
    QVERIFY2(out.contains(QStringLiteral(
                 "resumed from /scratch/alice/checkpoints/cnn-digits.pt at epoch 2")),
        qPrintable(out));
    QVERIFY2(
        out.contains(QStringLiteral("epoch 3/3")) && !out.contains(QStringLiteral("epoch 1/3")),
        qPrintable(out));
    // seff reads the job's usage as for any job.
    ShellResult seff = m_cluster->shell(QStringLiteral("seff ") + second);
    QVERIFY2(seff.out.contains(QStringLiteral("CPU Efficiency:")), qPrintable(seff.out));
}

void MlProjectTest::usr1SavesRequeuesAndResumes()
{
    QVERIFY(QFile::remove(
        m_cluster->dir() + QStringLiteral("/scratch/alice/checkpoints/cnn-digits.pt")));
    const QString id = submit(QStringLiteral("train.sh 400"));
    QVERIFY(!id.isEmpty());
    const QString outPath = project(QStringLiteral("cnn-digits-") + id + QStringLiteral(".out"));
    QTRY_VERIFY_WITH_TIMEOUT(readFile(outPath).contains(QStringLiteral("epoch 2/400")), 180000);
    // What --signal=USR1@60 does a minute before the limit, sent now: to the job's steps.
    QCOMPARE(m_cluster->shell(QStringLiteral("scancel --signal=USR1 ") + id).exitCode, 0);
    QTRY_VERIFY_WITH_TIMEOUT(readFile(outPath).contains(QStringLiteral("resumed from")), 180000);
    const QString out = readFile(outPath);
    QVERIFY2(out.contains(QStringLiteral("restart 1")), qPrintable(out));
    QCOMPARE(m_cluster->shell(QStringLiteral("scancel ") + id).exitCode, 0);
    const QString ended = waitForEnd(id);
    QVERIFY2(ended.startsWith(QStringLiteral("CANCELLED by ")), qPrintable(ended));
}

void MlProjectTest::aThrottledSweepIsGatheredAfterOk()
{
    const QString sweep = submit(QStringLiteral("sweep.sh 1"));
    QVERIFY(!sweep.isEmpty());
    const QString gather
        = submit(QStringLiteral("--dependency=afterok:") + sweep + QStringLiteral(" gather.sh"));
    QVERIFY(!gather.isEmpty());
    QCOMPARE(waitForEnd(gather, 400000), QStringLiteral("COMPLETED"));
    ShellResult tasks = m_cluster->shell(QStringLiteral("sacct -X -n -P -o State -j ") + sweep
        + QStringLiteral(" | grep -c COMPLETED"));
    QCOMPARE(tasks.out.trimmed(), QStringLiteral("4"));
    const QString out
        = readFile(project(QStringLiteral("cnn-gather-") + gather + QStringLiteral(".out")));
    QVERIFY2(out.contains(QRegularExpression(
                 QStringLiteral("best: lr [0-9.e-]+ \\(accuracy [01]\\.\\d+\\)"))),
        qPrintable(out));
    QCOMPARE(out.count(QRegularExpression(QStringLiteral("\n[0-9.e-]+ +1 +[01]\\.\\d+"))), 4);
}

QTEST_GUILESS_MAIN(MlProjectTest)
#include "ml_project_test.moc"
