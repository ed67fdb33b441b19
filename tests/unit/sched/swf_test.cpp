#include "mc/sim/metrics.h"
#include "mc/sim/swf.h"
#include "mc/sim/workload.h"

#include <QtTest>

using namespace mc::sim;

class SwfTest : public QObject {
    Q_OBJECT

private slots:
    void readsTheEighteenFieldsAndSkipsComments()
    {
        const auto trace = parseSwf("; Version: 2.2\n"
                                    "1 0 5 100 4 -1 -1 4 200 -1 1 3 -1 -1 2 -1 -1 -1\n"
                                    "2 10 0 50 2 -1 -1 -1 60 -1 0 4 -1 -1 1 -1 1 5\n"
                                    "3 bad\n");
        QCOMPARE(trace.jobs.size(), std::size_t(2));
        QCOMPARE(trace.problems.size(), std::size_t(1));
        QCOMPARE(trace.jobs[0].procs(), 4);
        QCOMPARE(trace.jobs[0].requestedTime, 200);
        QCOMPARE(trace.jobs[0].queue, 2);
        QCOMPARE(trace.jobs[1].procs(), 2); // requested -1: allocated count
        QCOMPARE(trace.jobs[1].precedingJob, 1);
        QCOMPARE(trace.jobs[0].requestedMemoryKb, -1);
    }

    void replayGivesExactMetricsForAHandCheckedTrace()
    {
        // One 4-CPU node. Job 1 runs 0-100 on 4 CPUs; job 2 (submitted at 0) waits until 100
        // and runs 100-105 on 4 CPUs; job 3 needs the end of job 2 (preceding job).
        const auto conf = mc::sched::parseSlurmConf("NodeName=cn01 CPUs=4 RealMemory=1000\n"
                                                    "PartitionName=p Nodes=cn01 Default=YES\n")
                              .config;
        const auto trace = parseSwf("1 0 -1 100 4 -1 -1 4 120 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                    "2 0 -1 5 4 -1 -1 4 60 -1 1 1 -1 -1 -1 -1 -1 -1\n"
                                    "3 0 -1 10 1 -1 -1 1 60 -1 1 1 -1 -1 -1 -1 2 -1\n");
        Simulation sim(conf);
        QCOMPARE(submitTrace(sim, trace), std::size_t(0));
        sim.run();
        const Metrics m = measure(sim);
        QCOMPARE(m.jobs, std::size_t(3));
        QCOMPARE(m.makespan, 115);
        // waits 0, 100, 105; slowdowns 1, (100+5)/10 = 10.5, (105+10)/10 = 11.5
        QCOMPARE(m.meanWait, 205.0 / 3);
        QCOMPARE(m.meanBoundedSlowdown, 23.0 / 3);
        QCOMPARE(m.utilisation, (400.0 + 20 + 10) / (4.0 * 115));
        const std::string csv = timelineCsv(sim);
        QVERIFY(
            csv.rfind("job_id,submit,start,end,nodes,state\n1,0,0,100,cn01,COMPLETED\n", 0) == 0);
        QVERIFY(csv.find("3,0,105,115,cn01,COMPLETED") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(SwfTest)
#include "swf_test.moc"
