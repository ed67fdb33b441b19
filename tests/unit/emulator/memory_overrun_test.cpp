// minicluster.conf's MemoryOverrun= line (emulator/noded/memory_overrun.h): Slurm's way by
// default, the Inserm platform's node restart when asked, and plain words for mistakes.
#include "mc/sched/minicluster_conf.h"
#include "memory_overrun.h"

#include <QtTest>

using mc::emu::parseMemoryOverrun;

class MemoryOverrunTest : public QObject {
    Q_OBJECT

private slots:
    void withoutTheLineTheJobAloneIsKilled()
    {
        const auto policy = parseMemoryOverrun("User=alice UID=1001\nLoginPolicy=off\n");
        QVERIFY(!policy.rebootNode);
        QCOMPARE(policy.rebootSeconds, 5);
        QVERIFY(policy.problems.empty());
    }

    void rebootNodeTakesItsTime()
    {
        const auto policy
            = parseMemoryOverrun("# the site's\nmemoryoverrun=Reboot-Node RebootTime=3 # x\n");
        QVERIFY(policy.rebootNode);
        QCOMPARE(policy.rebootSeconds, 3);
        QVERIFY(policy.problems.empty());
        QVERIFY(!parseMemoryOverrun("MemoryOverrun=kill-job\n").rebootNode);
    }

    void mistakesAreReportedWithTheirLine()
    {
        const auto policy
            = parseMemoryOverrun("\nMemoryOverrun=restart RebootTime=0 Delay=2 oops\n");
        QVERIFY(!policy.rebootNode);
        QCOMPARE(policy.rebootSeconds, 5);
        QCOMPARE(policy.problems.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(policy.problems[0]),
            QStringLiteral(
                "minicluster.conf:2: MemoryOverrun= is kill-job or reboot-node, not 'restart'"));
        QCOMPARE(QString::fromStdString(policy.problems[1]),
            QStringLiteral("minicluster.conf:2: RebootTime= needs whole seconds from 1 to 600"));
        // The keys are the file reader's (minicluster_conf.h), reported once for every daemon.
        const auto keys
            = mc::sched::readSiteConf("\nMemoryOverrun=restart RebootTime=0 Delay=2 oops\n");
        QCOMPARE(keys.problems.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(keys.problems[0]),
            QStringLiteral("minicluster.conf:2: unknown key \"Delay\" on a MemoryOverrun= line"));
        QCOMPARE(QString::fromStdString(keys.problems[1]),
            QStringLiteral("minicluster.conf:2: 'oops' is not Key=Value"));
    }
};

QTEST_APPLESS_MAIN(MemoryOverrunTest)
#include "memory_overrun_test.moc"
