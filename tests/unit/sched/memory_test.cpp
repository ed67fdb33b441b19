#include "mc/sched/memory.h"

#include <QtTest>

class MemoryTest : public QObject {
    Q_OBJECT

private slots:
    void parsesSizesAsSbatchMemDoes_data();
    void parsesSizesAsSbatchMemDoes();
    void rejectsMalformedSizes_data();
    void rejectsMalformedSizes();
    void printsMebibytesUnlessExactInLargerUnits_data();
    void printsMebibytesUnlessExactInLargerUnits();
};

void MemoryTest::parsesSizesAsSbatchMemDoes_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("mib");
    QTest::newRow("bare number is MiB") << "500" << qint64{500};
    QTest::newRow("M") << "200M" << qint64{200};
    QTest::newRow("lower case m") << "200m" << qint64{200};
    QTest::newRow("MB") << "300MB" << qint64{300};
    QTest::newRow("G") << "2G" << qint64{2048};
    QTest::newRow("lower case gb") << "2gb" << qint64{2048};
    QTest::newRow("T") << "1T" << qint64{1048576};
    QTest::newRow("K exact") << "1024K" << qint64{1};
    QTest::newRow("K rounds up") << "1025K" << qint64{2};
    QTest::newRow("one K is one MiB") << "1K" << qint64{1};
    QTest::newRow("zero") << "0" << qint64{0};
}

void MemoryTest::parsesSizesAsSbatchMemDoes()
{
    QFETCH(QString, text);
    QFETCH(qint64, mib);
    const auto parsed = mc::sched::parseMemory(text.toStdString());
    QVERIFY(parsed.has_value());
    QCOMPARE(*parsed, mib);
}

void MemoryTest::rejectsMalformedSizes_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("empty") << "";
    QTest::newRow("negative") << "-1";
    QTest::newRow("fraction") << "1.5G";
    QTest::newRow("unit only") << "G";
    QTest::newRow("unknown unit") << "5X";
    QTest::newRow("binary suffix") << "5GiB";
    QTest::newRow("blank before unit") << "5 G";
    QTest::newRow("two B") << "5GBB";
    QTest::newRow("word") << "lots";
    QTest::newRow("overflow") << "99999999999999999999";
    QTest::newRow("overflow after unit") << "9007199254740993T";
}

void MemoryTest::rejectsMalformedSizes()
{
    QFETCH(QString, text);
    QVERIFY(!mc::sched::parseMemory(text.toStdString()).has_value());
}

void MemoryTest::printsMebibytesUnlessExactInLargerUnits_data()
{
    QTest::addColumn<qint64>("mib");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero has no unit") << qint64{0} << "0";
    QTest::newRow("small") << qint64{1} << "1M";
    QTest::newRow("request") << qint64{200} << "200M";
    QTest::newRow("just under a GiB") << qint64{1023} << "1023M";
    QTest::newRow("a GiB") << qint64{1024} << "1G";
    QTest::newRow("2048M converts to 2G") << qint64{2048} << "2G";
    QTest::newRow("node memory") << qint64{4000} << "4000M";
    QTest::newRow("cluster memory") << qint64{16000} << "16000M";
    QTest::newRow("half GiB counts as exact") << qint64{1536} << "1.50G";
    QTest::newRow("two and a half GiB") << qint64{2560} << "2.50G";
    QTest::newRow("a TiB") << qint64{1048576} << "1T";
    QTest::newRow("one and a half TiB") << qint64{1572864} << "1.50T";
    QTest::newRow("half GiB past a TiB rounds") << qint64{1049088} << "1.00T";
}

void MemoryTest::printsMebibytesUnlessExactInLargerUnits()
{
    QFETCH(qint64, mib);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(mc::sched::formatMemory(mib)), text);
}

QTEST_APPLESS_MAIN(MemoryTest)
#include "memory_test.moc"
