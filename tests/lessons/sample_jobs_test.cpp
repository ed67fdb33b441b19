// Every script of sample_jobs/ on the default cluster, each ending the way its teaching point
// says: most COMPLETED, too_long.sh TIMEOUT, too_big.sh OUT_OF_MEMORY. Array and pipeline
// scripts are skipped (with the reason) while the controller refuses arrays and dependencies.
#include "cluster_fixture.h"

#include <QDir>
#include <QFile>
#include <QTest>

namespace {

QString finalState(const ClusterFixture &c, const QString &name)
{
    ShellResult r = c.shell(QStringLiteral("sacct -X -n -P -o State --name=") + name);
    QStringList states = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return states.isEmpty() ? QString() : states.last().trimmed();
}

bool isFinal(const QString &s)
{
    return !s.isEmpty() && s != QStringLiteral("PENDING") && s != QStringLiteral("RUNNING")
        && s != QStringLiteral("COMPLETING");
}

} // namespace

class SampleJobsTest : public QObject {
    Q_OBJECT

private slots:
    void everySampleJobEndsAsItsTeachingPointSays()
    {
        ClusterFixture cluster;
        QVERIFY(cluster.setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
        // --time-scale 10: too_long.sh's one-minute limit runs out after 6 s; gpu_container_job.sh
        // has 30 s to extract its image (first use) under a loaded CI.
        QVERIFY2(cluster.up({QStringLiteral("--time-scale"), QStringLiteral("10")}),
            qPrintable(cluster.lastError()));
        QString samples = QStringLiteral(MC_SOURCE_DIR "/sample_jobs");
        QCOMPARE(cluster.shell(QStringLiteral("true")).exitCode, 0); // creates the homes
        // The scripts as a student gets them: in the home folder (the sandbox sees the host's
        // files only through the cluster directory).
        QString home = cluster.homeFile(QStringLiteral("alice"), QString());
        for (const QString &f : QDir(samples).entryList(QDir::Files)) {
            QFile::copy(samples + QLatin1Char('/') + f, home + f);
        }
        QDir().mkpath(cluster.dir() + QStringLiteral("/scratch/alice/logs"));
        QDir().mkpath(cluster.dir() + QStringLiteral("/scratch/alice/code-snapshots/myproject"));
        for (const QString &f :
            QDir(samples + QStringLiteral("/myproject")).entryList(QDir::Files)) {
            QFile::copy(samples + QStringLiteral("/myproject/") + f,
                cluster.dir() + QStringLiteral("/scratch/alice/code-snapshots/myproject/") + f);
        }

        const QList<QPair<QString, QString>> expected = {
            {QStringLiteral("hello.sh"), QStringLiteral("COMPLETED")},
            {QStringLiteral("too_long.sh"), QStringLiteral("TIMEOUT")},
            {QStringLiteral("too_big.sh"), QStringLiteral("OUT_OF_MEMORY")},
            {QStringLiteral("right_size.sh"), QStringLiteral("COMPLETED")},
            {QStringLiteral("logdir_job.sh"), QStringLiteral("COMPLETED")},
            {QStringLiteral("tmpdir_job.sh"), QStringLiteral("COMPLETED")},
            {QStringLiteral("train_job.sh"), QStringLiteral("COMPLETED")},
            {QStringLiteral("checkpoint_job.sh"), QStringLiteral("COMPLETED")},
            {QStringLiteral("venv_job.sh"), QStringLiteral("COMPLETED")},
            {QStringLiteral("exclusive_job.sh"), QStringLiteral("COMPLETED")},
            // Lesson 13: /scratch is not bound into the container until the student adds it.
            {QStringLiteral("container_job.sh"), QStringLiteral("FAILED")},
            {QStringLiteral("gpu_container_job.sh"), QStringLiteral("COMPLETED")},
        };
        QMap<QString, QString> names;
        for (const auto &[script, state] : expected) {
            ShellResult r = cluster.shell(QStringLiteral("sbatch ") + script);
            QVERIFY2(r.exitCode == 0, qPrintable(script + QStringLiteral(": ") + r.err));
            QFile f(home + script);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QString text = QString::fromUtf8(f.readAll());
            QString name
                = text.section(QStringLiteral("--job-name="), 1).section(QLatin1Char('\n'), 0, 0);
            names[script] = name;
        }
        for (const auto &[script, state] : expected) {
            QTRY_VERIFY2_WITH_TIMEOUT(
                isFinal(finalState(cluster, names[script])), qPrintable(script), 60000);
            QCOMPARE(finalState(cluster, names[script]) + QStringLiteral(" ") + script,
                state + QStringLiteral(" ") + script);
        }

        ShellResult array = cluster.shell(QStringLiteral("sbatch array_job.sh"));
        QVERIFY2(array.exitCode == 0, qPrintable(array.err));
        ShellResult pipe = cluster.shell(QStringLiteral("bash pipeline.sh"));
        QVERIFY2(pipe.exitCode == 0, qPrintable(pipe.err));
        QTRY_VERIFY_WITH_TIMEOUT(
            finalState(cluster, QStringLiteral("analyse")) == QStringLiteral("COMPLETED"), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(
            cluster.shell(
                       QStringLiteral("sacct -X -n -P -o State --name=squares | grep -c COMPLETED"))
                    .out.trimmed()
                == QStringLiteral("6"),
            60000);
    }
};

QTEST_GUILESS_MAIN(SampleJobsTest)
#include "sample_jobs_test.moc"
