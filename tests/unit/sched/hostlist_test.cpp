#include "mc/sched/hostlist.h"

#include <QtTest>

namespace {

QStringList toQStringList(const std::vector<std::string> &names)
{
    QStringList list;
    for (const auto &name : names) {
        list << QString::fromStdString(name);
    }
    return list;
}

std::vector<std::string> toStdVector(const QStringList &names)
{
    std::vector<std::string> vector;
    for (const auto &name : names) {
        vector.push_back(name.toStdString());
    }
    return vector;
}

} // namespace

class HostlistTest : public QObject {
    Q_OBJECT

private slots:
    void expandsRangesKeepingZeroPadding_data();
    void expandsRangesKeepingZeroPadding();
    void rejectsMalformedExpressions_data();
    void rejectsMalformedExpressions();
    void compressesNeighboursIntoBrackets_data();
    void compressesNeighboursIntoBrackets();
    void compressedFormExpandsBack_data();
    void compressedFormExpandsBack();
    void countsAndBlockTasksReadAsSlurmWritesThem();
};

void HostlistTest::expandsRangesKeepingZeroPadding_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("reference nodelist") << "node[01-02]" << QStringList{"node01", "node02"};
    QTest::newRow("padding across a decade") << "cn[08-10]" << QStringList{"cn08", "cn09", "cn10"};
    QTest::newRow("no padding") << "cn[8-10]" << QStringList{"cn8", "cn9", "cn10"};
    QTest::newRow("list and range")
        << "cn[01-04,07],gpu01" << QStringList{"cn01", "cn02", "cn03", "cn04", "cn07", "gpu01"};
    QTest::newRow("single name") << "node03" << QStringList{"node03"};
    QTest::newRow("name without number") << "login" << QStringList{"login"};
    QTest::newRow("empty") << "" << QStringList{};
    QTest::newRow("blank and tab separators") << "a b\tc,,d," << QStringList{"a", "b", "c", "d"};
    QTest::newRow("single number in brackets") << "n[3]" << QStringList{"n3"};
    QTest::newRow("open-ended range is one host") << "n[5-]" << QStringList{"n5"};
    QTest::newRow("digits only") << "[1-2]" << QStringList{"1", "2"};
    QTest::newRow("duplicates kept") << "n[1-2],n1" << QStringList{"n1", "n2", "n1"};
    QTest::newRow("two brackets multiply out")
        << "r[1-2]n[1-2]" << QStringList{"r1n1", "r1n2", "r2n1", "r2n2"};
    QTest::newRow("three brackets expand in Slurm's order")
        << "a[1-2]b[1-2]c[1-2]"
        << QStringList{
               "a1b1c1", "a1b1c2", "a2b1c1", "a2b1c2", "a1b2c1", "a1b2c2", "a2b2c1", "a2b2c2"};
}

void HostlistTest::expandsRangesKeepingZeroPadding()
{
    QFETCH(QString, text);
    QFETCH(QStringList, names);
    const auto hosts = mc::sched::expandHostlist(text.toStdString());
    QVERIFY(hosts.has_value());
    QCOMPARE(toQStringList(*hosts), names);
}

void HostlistTest::rejectsMalformedExpressions_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("unclosed bracket") << "cn[01-04";
    QTest::newRow("unopened bracket") << "cn01]";
    QTest::newRow("nested brackets") << "cn[[1]]";
    QTest::newRow("empty brackets") << "cn[]";
    QTest::newRow("letters in range") << "cn[a-b]";
    QTest::newRow("descending range") << "cn[4-1]";
    QTest::newRow("negative number") << "cn[1--2]";
    QTest::newRow("empty list item") << "cn[1,,2]";
    QTest::newRow("two dashes") << "cn[1-2-3]";
    QTest::newRow("suffix after the bracket") << "cn[1-2]-ib";
    QTest::newRow("blank inside brackets") << "cn[1, 2]";
    QTest::newRow("more than 64K hosts in a range") << "cn[0-70000]";
}

void HostlistTest::rejectsMalformedExpressions()
{
    QFETCH(QString, text);
    QVERIFY(!mc::sched::expandHostlist(text.toStdString()).has_value());
}

