// Issue #6: the client side of squeue with a large queue, without the controller or the socket.
// A `jobs` reply of N pending held jobs is built with the real job codec (plus the controller's
// two-language explanation per pending job, as `jobs` sends it today) and
//   - parsed (BM_ParseJobsReply),
//   - parsed and printed by squeue with its default format (BM_SqueueDefault),
//   - the same when the reply holds only the members squeue names in `fields`
//     (BM_SqueueDefaultProjected: what server-side selection leaves to the client),
//   - the same as `columns` + `rows` (BM_SqueueDefaultRows: what squeue asks for since),
//   - squeue -l and a wide -O (BM_SqueueLongRowsText, BM_SqueueWideRowsText) and sacct over an
//     `acct` reply of N finished jobs with their batch and extern steps (BM_SacctDefaultRowsText,
//     BM_SacctWideRowsText: -X with sixteen fields), all read as the real mains read them.
// Run: build/<release>/bin/cmds_client_bench --benchmark_repetitions=9
//      --benchmark_report_aggregates_only=true

#include "mc/cmd/sacct.h"
#include "mc/cmd/squeue.h"
#include "mc/proto/json.h"
#include "mc/record/job_codec.h"
#include "mc/record/step.h"

#include <benchmark/benchmark.h>
#include <sstream>

