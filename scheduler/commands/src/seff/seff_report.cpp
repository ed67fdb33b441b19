#include "seff_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mc::cmd::seff {

using record::JobObject;

std::string time2str(std::int64_t seconds)
{
    seconds = std::max<std::int64_t>(0, seconds);
    std::int64_t days = seconds / 86400;
    char buffer[64];
    if (days > 0) {
        std::snprintf(buffer, sizeof buffer, "%lld-%02lld:%02lld:%02lld",
            static_cast<long long>(days), static_cast<long long>(seconds % 86400 / 3600),
            static_cast<long long>(seconds % 3600 / 60), static_cast<long long>(seconds % 60));
    } else {
        std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld",
            static_cast<long long>(seconds / 3600), static_cast<long long>(seconds % 3600 / 60),
            static_cast<long long>(seconds % 60));
    }
    return buffer;
}

std::string kbytes2str(double kbytes)
{
    char buffer[64];
    if (kbytes <= 0) {
        std::snprintf(buffer, sizeof buffer, "%.2f MB", 0.0);
        return buffer;
    }
    static const char *const kPrefixes[] = {"K", "M", "G", "T", "P", "E"};
    int exp = std::clamp(static_cast<int>(std::log(kbytes) / std::log(1024.0)), 0, 5);
    std::snprintf(
        buffer, sizeof buffer, "%.2f %sB", kbytes / std::pow(1024.0, exp), kPrefixes[exp]);
    return buffer;
}

std::string report(const JobObject &job, const std::string &clusterName,
    const std::string &groupName, std::int64_t now)
{
    std::string out;
    auto line = [&out](const std::string &text) {
        out += text;
        out += '\n';
    };
    const std::string &state = job.state;
    out += "Job ID: " + std::to_string(job.jobId) + "\n";
    if (job.arrayTaskId) {
        out += "Array Job ID: " + std::to_string(job.arrayJobId) + "_"
            + std::to_string(*job.arrayTaskId) + "\n";
    }
    line("Cluster: " + clusterName);
    line("User/Group: " + job.user + "/" + groupName);
    if (state == "PENDING" || state == "RUNNING") {
        line("State: " + state);
    } else {
        line("State: " + state + " (exit code " + std::to_string(job.exitCode) + ")");
    }
    const std::int64_t ncpus = std::max<std::int64_t>(1, job.numCpus.value_or(1));
    const std::int64_t nnodes = std::max<std::int64_t>(1, job.numNodes.value_or(1));
    if (ncpus == 1) {
        line("Cores: 1");
    } else {
        line("Nodes: " + std::to_string(nnodes));
        line("Cores per node: " + std::to_string(ncpus / nnodes));
    }
    if (state == "PENDING") {
        line("Efficiency not available for jobs in the PENDING state.");
        return out;
    }
    std::int64_t cpuMs = 0;
    std::int64_t maxRssKb = 0;
    for (const auto &step : job.steps) {
        cpuMs += step.totalCpuMs;
        maxRssKb = std::max(maxRssKb, step.maxRssKb);
    }
    const std::int64_t start = job.startTime;
    const std::int64_t end = state == "RUNNING" || job.endTime == 0 ? now : job.endTime;
    const std::int64_t wall = start > 0 ? std::max<std::int64_t>(0, end - start) : 0;
    const std::int64_t coreWall = wall * ncpus;
    const std::int64_t cpuSeconds = cpuMs / 1000;
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.2f",
        coreWall > 0 ? 100.0 * static_cast<double>(cpuSeconds) / static_cast<double>(coreWall)
                     : 0.0);
    line("CPU Utilized: " + time2str(cpuSeconds));
    line(std::string("CPU Efficiency: ") + pct + "% of " + time2str(coreWall) + " core-walltime");
    line("Job Wall-clock time: " + time2str(wall));

    // Requested memory: per CPU (sbatch --mem-per-cpu, DefMemPerCPU) or per node.
    const bool perCpu = job.memPerCpu;
    const double unitKb = static_cast<double>(job.minMemory) * 1024.0;
    const double allocKb = unitKb * static_cast<double>(perCpu ? ncpus : nnodes);
    const bool estimated = perCpu || nnodes > 1;
    std::snprintf(pct, sizeof pct, "%.2f",
        allocKb > 0 ? 100.0 * static_cast<double>(maxRssKb) / allocKb : 0.0);
    line("Memory Utilized: " + kbytes2str(static_cast<double>(maxRssKb))
        + (estimated ? " (estimated maximum)" : ""));
    std::string efficiency
        = std::string("Memory Efficiency: ") + pct + "% of " + kbytes2str(allocKb);
    if (estimated) {
        efficiency += " (" + kbytes2str(unitKb) + (perCpu ? "/core)" : "/node)");
    }
    line(efficiency);
    if (state == "RUNNING") {
        line("WARNING: Efficiency statistics may be misleading for RUNNING jobs.");
    }
    return out;
}

} // namespace mc::cmd::seff
