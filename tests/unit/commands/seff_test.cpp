// seff in process against a fake controller: its words and exit codes for each way a run ends
// (those of Slurm's contribs/seff Perl script), and the report of an accounted job.
#include "command_harness.h"
#include "mc/cmd/seff.h"

#include <QtTest>

using namespace mc::cmd::test;
using mc::cmd::Seff;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

const std::string kUsage = "Usage: seff [Options] <Jobid>\n"
                           "       Options:\n"
                           "       -h    Help menu\n"
                           "       -v    Version\n"
                           "       -d    Debug mode: display raw Slurm data\n";

// ping with the cluster's name, and `acct` knowing job 113 only (2 cores, 8 s of CPU in 16 s).
std::optional<Json> accounting(const Json &request)
{
    Json reply = okReply();
    if (request["op"].toString() == "ping") {
        reply.set("cluster_name", "refcluster");
        reply.set("now", 2000);
        return reply;
    }
    Json jobs = Json::array();
    if (request["job_ids"].items().front().toInt() == 113) {
        Json job = Json::object();
        job.set("job_id", 113);
        job.set("user", "alice");
        job.set("gid", 4294967000); // no such group: seff shows the number
        job.set("state", "COMPLETED");
        job.set("exit_code", 0);
        job.set("num_cpus", 2);
        job.set("num_nodes", 1);
        job.set("start_time", 1000);
        job.set("end_time", 1016);
        job.set("min_memory", 400);
        job.set("mem_per_cpu", false);
        Json step = Json::object();
        step.set("step", "batch");
        step.set("total_cpu_ms", 8000);
        step.set("max_rss_kb", 208486);
        Json steps = Json::array();
        steps.push(std::move(step));
        job.set("steps", std::move(steps));
        jobs.push(std::move(job));
    }
    reply.set("jobs", std::move(jobs));
    return reply;
}

} // namespace

class SeffTest : public QObject {
    Q_OBJECT

private slots:
    void helpAndNoJobPrintTheUsageAndExitOne()
    {
        Harness h;
        auto r = h.run<Seff>({"-h"});
        COMPARE_TEXT(r.out, kUsage);
        QCOMPARE(r.exitCode, 1);
        r = h.run<Seff>({});
        COMPARE_TEXT(r.out, kUsage);
        QCOMPARE(r.exitCode, 1);
        QVERIFY(h.requests.empty());
    }

    void versionAndTheRefusedDebugMode()
    {
        Harness h;
        auto r = h.run<Seff>({"-v"});
        COMPARE_TEXT(r.out, "seff Version 2.1\n");
        QCOMPARE(r.exitCode, 0);
        r = h.run<Seff>({"-d", "113"});
        COMPARE_TEXT(r.err, "seff: error: -d (raw Slurm data) is not supported by minicluster\n");
        QCOMPARE(r.exitCode, 1);
    }

    void aMalformedOrUnknownJobIsNotFoundWithExitTwo()
    {
        Harness h;
        h.reply = accounting;
        auto r = h.run<Seff>({"abc"});
        COMPARE_TEXT(r.err, "Job not found.\n");
        QCOMPARE(r.exitCode, 2);
        QVERIFY(h.requests.empty());
        r = h.run<Seff>({"999"});
        COMPARE_TEXT(r.err, "Job not found.\n");
        QCOMPARE(r.exitCode, 2);
    }

    void anUnreachableControllerIsSlurmsConnectFailure()
    {
        Harness h;
        auto r = h.run<Seff>({"113"});
        COMPARE_TEXT(r.err, "seff: error: Unable to contact slurm controller (connect failure)\n");
        QCOMPARE(r.exitCode, 1);
    }

    void reportsAnAccountedJob()
    {
        Harness h;
        h.reply = accounting;
        auto r = h.run<Seff>({"113"});
        QCOMPARE(r.exitCode, 0);
        COMPARE_TEXT(r.out,
            "Job ID: 113\nCluster: refcluster\nUser/Group: alice/4294967000\n"
            "State: COMPLETED (exit code 0)\nNodes: 1\nCores per node: 2\n"
            "CPU Utilized: 00:00:08\nCPU Efficiency: 25.00% of 00:00:32 core-walltime\n"
            "Job Wall-clock time: 00:00:16\nMemory Utilized: 203.60 MB\n"
            "Memory Efficiency: 50.90% of 400.00 MB\n");
    }
};

QTEST_APPLESS_MAIN(SeffTest)
#include "seff_test.moc"