namespace {

using mc::proto::Json;

constexpr std::int64_t kNow = 1795259639;

// A job of alice's in def-prof on the cpu partition.
mc::sched::Job aliceJob(std::uint32_t id)
{
    mc::sched::Job job;
    job.id = mc::sched::JobId{id};
    auto &s = job.spec;
    s.user = "alice";
    s.uid = 1001;
    s.gid = 1001;
    s.account = "def-prof";
    s.partition = "cpu";
    s.workDir = "/home/alice";
    return job;
}

// A command run by alice with `args`, its output and errors into `out`.
mc::cmd::Context aliceContext(const std::vector<std::string> &args, std::ostringstream &out)
{
    mc::cmd::Context ctx;
    ctx.out = &out;
    ctx.err = &out;
    ctx.args = args;
    ctx.user = {"alice", 1001, 1001};
    ctx.now = kNow;
    return ctx;
}

// The members a command asks for (`fields` of its `jobs` or `acct` request) with `args`.
template <typename Command>
std::vector<std::string> fieldsAsked(const std::vector<std::string> &args)
{
    std::vector<std::string> fields;
    std::ostringstream sink;
    mc::cmd::Context probe = aliceContext(args, sink);
    probe.controller = [&fields](const Json &request) -> std::optional<Json> {
        if (request.contains("fields")) {
            fields = request["fields"].toStringList();
        }
        return std::nullopt;
    };
    Command(probe).run();
    return fields;
}

// Runs the command over `ctx` once per iteration; the reply's bytes per job as a counter.
template <typename Command>
void timeRuns(
    benchmark::State &state, mc::cmd::Context &ctx, std::ostringstream &out, std::size_t replyBytes)
{
    for (auto _ : state) {
        out.str({});
        benchmark::DoNotOptimize(Command(ctx).run());
    }
    state.counters["bytes_per_job"]
        = static_cast<double>(replyBytes) / static_cast<double>(state.range(0));
}

Json pendingJob(std::uint32_t id)
{
    mc::sched::Job job = aliceJob(id);
    auto &s = job.spec;
    s.name = "wrap";
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
void runSqueue(benchmark::State &state, bool projected, bool rows = false, bool asText = false,
    const std::vector<std::string> &args = {})
{
    std::vector<std::string> fields;
    if (projected) { // what squeue asks for with `args`
        fields = fieldsAsked<mc::cmd::Squeue>(args);
    }
    const std::string text = jobsReply(static_cast<int>(state.range(0)), fields, rows);
    std::ostringstream out;
    mc::cmd::Context ctx = aliceContext(args, out);
    ctx.controller = [&text](const Json &) {
        return Json::parse(text);
    };
    if (asText) { // the reply's text read as a table (mc::proto::RowTable), as the real main does
        ctx.controllerText = [&text](const Json &) {
            return std::optional<std::string>(text);
        };
    }
    timeRuns<mc::cmd::Squeue>(state, ctx, out, text.size());
}

// A job of an `acct` reply: finished a minute ago, with its batch and extern steps.
Json finishedJob(std::uint32_t id)
{
    mc::sched::Job job = aliceJob(id);
    auto &s = job.spec;
    s.name = "train";
    s.command = "/home/alice/train.sh";
    s.cpusPerTask = 2;
    job.state = mc::sched::JobState::Completed;
    job.submitTime = kNow - 600;
    job.startTime = kNow - 300;
    job.endTime = kNow - 60;
    job.timeLimit = 3600;
    job.memPerNode = 256;
    job.nodeList = {"cn0" + std::to_string(id % 4 + 1)};
    job.allocCpus = 2;
    Json j = mc::record::jobToJson(job);
    j.set("priority", 4294900000 - static_cast<std::int64_t>(id));
    Json steps = Json::array();
    for (const char *name : {"batch", "extern"}) {
        mc::record::StepRecord step;
        step.job = job.id;
        step.step = name;
        step.state = mc::sched::JobState::Completed;
        step.startTime = job.startTime;
        step.endTime = job.endTime;
        step.nodes = job.nodeList;
        step.cpus = 2;
        step.totalCpuMs = 123456;
        step.maxRssKb = 40960;
        step.aveRssKb = 20480;
        steps.push(mc::record::stepRecordToJson(step));
    }
    j.set("steps", std::move(steps));
    return j;
}

// sacct in process with `args` over an `acct` reply of N finished jobs in `form: rows`, with the
// members it names; the clock (`ping`) answered apart, as the real controller does.
void runSacct(benchmark::State &state, const std::vector<std::string> &args)
{
    const std::vector<std::string> fields = fieldsAsked<mc::cmd::Sacct>(args);
    Json rows = Json::array();
    for (int i = 0; i < state.range(0); ++i) {
        Json job = finishedJob(static_cast<std::uint32_t>(1000 + i));
        Json row = Json::array();
        for (const auto &key : fields) {
            row.push(job[key]);
        }
        rows.push(fields.empty() ? std::move(job) : std::move(row)); // none named: whole objects
    }
    Json reply = Json::object();
    reply.set("ok", true);
    reply.set("now", kNow);
    if (!fields.empty()) {
        reply.set("columns", mc::proto::stringList(fields));
    }
    reply.set(fields.empty() ? "jobs" : "rows", std::move(rows));
    const std::string text = reply.dump();
    std::ostringstream out;
    mc::cmd::Context ctx = aliceContext(args, out);
    ctx.controller = [](const Json &) -> std::optional<Json> {
        Json pong = Json::object();
        pong.set("ok", true);
        pong.set("now", kNow);
        return pong;
    };
    ctx.controllerText = [&text](const Json &) {
        return std::optional<std::string>(text);
    };
    timeRuns<mc::cmd::Sacct>(state, ctx, out, text.size());
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

// squeue -l: the default columns, the state's long name and the time limit.
void BM_SqueueLongRowsText(benchmark::State &state)
{
    runSqueue(state, true, true, true, {"-l"});
}

// A wide -O: eighteen columns of every kind (ids, times, memory, node lists, paths).
void BM_SqueueWideRowsText(benchmark::State &state)
{
    runSqueue(state, true, true, true,
        {"-O",
            "jobarrayid,partition,name,username,account,state,reason,timeused,timelimit,"
            "timeleft,submittime,starttime,numcpus,numnodes,minmemory,priority,workdir,"
            "stdout"});
}

// sacct's default fields: a line per job and per step.
void BM_SacctDefaultRowsText(benchmark::State &state)
{
    runSacct(state, {});
}

// sacct -X with sixteen fields of every kind.
void BM_SacctWideRowsText(benchmark::State &state)
{
    runSacct(state,
        {"-X", "-o",
            "jobid,jobname,user,account,partition,alloccpus,state,exitcode,elapsed,start,end,"
            "submit,nodelist,suspended,group,reason"});
}

} // namespace

BENCHMARK(BM_ParseJobsReply)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueDefault)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueDefaultProjected)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueDefaultRows)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueDefaultRowsText)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueLongRowsText)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SqueueWideRowsText)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SacctDefaultRowsText)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SacctWideRowsText)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
