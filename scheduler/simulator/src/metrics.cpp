#include "mc/sim/metrics.h"

#include "mc/sched/hostlist.h"

#include <algorithm>
#include <cstdio>

namespace mc::sim {

Metrics measure(const Simulation &simulation)
{
    Metrics m;
    Seconds firstSubmit = 0;
    Seconds lastEnd = 0;
    bool any = false;
    double used = 0;
    double wait = 0;
    double slowdown = 0;
    for (const auto &[id, job] : simulation.jobs()) {
        if (job.state == sched::JobState::Pending || job.nodeList.empty()) {
            continue;
        }
        const Seconds end = job.endTime > 0 ? job.endTime : simulation.now();
        firstSubmit = any ? std::min(firstSubmit, job.submitTime) : job.submitTime;
        lastEnd = any ? std::max(lastEnd, end) : end;
        any = true;
        ++m.jobs;
        const Seconds run = std::max<Seconds>(0, end - job.startTime);
        const Seconds waited = std::max<Seconds>(0, job.startTime - job.submitTime);
        used += static_cast<double>(job.allocCpus) * static_cast<double>(run);
        wait += static_cast<double>(waited);
        slowdown += std::max(1.0,
            static_cast<double>(waited + run) / static_cast<double>(std::max<Seconds>(run, 10)));
    }
    if (m.jobs == 0) {
        return m;
    }
    int cpus = 0;
    for (const auto &n : simulation.config().nodes) {
        cpus += n.cpus;
    }
    m.makespan = lastEnd - firstSubmit;
    if (m.makespan > 0 && cpus > 0) {
        m.utilisation = used / (static_cast<double>(cpus) * static_cast<double>(m.makespan));
    }
    m.meanWait = wait / static_cast<double>(m.jobs);
    m.meanBoundedSlowdown = slowdown / static_cast<double>(m.jobs);
    return m;
}

std::string timelineCsv(const Simulation &simulation)
{
    std::string csv = "job_id,submit,start,end,nodes,state\n";
    std::vector<const sched::Job *> jobs;
    for (const auto &[id, job] : simulation.jobs()) {
        jobs.push_back(&job);
    }
    std::stable_sort(jobs.begin(), jobs.end(), [](const sched::Job *a, const sched::Job *b) {
        return a->submitTime != b->submitTime ? a->submitTime < b->submitTime : a->id < b->id;
    });
    for (const sched::Job *job : jobs) {
        const bool ran = !job->nodeList.empty();
        std::string nodes = sched::compressHostlist(job->nodeList);
        if (nodes.find(',') != std::string::npos) {
            nodes = '"' + nodes + '"';
        }
        csv += simulation.displayId(*job) + ',' + std::to_string(job->submitTime) + ','
            + (ran ? std::to_string(job->startTime) : std::string()) + ','
            + (ran && job->endTime > 0 ? std::to_string(job->endTime) : std::string()) + ',' + nodes
            + ',' + std::string(sched::longName(job->state)) + '\n';
    }
    return csv;
}

std::string formatMetrics(const Metrics &m)
{
    char buffer[256];
    std::snprintf(buffer, sizeof buffer,
        "jobs: %zu\nmakespan: %lld s\nutilisation: %.1f%%\nmean wait: %.1f s\n"
        "mean bounded slowdown: %.2f\n",
        m.jobs, static_cast<long long>(m.makespan), m.utilisation * 100.0, m.meanWait,
        m.meanBoundedSlowdown);
    return buffer;
}

} // namespace mc::sim
