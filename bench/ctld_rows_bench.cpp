// Issue #6: the controller's side of `squeue` and `sacct -X` with 5,000 pending jobs, and its
// memory per pending job. A real Controller on a real SQLite job store (a temporary folder);
// the jobs are what `sbatch --hold --wrap true` sends from a login shell (a 48-variable, 3.8 KB
// environment), and the requests are the ones squeue and sacct -X send (captured with strace).
//
// build/release/bin/ctld_rows_bench --benchmark_repetitions=9 --benchmark_report_aggregates_only
// Counters: bytes_per_job = heap in use (mallinfo2) for the queue, before and after the row
// cache is filled; the goal is under 2 KB (real Slurm 22.05: 5 KB, ../shared/reference/perf.md).
#include "mc/acct/job_store.h"
#include "mc/ctl/controller.h"
#include "mc/sched/site_conf.h"
#include "mc/sched/slurm_conf.h"

#include <benchmark/benchmark.h>
#include <cstdlib>
#include <filesystem>
#include <malloc.h>
#include <memory>
#include <string>

namespace {

using mc::proto::Json;

constexpr int kJobs = 5000;

constexpr const char *kConf = R"(ClusterName=minicluster
DefMemPerCPU=1000
PriorityType=priority/multifactor
PriorityWeightFairshare=10000
PriorityWeightAge=1000
NodeName=cn[01-04] CPUs=4 RealMemory=8000
PartitionName=cpu Nodes=cn[01-04] Default=YES DefaultTime=01:00:00 MaxTime=1-00:00:00
)";

struct NoNodes : mc::ctl::NodeGateway {
    bool send(const std::string &, const Json &) override { return true; }
};

Json stringList(std::initializer_list<const char *> names)
{
    Json list = Json::array();
    for (const char *name : names) {
        list.push(name);
    }
    return list;
}

Json heldJob(int i)
{
    Json job = Json::object();
    job.set("name", "wrap");
    job.set("user", "alice");
    job.set("uid", 1001);
    job.set("gid", 1001);
    job.set("script", "#!/bin/sh\n# This script was created by sbatch --wrap.\n\ntrue\n");
    job.set("command", "(null)");
    job.set("work_dir", "/home/alice");
    job.set("std_out", "/dev/null");
    job.set("hold", true);
    Json env = Json::array();
    for (int v = 0; v < 48; ++v) { // about what a login shell exports
        env.push("VARIABLE_" + std::to_string(v) + "=" + std::string(70, 'x'));
    }
    env.push("SUBMIT_INDEX=" + std::to_string(i));
    job.set("env", std::move(env));
    Json request = Json::object();
    request.set("op", "submit");
    request.set("job", std::move(job));
    return request;
}

std::size_t heapInUse()
{
    return mallinfo2().uordblks;
}

// One controller with kJobs held jobs, shared by the benchmarks.
struct Queue {
    std::filesystem::path dir;
    mc::acct::JobStore store;
    NoNodes nodes;
    std::unique_ptr<mc::ctl::Controller> controller;
    double bytesPerJob = 0;
    double bytesPerJobWithRows = 0;

    Queue()
    {
        char pattern[] = "/tmp/mc-ctld-bench-XXXXXX";
        dir = ::mkdtemp(pattern);
        std::string error;
        if (!store.open((dir / "ctld.sqlite").string(), error)) {
            std::abort();
        }
        controller = std::make_unique<mc::ctl::Controller>(mc::sched::parseSlurmConf(kConf).config,
            mc::sched::parseSiteUsers("User=alice UID=1001 DefaultAccount=def-prof\n"), store,
            nodes);
        controller->restore(error);
        Json hello = Json::object();
        hello.set("op", "node_register");
        for (const char *node : {"cn01", "cn02", "cn03", "cn04"}) {
            controller->nodeRegistered(node, hello, 100);
        }
        controller->schedule(100);
        malloc_trim(0);
        const std::size_t before = heapInUse();
        for (int i = 0; i < kJobs; ++i) {
            controller->handleRequest(heldJob(i), 100);
        }
        controller->schedule(101);
        malloc_trim(0);
        bytesPerJob = static_cast<double>(heapInUse() - before) / kJobs;
        controller->handleRequest(squeue(), 102);
        controller->handleRequest(sacct(), 102);
        malloc_trim(0);
        bytesPerJobWithRows = static_cast<double>(heapInUse() - before) / kJobs;
    }
    ~Queue()
    {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }

    static Json squeue()
    {
        Json r = Json::object();
        r.set("op", "jobs");
        r.set("fields",
            stringList({"job_id", "array_job_id", "account", "qos", "state", "partition", "user",
                "name", "nodes", "array_task_id", "array_task_str", "state_short", "start_time",
                "end_time", "num_nodes", "reason", "priority"}));
        r.set("form", "rows");
        return r;
    }
    static Json sacct()
    {
        Json r = Json::object();
        r.set("op", "acct");
        r.set("users", Json::array());
        r.set("job_ids", Json::array());
        r.set("since", 50); // sacct -X: since midnight, after every end_time 0 of the queue
        r.set("fields",
            stringList(
                {"job_id", "array_job_id", "array_task_id", "user", "account", "name", "partition",
                    "nodes", "eligible_time", "submit_time", "start_time", "end_time", "state",
                    "array_task_str", "num_cpus", "cancelled_by", "exit_code", "exit_signal"}));
        r.set("form", "rows");
        return r;
    }
};

Queue &queue()
{
    static Queue q;
    return q;
}

// The request handled and its reply written as the server sends it.
void run(benchmark::State &state, const Json &request)
{
    Queue &q = queue();
    std::size_t bytes = 0;
    for (auto _ : state) {
        std::string text;
        q.controller->handleRequest(request, 102).dumpTo(text);
        bytes = text.size();
        benchmark::DoNotOptimize(text.data());
    }
    state.counters["reply_bytes"] = static_cast<double>(bytes);
    state.counters["bytes_per_job"] = q.bytesPerJob;
    state.counters["bytes_per_job_with_rows"] = q.bytesPerJobWithRows;
}

void BM_SqueueRows(benchmark::State &state)
{
    run(state, Queue::squeue());
}
void BM_SacctAllocationRows(benchmark::State &state)
{
    run(state, Queue::sacct());
}

BENCHMARK(BM_SqueueRows)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SacctAllocationRows)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
