#include "mc/storage/size_text.h"

#include <QTest>

using namespace mc::storage;

class SizeTextTest : public QObject {
    Q_OBJECT
private slots:
    void sizesAreBinaryAndCountsDecimal()
    {
        QCOMPARE(parseSize("50G").value(), 50LL * 1024 * 1024 * 1024);
        QCOMPARE(parseSize("2048k").value(), 2048LL * 1024);
        QCOMPARE(parseSize("20T").value(), 20LL << 40);
        QCOMPARE(parseSize("4096").value(), 4096LL);
        QCOMPARE(parseCount("500k").value(), 500000LL);
        QCOMPARE(parseCount("1000k").value(), 1000000LL);
        QCOMPARE(parseSize("none").value(), 0LL);
        QVERIFY(!parseSize("5X"));
        QVERIFY(!parseSize("G"));
        QVERIFY(!parseSize("-1G"));
    }

    void reportWordsMatchTheAllianceTranscript()
    {
        // diskusage_report on an Alliance cluster: "157k/50G 13/500k", "25k/20T 1/1000k",
        // "0/2048k 0/1025", "181G/1000G 503k/505k".
        QCOMPARE(formatSize(157 * 1024), std::string("157k"));
        QCOMPARE(formatSize(50LL << 30), std::string("50G"));
        QCOMPARE(formatSize(20LL << 40), std::string("20T"));
        QCOMPARE(formatSize(2048 * 1024), std::string("2048k"));
        QCOMPARE(formatSize(1000LL << 30), std::string("1000G"));
        QCOMPARE(formatSize(0), std::string("0"));
        QCOMPARE(formatSize(4096), std::string("4096"));
        QCOMPARE(formatCount(13), std::string("13"));
        QCOMPARE(formatCount(1025), std::string("1025"));
        QCOMPARE(formatCount(500000), std::string("500k"));
        QCOMPARE(formatCount(1000000), std::string("1000k"));
        QCOMPARE(formatCount(503712), std::string("503k"));
    }

    void humanSizesHaveOneDecimal()
    {
        QCOMPARE(humanSize(512), std::string("512 bytes"));
        QCOMPARE(humanSize(1536), std::string("1.5 KB"));
        QCOMPARE(humanSize(25LL << 30), std::string("25.0 GB"));
    }
};

QTEST_GUILESS_MAIN(SizeTextTest)
#include "size_text_test.moc"
