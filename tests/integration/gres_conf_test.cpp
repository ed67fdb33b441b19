// GPUs described in etc/gres.conf as on real clusters (issue #15): a cluster whose slurm.conf
// says Gres=gpu:2 (no model) and whose gres.conf gives gpu01 two V100 devices and gpu02 only
// one. gpu01 takes the type from gres.conf (scontrol show node, typed requests, nvidia-smi all
// say v100); gpu02 is drained with slurmctld's reason, and no job lands on it.
#include "storage_support.h"

#include <QtTest>

using namespace storage_test;

class GresConfTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void upReportsTheNodeShortOfGpus();
    void aNodeShortOfGpusIsDrainedWithSlurmsReason();
    void theTypeFromGresConfIsTheNodesEverywhere();

private:
    std::unique_ptr<ClusterFixture> m_cluster;
    QString m_upOutput;
};

void GresConfTest::initTestCase()
{
    m_cluster = std::make_unique<ClusterFixture>();
    QVERIFY(m_cluster->setSlurmConf(QStringLiteral("KillWait"), QStringLiteral("1")));
    const QString etc = m_cluster->dir() + QStringLiteral("/etc");
    QString conf = readFile(etc + QStringLiteral("/slurm.conf"));
    QVERIFY(conf.contains(QStringLiteral("Gres=gpu:a100:2")));
    conf.replace(QStringLiteral("Gres=gpu:a100:2"), QStringLiteral("Gres=gpu:2"));
    QVERIFY(writeFile(etc + QStringLiteral("/slurm.conf"), conf));
    QVERIFY(writeFile(etc + QStringLiteral("/gres.conf"),
        QStringLiteral("AutoDetect=off\n"
                       "NodeName=gpu01 Name=gpu Type=v100 File=/dev/nvidia[0-1]\n"
                       "NodeName=gpu02 Name=gpu Type=v100 File=/dev/nvidia0\n")));
    QVERIFY2(m_cluster->up(), qPrintable(m_cluster->lastError()));
    m_upOutput = m_cluster->lastError(); // what `minicluster up` said
}

void GresConfTest::cleanupTestCase()
{
    m_cluster.reset();
}

void GresConfTest::upReportsTheNodeShortOfGpus()
{
    QVERIFY2(m_upOutput.contains(QStringLiteral("etc/gres.conf: node gpu02 is drained "
                                                "(State=INVAL) with reason: gres/gpu count "
                                                "reported lower than configured (1 < 2)")),
        qPrintable(m_upOutput));
    QVERIFY2(!m_upOutput.contains(QStringLiteral("node gpu01")), qPrintable(m_upOutput));
}

void GresConfTest::aNodeShortOfGpusIsDrainedWithSlurmsReason()
{
    const ShellResult node = m_cluster->shell(QStringLiteral("scontrol show node gpu02"));
    QCOMPARE(node.exitCode, 0);
    QVERIFY2(node.out.contains(QStringLiteral("+DRAIN")), qPrintable(node.out));
    QVERIFY2(node.out.contains(
                 QStringLiteral("Reason=gres/gpu count reported lower than configured (1 < 2)")),
        qPrintable(node.out));
    const ShellResult reasons = m_cluster->shell(QStringLiteral("sinfo -R -h -o '%n|%E'"));
    QVERIFY2(reasons.out.contains(
                 QStringLiteral("gpu02|gres/gpu count reported lower than configured (1 < 2)")),
        qPrintable(reasons.out));
    QVERIFY2(!reasons.out.contains(QStringLiteral("gpu01")), qPrintable(reasons.out));
    // Two jobs of two GPUs each, submitted together: both run on gpu01, one after the other;
    // gpu02 takes neither.
    const ShellResult jobs = m_cluster->shell(
        QStringLiteral("for i in 1 2; do sbatch --wait -p gpu --gres=gpu:2 -o gc-$i.out "
                       "--wrap hostname >/dev/null & done; wait"),
        QString(), 180000);
    QCOMPARE(jobs.exitCode, 0);
    for (const char *out : {"gc-1.out", "gc-2.out"}) {
        QCOMPARE(
            readFile(m_cluster->homeFile(QStringLiteral("alice"), QLatin1String(out))).trimmed(),
            QStringLiteral("gpu01"));
    }
}

void GresConfTest::theTypeFromGresConfIsTheNodesEverywhere()
{
    const ShellResult node = m_cluster->shell(QStringLiteral("scontrol show node gpu01"));
    QVERIFY2(node.out.contains(QStringLiteral("Gres=gpu:v100:2")), qPrintable(node.out));
    QVERIFY2(!node.out.contains(QStringLiteral("DRAIN")), qPrintable(node.out));
    // A typed request for the model gres.conf names runs, and nvidia-smi shows that model.
    const ShellResult smi = m_cluster->shell(
        QStringLiteral("sbatch --wait -p gpu --gres=gpu:v100:2 -o smi.out --wrap 'nvidia-smi -L'"),
        QString(), 120000);
    QCOMPARE(smi.exitCode, 0);
    const QStringList gpus
        = outputLines(readFile(m_cluster->homeFile(QStringLiteral("alice"), "smi.out")))
              .filter(QStringLiteral("GPU "));
    QCOMPARE(gpus.size(), 2);
    for (const auto &line : gpus) {
        QVERIFY2(line.contains(QStringLiteral("V100")), qPrintable(line));
    }
    // The model slurm.conf once had is no longer on offer.
    const ShellResult a100
        = m_cluster->shell(QStringLiteral("sbatch -p gpu --gres=gpu:a100:1 --wrap true"));
    QVERIFY(a100.exitCode != 0);
    QVERIFY2(a100.err.contains(QStringLiteral("Invalid generic resource (gres) specification")),
        qPrintable(a100.err));
}

QTEST_GUILESS_MAIN(GresConfTest)
#include "gres_conf_test.moc"
