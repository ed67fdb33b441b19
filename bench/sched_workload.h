#pragma once
// Synthetic clusters and workloads shared by the scheduler benchmarks (deterministic seeds).

#include "mc/sched/slurm_conf.h"
#include "mc/sim/swf.h"

#include <random>
#include <string>

namespace mc::bench {

// `nodes` nodes of 32 CPUs / 128 GB (one in ten with 4 GPUs) in one partition.
inline sched::ClusterConfig benchCluster(int nodes)
{
    const int gpuNodes = nodes / 10;
    std::string conf
        = "NodeName=cn[0001-" + std::to_string(nodes - gpuNodes) + "] CPUs=32 RealMemory=128000\n";
    conf += "NodeName=gpu[001-" + std::to_string(gpuNodes)
        + "] CPUs=32 RealMemory=128000 Gres=gpu:4\n";
    conf += "PartitionName=all Nodes=ALL Default=YES MaxTime=7-00:00:00\n";
    return sched::parseSlurmConf(conf).config;
}

// An SWF-like trace: `jobs` jobs arriving every ~`meanGap` s, 1-256 processors, run times up
// to a day with requested times above them.
inline sim::SwfTrace benchTrace(int jobs, double meanGap, unsigned seed = 42)
{
    std::mt19937 rng(seed);
    std::exponential_distribution<double> gap(1.0 / meanGap);
    std::uniform_int_distribution<int> power(0, 8);
    std::uniform_int_distribution<int> run(30, 86400);
    sim::SwfTrace trace;
    double t = 0;
    for (int i = 1; i <= jobs; ++i) {
        t += gap(rng);
        sim::SwfJob job;
        job.id = static_cast<std::uint32_t>(i);
        job.submit = static_cast<sched::Seconds>(t);
        job.runTime = run(rng);
        job.requestedProcs = 1 << power(rng);
        job.allocatedProcs = job.requestedProcs;
        job.requestedTime = job.runTime + job.runTime / 2 + 60;
        job.user = i % 50;
        trace.jobs.push_back(job);
    }
    return trace;
}

} // namespace mc::bench
