// The shell history's format: one line per typed command, read back as written, appended in
// <cluster>/run/history/<user>.
#include "mc/emu/shell_history.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace mc::emu;

class ShellHistoryTest : public QObject {
    Q_OBJECT

private slots:
    void aLineReadsBackAsWrittenWithBlanksForTabs()
    {
        HistoryEntry e{123.25, "login1", "/home/bob", "echo a\tb\nc"};
        auto back = parseHistory(historyLine(e));
        QCOMPARE(back.size(), std::size_t{1});
        QCOMPARE(back[0].time, 123.25);
        QCOMPARE(back[0].host, std::string("login1"));
        QCOMPARE(back[0].cwd, std::string("/home/bob"));
        QCOMPARE(back[0].command, std::string("echo a b c"));
    }

    void malformedLinesAreSkipped()
    {
        auto entries = parseHistory("nonsense\n10\tlaptop\t/home/bob\tssh mc\n\n");
        QCOMPARE(entries.size(), std::size_t{1});
        QCOMPARE(entries[0].command, std::string("ssh mc"));
    }

    void entriesAreAppendedToTheUsersFile()
    {
        QTemporaryDir dir;
        ClusterLayout layout{dir.path().toStdString()};
        QVERIFY(appendHistory(layout, "bob", {1, "login1", "/home/bob", "sinfo"}));
        QVERIFY(appendHistory(layout, "bob", {2, "laptop", "/home/bob", "ssh mc"}));
        QCOMPARE(historyPath(layout, "bob"), layout.run() + "/history/bob");
        QFile f(QString::fromStdString(historyPath(layout, "bob")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        auto entries = parseHistory(f.readAll().toStdString());
        QCOMPARE(entries.size(), std::size_t{2});
        QCOMPARE(entries[1].host, std::string("laptop"));
        QVERIFY(wallClockNow() > 1.7e9);
    }
};

QTEST_GUILESS_MAIN(ShellHistoryTest)
#include "shell_history_test.moc"
