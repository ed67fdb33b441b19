#include "mc/sched/priority.h"
#include "mc/sched/site_conf.h"

#include <QtTest>

using namespace mc::sched;

class PriorityTest : public QObject {
    Q_OBJECT

private slots:
    void basicPriorityFollowsSubmissionAsSlurmNumbersIt()
    {
        const ClusterConfig c
            = parseSlurmConf("NodeName=cn01 CPUs=4\nPartitionName=p Nodes=cn01\n").config;
        Job j;
        j.id = JobId{25};
        QCOMPARE(priorityOf(j, makePriorityContext(c, nullptr), 0).priority, 4294901735);
    }

    void multifactorIsTheWeightedSumMinusNice()
    {
        const ClusterConfig c = parseSlurmConf("PriorityType=priority/multifactor\n"
                                               "PriorityWeightAge=1000\nPriorityWeightJobSize=100\n"
                                               "PriorityWeightPartition=10\nPriorityMaxAge=100\n"
                                               "NodeName=cn01 CPUs=4\n"
                                               "PartitionName=p Nodes=cn01 PriorityTier=2\n"
                                               "PartitionName=q Nodes=cn01 PriorityTier=4\n")
                                    .config;
        Job j;
        j.id = JobId{1};
        j.spec.partition = "p";
        j.spec.ntasks = 2;
        j.spec.nice = 5;
        j.submitTime = 0;
        // PriorityMaxAge=100 is minutes: 6000 s; at 3000 s the age factor is 0.5.
        const auto f = priorityOf(j, makePriorityContext(c, nullptr), 3000);
        QCOMPARE(f.age, 0.5);
        QCOMPARE(f.jobSize, 0.5);
        QCOMPARE(f.partition, 0.5);
        QCOMPARE(f.fairshare, 1.0);
        QCOMPARE(f.priority, std::int64_t(500 + 50 + 5 - 5));
    }

    void qosFactorIsTheJobsQosOverTheLargestQosPriority()
    {
        ClusterConfig c = parseSlurmConf("PriorityType=priority/multifactor\n"
                                         "PriorityWeightQOS=1000\n"
                                         "NodeName=cn01 CPUs=4\nPartitionName=p Nodes=cn01\n")
                              .config;
        std::vector<std::string> problems;
        c.qos = parseSiteQos("User=alice UID=1001 DefaultAccount=a\n"
                             "QOS=normal\nQOS=high Priority=100\nQOS=low Priority=25\n",
            problems);
        QVERIFY(problems.empty());
        QCOMPARE(c.qos.size(), std::size_t(3));
        QCOMPARE(c.qos.front().name, std::string("normal"));
        Job j;
        j.id = JobId{1};
        j.spec.partition = "p";
        j.spec.qos = "low";
        QCOMPARE(priorityOf(j, makePriorityContext(c, nullptr), 0).qos, 0.25);
        j.spec.qos = "high";
        QCOMPARE(priorityOf(j, makePriorityContext(c, nullptr), 0).qos, 1.0);
        j.spec.qos = "normal";
        QCOMPARE(priorityOf(j, makePriorityContext(c, nullptr), 0).qos, 0.0);
        // Without QOS= lines the cluster has Slurm's one default QOS; a bad line is reported.
        QCOMPARE(parseSiteQos("", problems).front().name, std::string("normal"));
        parseSiteQos("QOS=x Priority=high\n", problems);
        QCOMPARE(problems.size(), std::size_t(1));
    }

    void fairshareHalvesForAnEqualShareAndRecoversWithDecay()
    {
        FairShareLedger ledger(100);
        ledger.addUser("alice");
        ledger.addUser("bob");
        ledger.charge("alice", 1000, 0);
        ledger.charge("bob", 1000, 0);
        QCOMPARE(ledger.factor("alice", 0), 0.5); // used exactly its share
        ledger.charge("alice", 0, 0);
        QCOMPARE(ledger.usage("alice", 100), 500.0); // one half-life later
        FairShareLedger idle(100);
        idle.addUser("carol");
        QCOMPARE(idle.factor("carol", 0), 1.0);
    }
};

QTEST_APPLESS_MAIN(PriorityTest)
#include "priority_test.moc"
