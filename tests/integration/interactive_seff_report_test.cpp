// seff's report against Slurm's own (reference/13_seff.txt): the same accounting figures give
// the same text, byte for byte. In process, no cluster.
#include "seff_report.h"

#include <QtTest>

namespace {

using mc::proto::Json;

Json job(std::int64_t id, const char *state, int cpus, std::int64_t start, std::int64_t end,
    std::int64_t memMiB, bool perCpu, std::int64_t cpuMs, std::int64_t maxRssKb)
{
    Json j = Json::object();
    j.set("job_id", id);
    j.set("user", "alice");
    j.set("state", state);
    j.set("exit_code", 0);
    j.set("num_cpus", cpus);
    j.set("num_nodes", 1);
    j.set("start_time", start);
    j.set("end_time", end);
    j.set("min_memory", memMiB);
    j.set("mem_per_cpu", perCpu);
    Json steps = Json::array();
    Json step = Json::object();
    step.set("step", "batch");
    step.set("total_cpu_ms", cpuMs);
    step.set("max_rss_kb", maxRssKb);
    steps.push(std::move(step));
    j.set("steps", std::move(steps));
    return j;
}

QString report(const Json &j, const char *group, std::int64_t now)
{
    return QString::fromStdString(
        mc::cmd::seff::report(mc::record::jobObjectFromJson(j), "refcluster", group, now));
}

} // namespace

class SeffReportTest : public QObject {
    Q_OBJECT

private slots:
    void completedJobWithMemoryPerNodeMatchesSlurm()
    {
        // seff 113: 2 cores, 8 s of CPU in 16 s, 203.60 MB of 400 MB per node.
        QCOMPARE(report(job(113, "COMPLETED", 2, 1000, 1016, 400, false, 8000, 208486), "alice", 0),
            QStringLiteral("Job ID: 113\nCluster: refcluster\nUser/Group: alice/alice\n"
                           "State: COMPLETED (exit code 0)\nNodes: 1\nCores per node: 2\n"
                           "CPU Utilized: 00:00:08\n"
                           "CPU Efficiency: 25.00% of 00:00:32 core-walltime\n"
                           "Job Wall-clock time: 00:00:16\nMemory Utilized: 203.60 MB\n"
                           "Memory Efficiency: 50.90% of 400.00 MB\n"));
    }

    void memoryPerCpuIsAnEstimatedMaximumPerCore()
    {
        // seff 114: one core, DefMemPerCPU=500.
        QCOMPARE(report(job(114, "COMPLETED", 1, 1000, 1003, 500, true, 0, 0), "alice", 0),
            QStringLiteral("Job ID: 114\nCluster: refcluster\nUser/Group: alice/alice\n"
                           "State: COMPLETED (exit code 0)\nCores: 1\nCPU Utilized: 00:00:00\n"
                           "CPU Efficiency: 0.00% of 00:00:03 core-walltime\n"
                           "Job Wall-clock time: 00:00:03\n"
                           "Memory Utilized: 0.00 MB (estimated maximum)\n"
                           "Memory Efficiency: 0.00% of 500.00 MB (500.00 MB/core)\n"));
    }

    void pendingAndRunningJobsSayWhatTheirFiguresAreWorth()
    {
        QCOMPARE(report(job(115, "PENDING", 1, 0, 0, 500, true, 0, 0), "root", 0),
            QStringLiteral("Job ID: 115\nCluster: refcluster\nUser/Group: alice/root\n"
                           "State: PENDING\nCores: 1\n"
                           "Efficiency not available for jobs in the PENDING state.\n"));
        QCOMPARE(report(job(115, "RUNNING", 1, 1000, 0, 500, true, 0, 0), "alice", 1006),
            QStringLiteral("Job ID: 115\nCluster: refcluster\nUser/Group: alice/alice\n"
                           "State: RUNNING\nCores: 1\nCPU Utilized: 00:00:00\n"
                           "CPU Efficiency: 0.00% of 00:00:06 core-walltime\n"
                           "Job Wall-clock time: 00:00:06\n"
                           "Memory Utilized: 0.00 MB (estimated maximum)\n"
                           "Memory Efficiency: 0.00% of 500.00 MB (500.00 MB/core)\n"
                           "WARNING: Efficiency statistics may be misleading for RUNNING jobs.\n"));
    }

    void timesAndSizesUseSeffsUnits()
    {
        QCOMPARE(mc::cmd::seff::time2str(90061), std::string("1-01:01:01"));
        QCOMPARE(mc::cmd::seff::kbytes2str(5.55 * 1024 * 1024), std::string("5.55 GB"));
        QCOMPARE(mc::cmd::seff::kbytes2str(512), std::string("512.00 KB"));
    }
};

QTEST_GUILESS_MAIN(SeffReportTest)
#include "interactive_seff_report_test.moc"
