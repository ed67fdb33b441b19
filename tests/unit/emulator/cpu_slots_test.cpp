// Which of a node's CPUs each job gets (mc/emu/cpu_slots.h): the lowest free run of indices,
// a job's own run for its steps, and the machine's CPUs behind them.
#include "mc/emu/cpu_slots.h"

#include <QtTest>

using mc::emu::CpuSlots;

class CpuSlotsTest : public QObject {
    Q_OBJECT

private slots:
    void jobsGetTheLowestFreeRunOfIndices()
    {
        CpuSlots node;
        QCOMPARE(node.take(1, 2), 0); // 0-1
        QCOMPARE(node.take(2, 1), 2); // 2
        QCOMPARE(node.take(1, 2), 0); // a step of job 1 runs on job 1's CPUs
        node.release(1);
        QVERIFY(!node.holds(1));
        QCOMPARE(node.take(3, 1), 0); // the freed gap, lowest first
        QCOMPARE(node.take(4, 2), 3); // 1 alone is too narrow for two
        QCOMPARE(node.take(5, 1), 1);
        QCOMPARE(node.take(6, 0), 5); // no count given: one CPU
        node.release(42); // not held: nothing happens
        QVERIFY(node.holds(6));
    }

    void nodeIndicesWrapOverTheMachinesUsableCpus()
    {
        using mc::emu::hostCpus;
        const std::vector<int> two{0, 1};
        QCOMPARE(hostCpus(0, 1, two), std::vector<int>{0});
        QCOMPARE(hostCpus(1, 1, two), std::vector<int>{1});
        QCOMPARE(hostCpus(3, 1, two), std::vector<int>{1}); // node CPU 3 of a laptop's two
        QCOMPARE(hostCpus(1, 8, two), two); // more than the machine has: all of them
        // A container or a cpuset may leave the daemon some CPUs only.
        QCOMPARE(hostCpus(1, 2, std::vector<int>{2, 5, 7}), (std::vector<int>{5, 7}));
        QCOMPARE(hostCpus(2, 2, std::vector<int>{2, 5, 7}), (std::vector<int>{2, 7}));
        QVERIFY(hostCpus(0, 2, {}).empty());
    }

    void cpuListsAreTheKernelsFormat()
    {
        using mc::emu::cpuListText;
        QCOMPARE(cpuListText({0, 1, 3}), std::string("0-1,3"));
        QCOMPARE(cpuListText({5}), std::string("5"));
        QCOMPARE(cpuListText({0, 2, 3, 4, 7, 8}), std::string("0,2-4,7-8"));
        QCOMPARE(cpuListText({}), std::string());
    }
};

QTEST_GUILESS_MAIN(CpuSlotsTest)
#include "cpu_slots_test.moc"
