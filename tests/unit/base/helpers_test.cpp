#include "mc/base/env.h"
#include "mc/base/file.h"
#include "mc/base/text.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace mc::base;

class HelpersTest : public QObject {
    Q_OBJECT

private slots:
    void trimCutsTheGivenBlanksAtBothEnds()
    {
        QCOMPARE(trim("  a b\t\r\n"), std::string("a b"));
        QCOMPARE(trim(" \t\n"), std::string());
        QCOMPARE(trim(""), std::string());
        // Only the blanks named: a caller that keeps line ends says so.
        QCOMPARE(trim(" x \n", " "), std::string("x \n"));
    }

    void caseIsComparedInAscii()
    {
        QVERIFY(equalsIgnoreCase("PENDING", "pending"));
        QVERIFY(!equalsIgnoreCase("PENDING", "pend"));
        QVERIFY(startsWithIgnoreCase("Tomorrow", "tomo"));
        QVERIFY(!startsWithIgnoreCase("to", "tomo"));
        QCOMPARE(toLower("SharedFsLatency=2MS"), std::string("sharedfslatency=2ms"));
        QCOMPARE(toUpper("cpu-1"), std::string("CPU-1"));
    }

    void listsDropEmptyPiecesAsStrtokDoes()
    {
        QCOMPARE(splitList("a,,b,"), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(splitList(",,"), std::vector<std::string>{});
        QCOMPARE(splitList("gpu:a100:2", ':'), (std::vector<std::string>{"gpu", "a100", "2"}));
        QCOMPARE(
            splitWords("  submit\t 10  job\n"), (std::vector<std::string>{"submit", "10", "job"}));
        QCOMPARE(splitWords(" \n"), std::vector<std::string>{});
    }

    void filesAreReadWholeOrNotAtAll()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("f.conf")).toStdString();
        {
            std::ofstream out(path, std::ios::binary);
            out << "a\nb";
        }
        QCOMPARE(readFile(path), std::optional<std::string>("a\nb"));
        QCOMPARE(fileText(path), std::string("a\nb"));
        QCOMPARE(readFile(path + ".missing"), std::nullopt);
        QCOMPARE(readFile(""), std::nullopt);
        QCOMPARE(fileText(path + ".missing"), std::string());
    }

    void environmentEntriesAreSetInPlaceAndRead()
    {
        std::vector<std::string> env{"PATH=/bin", "HOME=/home/alice"};
        setEnv(env, "PATH", "/shim:/bin");
        setEnv(env, "SLURM_PROCID", "0");
        QCOMPARE(env,
            (std::vector<std::string>{"PATH=/shim:/bin", "HOME=/home/alice", "SLURM_PROCID=0"}));
        QCOMPARE(getEnv(env, "HOME"), std::optional<std::string>("/home/alice"));
        QCOMPARE(getEnv(env, "HOM"), std::nullopt);
        QCOMPARE(getEnv(env, "SLURM_JOB_ID"), std::nullopt);
    }
};

QTEST_APPLESS_MAIN(HelpersTest)
#include "helpers_test.moc"
