// One scheduling pass with 10,000 pending jobs on 1,000 nodes (issue #3 goal: < 50 ms,
// every pending job considered), and the memory a pending job costs.
// Run: build/release/bin/sched_pass_bench --benchmark_repetitions=10
//          --benchmark_report_aggregates_only=true

#include "mc/sched/scheduler.h"
#include "sched_workload.h"

#include <atomic>
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <map>
#include <new>

namespace {

std::atomic<long long> g_allocated{0};

} // namespace

// Counts bytes handed out by operator new, for the memory figures.
void *operator new(std::size_t size)
{
    g_allocated += static_cast<long long>(size);
    if (void *p = std::malloc(size)) {
        return p;
    }
    throw std::bad_alloc();
}
void operator delete(void *p) noexcept
{
    std::free(p);
}
void operator delete(void *p, std::size_t) noexcept
{
    std::free(p);
}

namespace {

using namespace mc::sched;

// A cluster half full of running jobs and `pending` jobs of mixed shapes waiting.
struct PassFixture {
    ClusterConfig config;
    std::map<std::uint32_t, Job> jobs;
    SchedulerInput input;

    PassFixture(int nodes, int pending)
        : config(mc::bench::benchCluster(nodes))
    {
        std::mt19937 rng(7);
        std::uniform_int_distribution<int> cpus(1, 32);
        std::uniform_int_distribution<int> limit(10, 2880);
        std::uniform_int_distribution<int> percent(0, 99);
        for (const auto &n : config.nodes) {
            input.nodes.push_back(NodeUsage{n.name, n.cpus, n.realMemory, 0, 0, true, n.gpus, 0});
        }
        std::uint32_t id = 1;
        // Running: one job on each node, using 8-32 CPUs, ending over the next two days.
        for (std::size_t i = 0; i < input.nodes.size(); ++i) {
            Job j;
            j.id = JobId{id++};
            j.state = JobState::Running;
            j.spec.partition = "all";
            j.spec.user = "u" + std::to_string(i % 50);
            const int used = 8 + static_cast<int>(i % 25);
            j.allocCpus = used;
            j.memPerNode = used * 1000;
            j.startTime = 0;
            j.timeLimit = limit(rng) * 60;
            j.nodeList = {input.nodes[i].name};
            input.nodes[i].allocCpus = used;
            input.nodes[i].allocMemory = j.memPerNode;
            jobs.emplace(j.id.value, std::move(j));
        }
        for (int k = 0; k < pending; ++k) {
            Job j;
            j.id = JobId{id++};
            j.spec.partition = "all";
            j.spec.user = "u" + std::to_string(k % 50);
            j.spec.name = "job" + std::to_string(k);
            j.spec.ntasks = cpus(rng) * (percent(rng) < 10 ? 8 : 1);
            j.spec.memPerCpu = 1000;
            if (percent(rng) < 5) {
                j.spec.gpusPerNode = 1;
            }
            j.timeLimit = limit(rng) * 60;
            j.submitTime = k;
            jobs.emplace(j.id.value, std::move(j));
        }
        input.config = &config;
        input.now = 3600;
        for (const auto &[jid, j] : jobs) {
            (j.isPending() ? input.pending : input.running).push_back(&j);
        }
    }
};

void BM_SchedulingPass(benchmark::State &state)
{
    PassFixture fixture(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    Scheduler scheduler;
    std::size_t decisions = 0;
    for (auto _ : state) {
        SchedulePlan plan = scheduler.run(fixture.input);
        decisions = plan.starts.size() + plan.waits.size();
        benchmark::DoNotOptimize(plan);
    }
    if (decisions != fixture.input.pending.size()) {
        state.SkipWithError("not every pending job got a decision");
    }
    state.counters["pending"] = static_cast<double>(fixture.input.pending.size());
}
BENCHMARK(BM_SchedulingPass)->Args({1000, 10000})->Unit(benchmark::kMillisecond);

void BM_SchedulingPassFifo(benchmark::State &state)
{
    PassFixture fixture(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
    SchedulerOptions options;
    options.policy = SchedulerKind::Builtin;
    Scheduler scheduler(options);
    for (auto _ : state) {
        benchmark::DoNotOptimize(scheduler.run(fixture.input));
    }
}
BENCHMARK(BM_SchedulingPassFifo)->Args({1000, 10000})->Unit(benchmark::kMillisecond);

// Bytes per pending job: the record itself (as the controller and the simulator keep it),
// and what a pass allocates per pending job.
void BM_MemoryPerPendingJob(benchmark::State &state)
{
    const int pending = 10000;
    long long recordBytes = 0;
    long long passBytes = 0;
    for (auto _ : state) {
        const long long before = g_allocated.load();
        PassFixture fixture(1000, pending);
        const long long withJobs = g_allocated.load();
        PassFixture empty(1000, 0);
        const long long base = g_allocated.load() - withJobs;
        recordBytes = (withJobs - before - base) / pending;
        const long long beforePass = g_allocated.load();
        SchedulePlan plan = Scheduler().run(fixture.input);
        benchmark::DoNotOptimize(plan);
        passBytes = (g_allocated.load() - beforePass) / pending;
    }
    state.counters["record_bytes_per_job"] = static_cast<double>(recordBytes);
    state.counters["pass_bytes_per_job"] = static_cast<double>(passBytes);
    state.counters["sizeof_Job"] = static_cast<double>(sizeof(Job));
}
BENCHMARK(BM_MemoryPerPendingJob)->Iterations(1)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
