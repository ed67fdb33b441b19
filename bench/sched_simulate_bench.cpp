// Replaying a 100,000-job trace on 1,000 nodes with no processes (issue #3 goal: < 30 s).
// Arguments: jobs, policy (1 backfill, 0 FIFO), reservation depth (blocked jobs that get a
// reservation and a planned start in each pass; minicluster's default is 100). This trace
// offers the cluster about 100% of its CPUs, so a queue builds: the 100,000-job rows take
// minutes; bench/sched_simulate.sh times the command on an 85% trace.
// Run: build/release/bin/sched_simulate_bench --benchmark_repetitions=3
//          --benchmark_report_aggregates_only=true

#include "mc/sim/metrics.h"
#include "mc/sim/workload.h"
#include "sched_workload.h"

#include <benchmark/benchmark.h>

namespace {

void BM_SimulateTrace(benchmark::State &state)
{
    const auto config = mc::bench::benchCluster(1000);
    // ~75 s between arrivals offers about 100% of the 32,000 CPUs: busy, with a real queue.
    const auto trace = mc::bench::benchTrace(static_cast<int>(state.range(0)), 75.0);
    mc::sim::Metrics metrics;
    std::size_t passes = 0;
    for (auto _ : state) {
        mc::sim::SimulationOptions options;
        options.keepEvents = false;
        options.policy = state.range(1) ? mc::sched::SchedulerKind::Backfill
                                        : mc::sched::SchedulerKind::Builtin;
        options.reservationDepth = static_cast<int>(state.range(2));
        mc::sim::Simulation sim(config, options);
        mc::sim::submitTrace(sim, trace);
        sim.run();
        metrics = mc::sim::measure(sim);
        passes = sim.passes();
    }
    state.counters["jobs"] = static_cast<double>(metrics.jobs);
    state.counters["passes"] = static_cast<double>(passes);
    state.counters["utilisation"] = metrics.utilisation;
    state.counters["mean_wait_s"] = metrics.meanWait;
}
BENCHMARK(BM_SimulateTrace)
    ->Args({10000, 1, 100})
    ->Args({10000, 1, 10})
    ->Args({100000, 1, 100})
    ->Args({100000, 1, 10})
    ->Args({100000, 0, 100})
    ->Unit(benchmark::kSecond)
    ->Iterations(1);

} // namespace

BENCHMARK_MAIN();
