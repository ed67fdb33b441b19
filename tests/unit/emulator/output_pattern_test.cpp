#include "mc/emu/output_pattern.h"

#include <QtTest>

using mc::emu::PatternFields;

class OutputPatternTest : public QObject {
    Q_OBJECT

private slots:
    void expandsSbatchPatterns_data();
    void expandsSbatchPatterns();
};

void OutputPatternTest::expandsSbatchPatterns_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("expected");
    QTest::newRow("default name") << "slurm-%j.out"
                                  << "slurm-12.out";
    QTest::newRow("name and id") << "%x-%j.out"
                                 << "pat-12.out";
    // reference/02_sbatch.txt: pat-%x-%j-%u-%N-%n-%t.out -> pat-pat-12-alice-vm-0-0.out
    QTest::newRow("every field of the reference") << "pat-%x-%j-%u-%N-%n-%t.out"
                                                  << "pat-pat-12-alice-cn01-0-0.out";
    QTest::newRow("array fields without an array") << "%A_%a"
                                                   << "12_4294967294";
    QTest::newRow("zero padding") << "out-%4j"
                                  << "out-0012";
    QTest::newRow("percent sign") << "100%%-%j"
                                  << "100%-12";
    QTest::newRow("step of the batch script") << "%J"
                                              << "12.batch";
    QTest::newRow("unknown letter kept") << "%q-%j"
                                         << "%q-12";
    QTest::newRow("trailing percent") << "x%"
                                      << "x%";
}

void OutputPatternTest::expandsSbatchPatterns()
{
    QFETCH(QString, pattern);
    QFETCH(QString, expected);
    PatternFields f;
    f.jobId = 12;
    f.jobName = "pat";
    f.user = "alice";
    f.node = "cn01";
    QCOMPARE(
        QString::fromStdString(mc::emu::expandOutputPattern(pattern.toStdString(), f)), expected);
}

QTEST_APPLESS_MAIN(OutputPatternTest)
#include "output_pattern_test.moc"
