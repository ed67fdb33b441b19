// Issue #6: the client side of squeue with a large queue, without the controller or the socket.
// A `jobs` reply of N pending held jobs is built with the real job codec (plus the controller's
// two-language explanation per pending job, as `jobs` sends it today) and
//   - parsed (BM_ParseJobsReply),
//   - parsed and printed by squeue with its default format (BM_SqueueDefault),
//   - the same when the reply holds only the members squeue names in `fields`
//     (BM_SqueueDefaultProjected: what server-side selection leaves to the client),
//   - the same as `columns` + `rows` (BM_SqueueDefaultRows: what squeue asks for since).
// Run: build/<release>/bin/cmds_client_bench --benchmark_repetitions=9
//      --benchmark_report_aggregates_only=true

#include "mc/cmd/squeue.h"
#include "mc/proto/json.h"
#include "mc/record/job_codec.h"

#include <benchmark/benchmark.h>
#include <sstream>

namespace {

using mc::proto::Json;

constexpr std::int64_t kNow = 1795259639;

Json pendingJob(std::uint32_t id)
{
    mc::sched::Job job;
    job.id = mc::sched::JobId{id};
    auto &s = job.spec;
    s.name = "wrap";
    s.user = "alice";
    s.uid = 1001;
    s.gid = 1001;
    s.account = "def-prof";
    s.partition = "cpu";
    s.workDir = "/home/alice";
    s.command = "(null)";
    s.stdOut = "/dev/null";
    s.hold = true;
    job.state = mc::sched::JobState::Pending;
    job.reason = mc::sched::Reason::JobHeldUser;
    job.submitTime = kNow - id;
    job.timeLimit = 3600;
    job.memPerNode = 256;
    Json j = mc::record::jobToJson(job);
    Json explanation = Json::object();
    explanation.set("en",
        "Job " + std::to_string(id)
            + " is held: you (or an operator) put it on hold, so the scheduler will not start "
              "it. Release it with: scontrol release "
            + std::to_string(id));
    explanation.set("fr",
        "La tâche " + std::to_string(id)
            + " est retenue : vous (ou un opérateur) l'avez mise en attente, l'ordonnanceur ne "
              "la démarrera pas. Libérez-la avec : scontrol release "
            + std::to_string(id));
    j.set("explanation", std::move(explanation));
    j.set("now", kNow);
    return j;
}

std::string jobsReply(int count, const std::vector<std::string> &fields, bool rows = false)
{
    Json jobs = Json::array();
    if (rows) { // `form: rows`: the values of `fields` in order, null when absent
        for (int i = 0; i < count; ++i) {
            Json job = pendingJob(static_cast<std::uint32_t>(1000 + i));
            Json row = Json::array();
            for (const auto &key : fields) {
                row.push(job[key]);
            }
            jobs.push(std::move(row));
        }
        Json reply = Json::object();
        reply.set("ok", true);
        reply.set("now", kNow);
        reply.set("columns", mc::proto::stringList(fields));
        reply.set("rows", std::move(jobs));
        return reply.dump();
    }
    for (int i = 0; i < count; ++i) {
        Json job = pendingJob(static_cast<std::uint32_t>(1000 + i));
        if (!fields.empty()) {
            Json projected = Json::object();
            for (const auto &key : fields) {
                if (job.contains(key)) {
                    projected.set(key, job[key]);
                }
            }
            job = std::move(projected);
        }
        jobs.push(std::move(job));
    }
    Json reply = Json::object();
    reply.set("ok", true);
    reply.set("now", kNow);
    reply.set("jobs", std::move(jobs));
    return reply.dump();
}

void BM_ParseJobsReply(benchmark::State &state)
{
    const std::string text = jobsReply(static_cast<int>(state.range(0)), {});
    for (auto _ : state) {
        auto parsed = Json::parse(text);
        benchmark::DoNotOptimize(parsed);
    }
    state.counters["bytes_per_job"]
        = static_cast<double>(text.size()) / static_cast<double>(state.range(0));
}

// squeue in process: the fake controller parses the reply text as the real client would.
void runSqueue(benchmark::State &state, bool projected, bool rows = false, bool asText = false)
{
    std::vector<std::string> fields;
    if (projected) { // what squeue asks for with its default format
        mc::cmd::Context probe;
        std::ostringstream sink;
        probe.out = &sink;
        probe.err = &sink;
        probe.controller = [&fields](const Json &request) -> std::optional<Json> {
            fields = request["fields"].toStringList();
            return std::nullopt;
        };
        mc::cmd::Squeue(probe).run();
    }
    const std::string text = jobsReply(static_cast<int>(state.range(0)), fields, rows);
    std::ostringstream out;
    std::ostringstream err;
    mc::cmd::Context ctx;
    ctx.out = &out;
    ctx.err = &err;
    ctx.user = {"alice", 1001, 1001};
    ctx.now = kNow;
    ctx.controller = [&text](const Json &) {
        return Json::parse(text);
    };
    if (asText) { // the reply's text read as a table (mc::proto::RowTable), as the real main does
        ctx.controllerText = [&text](const Json &) {
            return std::optional<std::string>(text);
        };
    }
    for (auto _ : state) {
        out.str({});
        benchmark::DoNotOptimize(mc::cmd::Squeue(ctx).run());
    }
    state.counters["bytes_per_job"]
        = static_cast<double>(text.size()) / static_cast<double>(state.range(0));
}

void BM_SqueueDefault(benchmark::State &state)
{
    runSqueue(state, false);
}

void BM_SqueueDefaultProjected(benchmark::State &state)
{
    runSqueue(state, true);
}

// The same as rows of values (`form: rows`, what squeue asks for now).
void BM_SqueueDefaultRows(benchmark::State &state)
{
    runSqueue(state, true, true);
}

// The same rows read from the reply's text without a Json tree (squeue's real path).
void BM_SqueueDefaultRowsText(benchmark::State &state)
{
    runSqueue(state, true, true, true);
}

} // namespace

BENCHMARK(BM_ParseJobsReply)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueDefault)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueDefaultProjected)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueDefaultRows)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueDefaultRowsText)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