void HostlistTest::compressesNeighboursIntoBrackets_data()
{
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QString>("text");
    QTest::newRow("reference nodelist") << QStringList{"node01", "node02"} << "node[01-02]";
    QTest::newRow("range and single") << QStringList{"cn01", "cn02", "cn04"} << "cn[01-02,04]";
    QTest::newRow("single name stays") << QStringList{"node03"} << "node03";
    QTest::newRow("nothing") << QStringList{} << "";
    QTest::newRow("two prefixes") << QStringList{"cn01", "cn02", "gpu01", "gpu02"}
                                  << "cn[01-02],gpu[01-02]";
    QTest::newRow("order is kept, not sorted")
        << QStringList{"cn01", "gpu01", "cn02"} << "cn01,gpu01,cn02";
    QTest::newRow("descending stays apart") << QStringList{"cn02", "cn01"} << "cn[02,01]";
    QTest::newRow("widening without padding") << QStringList{"n9", "n10"} << "n[9-10]";
    QTest::newRow("widening past 99") << QStringList{"n99", "n100"} << "n[99-100]";
    QTest::newRow("padding differs") << QStringList{"n08", "n9"} << "n[08,9]";
    QTest::newRow("names without numbers") << QStringList{"login", "storage"} << "login,storage";
    QTest::newRow("suffix after the number") << QStringList{"node1-ib"} << "node1-ib";
    QTest::newRow("duplicates kept") << QStringList{"cn01", "cn01"} << "cn[01,01]";
    QTest::newRow("empty names skipped") << QStringList{"", "cn01"} << "cn01";
}

void HostlistTest::compressesNeighboursIntoBrackets()
{
    QFETCH(QStringList, names);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(mc::sched::compressHostlist(toStdVector(names))), text);
}

void HostlistTest::compressedFormExpandsBack_data()
{
    QTest::addColumn<QString>("text");
    QTest::newRow("range") << "node[01-04]";
    QTest::newRow("ranges and prefixes") << "cn[01-02,04,07-09],gpu01,login1";
    QTest::newRow("wide numbers") << "n[0998-1002]";
}

void HostlistTest::compressedFormExpandsBack()
{
    QFETCH(QString, text);
    const auto hosts = mc::sched::expandHostlist(text.toStdString());
    QVERIFY(hosts.has_value());
    QCOMPARE(QString::fromStdString(mc::sched::compressHostlist(*hosts)), text);
}

void HostlistTest::countsAndBlockTasksReadAsSlurmWritesThem()
{
    using mc::sched::blockTaskCounts;
    using mc::sched::compressCounts;
    QCOMPARE(compressCounts({2, 2}), std::string("2(x2)"));
    QCOMPARE(compressCounts({4, 4, 2}), std::string("4(x2),2"));
    QCOMPARE(compressCounts({2, 1}), std::string("2,1"));
    QCOMPARE(compressCounts({1}), std::string("1"));
    QCOMPARE(blockTaskCounts(5, 2), (std::vector<int>{3, 2}));
    QCOMPARE(blockTaskCounts(4, 2), (std::vector<int>{2, 2}));
    QCOMPARE(blockTaskCounts(3, 1), (std::vector<int>{3}));
    QVERIFY(blockTaskCounts(3, 0).empty());
    // Slurm's allocation layout: one task each, the rest fill the nodes in order.
    using mc::sched::fillTaskCounts;
    QCOMPARE(fillTaskCounts(6, 2, 4), (std::vector<int>{4, 2}));
    QCOMPARE(fillTaskCounts(5, 3, 4), (std::vector<int>{3, 1, 1}));
    QCOMPARE(fillTaskCounts(3, 2, 4), (std::vector<int>{2, 1}));
    QCOMPARE(fillTaskCounts(8, 2, 4), (std::vector<int>{4, 4}));
    QCOMPARE(fillTaskCounts(10, 2, 4), (std::vector<int>{5, 5})); // too many: refused later
}

QTEST_APPLESS_MAIN(HostlistTest)
#include "hostlist_test.moc"
