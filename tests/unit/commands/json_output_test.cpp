// --json of squeue, sinfo and sacct (issue #6) against real Slurm 22.05.8 output (slurm_json/):
// the writer reproduces Slurm's text byte for byte, and each record minicluster writes has
// exactly the keys of Slurm's record of the same kind, in Slurm's order and with its value
// types; the values come from the controller's replies. scontrol and sacctmgr do not know
// --json in 22.05 and say so as getopt does.

#include "../../../scheduler/commands/src/json_out.h"
#include "command_harness.h"
#include "mc/cmd/sacct.h"
#include "mc/cmd/sacctmgr.h"
#include "mc/cmd/scontrol.h"
#include "mc/cmd/sinfo.h"
#include "mc/cmd/squeue.h"
#include "reference_cluster.h"

#include <QFile>
#include <QtTest>

using namespace mc::cmd::test;
using mc::cmd::slurmJsonText;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

constexpr std::int64_t kNow = 1795278650;

std::string fixtureText(const char *name)
{
    QFile file(QStringLiteral(MC_SOURCE_DIR "/tests/unit/commands/slurm_json/") + name);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    return file.readAll().toStdString();
}

Json fixture(const char *name)
{
    return Json::parse(fixtureText(name)).value_or(Json());
}

std::string typeName(const Json &v)
{
    if (v.isNull()) {
        return "null";
    }
    if (v.isBool()) {
        return "bool";
    }
    if (v.isInt()) {
        return "int";
    }
    if (v.isNumber()) {
        return "float";
    }
    if (v.isString()) {
        return "string";
    }
    return v.isArray() ? "array" : "object";
}

// Item `i` of an array; null when there is none.
const Json &at(const Json &array, std::size_t i)
{
    static const Json none;
    return i < array.items().size() ? array.items()[i] : none;
}

bool isIndex(const std::string &key)
{
    return !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
}

// Every key path of a record with its value type, in order ("/job_resources/nodes string");
// the socket and core numbers of job_resources become "#".
void shapeOf(const Json &v, const std::string &path, QStringList &out)
{
    out << QString::fromStdString(path + " " + typeName(v));
    if (v.isObject()) {
        for (const auto &[key, member] : v.members()) {
            shapeOf(member, path + "/" + (isIndex(key) ? std::string("#") : key), out);
        }
    } else if (v.isArray()) {
        for (const auto &item : v.items()) {
            shapeOf(item, path + "[]", out);
        }
    }
}

QStringList shape(const Json &v)
{
    QStringList out;
    shapeOf(v, "", out);
    return out;
}

const Json &record(const Json &doc, const char *list, std::int64_t id)
{
    static const Json none;
    for (const auto &item : doc[list].items()) {
        if (item["job_id"].toInt() == id) {
            return item;
        }
    }
    return none;
}

// A job object as the controller's `jobs` and `acct` replies carry it (docs/protocol.md).
Json job(int id, const char *name, const char *state, const char *reason)
{
    Json j = Json::object();
    j.set("job_id", id);
    j.set("name", name);
    j.set("user", "alice");
    j.set("uid", 1001);
    j.set("gid", 1001);
    j.set("account", "students");
    j.set("partition", "debug");
    j.set("qos", "normal");
    j.set("state", state);
    j.set("reason", reason);
    j.set("submit_time", kNow - 100);
    j.set("eligible_time", kNow - 100);
    j.set("start_time", 0);
    j.set("end_time", 0);
    j.set("time_limit", 600);
    j.set("nodes", Json::array());
    j.set("num_nodes", 1);
    j.set("num_cpus", 1);
    j.set("num_tasks", 1);
    j.set("cpus_per_task", 1);
    j.set("min_memory", 500);
    j.set("mem_per_cpu", true);
    j.set("nice", 0);
    j.set("exit_code", 0);
    j.set("exit_signal", 0);
    j.set("work_dir", "/tmp/refjson");
    j.set("std_out", "");
    j.set("std_err", "");
    j.set("std_in", "/dev/null");
    j.set("command", "(null)");
    j.set("batch_host", "");
    j.set("priority", 4294901752);
    j.set("array_job_id", 0);
    j.set("array_task_str", "");
    j.set("dependency", "");
    j.set("planned_start", 0);
    j.set("restarts", 0);
    j.set("hold", "");
    j.set("constraint", "");
    j.set("time_min", 0);
    j.set("gres", "");
    j.set("gpus", 0);
    j.set("exclusive", false);
    j.set("req_nodes", Json::array());
    j.set("exc_nodes", Json::array());
    j.set("preempt_end", 0);
    j.set("interactive", false);
    j.set("waiting_for", Json::array());
    return j;
}

void allocate(Json &j, std::int64_t start, std::int64_t end = 0)
{
    j.set("start_time", start);
    j.set("end_time", end);
    j.set("nodes", mc::proto::stringList({"node02"}));
    j.set("batch_host", "node02");
}

// Slurm's job 11 (running, default memory per CPU), 13 (pending on afterok:11), 12 (an array
// record 2-4%1 whose task 12_1 runs) and 19 (completed, --mem=1G, a script file).
std::vector<Json> referenceQueue()
{
    Json running = job(11, "run", "RUNNING", "None");
    allocate(running, kNow - 90);
    Json dependent = job(13, "dep", "PENDING", "Dependency");
    dependent.set("dependency", "afterok:11(unfulfilled)");
    Json array = job(12, "arr", "PENDING", "JobArrayTaskLimit");
    array.set("array_job_id", 12);
    array.set("array_task_str", "2-4%1");
    Json task = job(17, "arr", "RUNNING", "None");
    task.set("array_job_id", 12);
    task.set("array_task_id", 1);
    allocate(task, kNow - 90);
    Json done = job(19, "burn", "COMPLETED", "None");
    allocate(done, kNow - 80, kNow - 64);
    done.set("time_limit", 300);
    done.set("min_memory", 1024);
    done.set("mem_per_cpu", false);
    done.set("command", "/tmp/refjson/burn.sh");
    return {running, dependent, array, task, done};
}

Json stepObject(const char *id, const char *name, std::int64_t start, std::int64_t end,
    std::int64_t cpuMs, std::int64_t rssKb)
{
    Json s = Json::object();
    s.set("step", id);
    s.set("step_id", id);
    s.set("name", name);
    s.set("state", "COMPLETED");
    s.set("exit_code", 0);
    s.set("exit_signal", 0);
    s.set("start_time", start);
    s.set("end_time", end);
    s.set("nodes", mc::proto::stringList({"node02"}));
    s.set("num_cpus", 1);
    s.set("total_cpu_ms", cpuMs);
    s.set("max_rss_kb", rssKb);
    s.set("ave_rss_kb", rssKb);
    return s;
}

// The controller of the reference cluster: `ping`, `jobs` (the queue), `acct` (the queue with
// steps: 19 has its batch step and srun step 0), `cluster`.
void serveReference(Harness &h)
{
    h.ctx.now = kNow;
    h.reply = [](const Json &request) -> std::optional<Json> {
        const std::string op = request["op"].toString();
        Json reply = okReply();
        reply.set("now", kNow);
        if (op == "ping") {
            reply.set("cluster_name", "refcluster");
            return reply;
        }
        if (op == "cluster") {
            return clusterReply({{"node01"}, {"node02", "mixed", 3, 1500}, {"node03"},
                {"node04", "drained", 0, 0, "disk replacement"}});
        }
        Json jobs = Json::array();
        for (Json j : referenceQueue()) {
            if (op == "acct") {
                Json steps = Json::array();
                if (j["job_id"].toInt() == 19) {
                    steps.push(stepObject("0", "python3", kNow - 80, kNow - 71, 3150, 208344));
                    steps.push(stepObject("batch", "batch", kNow - 80, kNow - 64, 3720, 106228));
                }
                j.set("steps", std::move(steps));
            }
            jobs.push(std::move(j));
        }
        reply.set("jobs", std::move(jobs));
        return reply;
    };
    h.ctx.readSlurmConf = [] {
        return std::optional<std::string>(kReferenceSlurmConf);
    };
}

template <typename Command>
Result runWith(std::vector<std::string> args, std::string user = "alice")
{
    Harness h(std::move(user));
    serveReference(h);
    return h.run<Command>(std::move(args));
}

} // namespace

class JsonOutputTest : public QObject {
    Q_OBJECT

private slots:
    void writerReproducesSlurmsTextByteForByte();
    void squeueRecordsHaveSlurmsKeysOrderAndTypes();
    void squeueValuesComeFromTheQueue();
    void squeueListsEveryJobWhateverTheFilters();
    void squeueStillRejectsBadOptionsFirst();
    void squeueUnreachableControllerIsAnEntryOfErrors();
    void sinfoNodesHaveSlurmsKeysAndStates();
    void sacctRecordsHaveSlurmsKeysOrderAndTypes();
    void sacctSelectsJobsAndStepsButNotUsers();
    void sacctWithoutMatchSaysNothingFound();
    void scontrolAndSacctmgrDoNotKnowJson();
};

void JsonOutputTest::writerReproducesSlurmsTextByteForByte()
{
    for (const char *name : {"sinfo.json", "squeue.json", "sacct_pending.json", "sacct_steps.json",
             "sacct_nothing.json"}) {
        const std::string text = fixtureText(name);
        QVERIFY2(!text.empty(), name);
        auto parsed = Json::parse(text);
        QVERIFY2(parsed.has_value(), name);
        COMPARE_TEXT(slurmJsonText(*parsed), text);
    }
}

void JsonOutputTest::squeueRecordsHaveSlurmsKeysOrderAndTypes()
{
    const Result r = runWith<mc::cmd::Squeue>({"--json"});
    QCOMPARE(r.exitCode, 0);
    COMPARE_TEXT(r.err, "");
    QVERIFY(r.out.back() == '}'); // no newline at the end, as Slurm prints it
    auto ours = Json::parse(r.out);
    QVERIFY(ours.has_value());
    const Json real = fixture("squeue.json");
    QCOMPARE(shape((*ours)["meta"]), shape(real["meta"]));
    QCOMPARE(QString::fromStdString(slurmJsonText((*ours)["meta"])),
        QString::fromStdString(slurmJsonText(real["meta"])));
    QCOMPARE((*ours)["errors"].size(), std::size_t{0});
    for (const std::int64_t id : {11, 13, 12, 19}) {
        QCOMPARE(shape(record(*ours, "jobs", id)), shape(record(real, "jobs", id)));
    }
}

void JsonOutputTest::squeueValuesComeFromTheQueue()
{
    const Result r = runWith<mc::cmd::Squeue>({"--json"});
    const Json ours = Json::parse(r.out).value_or(Json());
    const Json real = fixture("squeue.json");
    // Keys whose values the reference jobs and these share (ids, times and priorities aside).
    for (const std::int64_t id : {11, 13, 12, 19}) {
        const Json &o = record(ours, "jobs", id);
        const Json &s = record(real, "jobs", id);
        for (const char *key : {"account", "array_job_id", "array_task_id", "array_max_tasks",
                 "array_task_string", "batch_flag", "batch_host", "flags", "cluster", "command",
                 "billable_tres", "cpus_per_task", "dependency", "exit_code", "group_id",
                 "group_name", "job_state", "name", "nodes", "nice", "cpus", "node_count", "tasks",
                 "partition", "memory_per_node", "memory_per_cpu", "minimum_cpus_per_node", "qos",
                 "requeue", "shared", "show_flags", "state_reason", "standard_input",
                 "standard_output", "time_limit", "tres_req_str", "tres_alloc_str", "user_id",
                 "user_name", "current_working_directory"}) {
            QVERIFY2(o[key] == s[key],
                qPrintable(QStringLiteral("job %1 %2: %3 vs Slurm's %4")
                               .arg(id)
                               .arg(key, QString::fromStdString(o[key].dump()),
                                   QString::fromStdString(s[key].dump()))));
        }
    }
    const Json &running = record(ours, "jobs", 11);
    QCOMPARE(running["end_time"].toInt(), kNow - 90 + 600); // start + limit, as Slurm shows it
    QCOMPARE(at(running["job_resources"]["allocated_nodes"], 0)["memory_allocated"].toInt(), 500);
    QCOMPARE(record(ours, "jobs", 13)["eligible_time"].toInt(), 0);
    QCOMPARE(record(ours, "jobs", 17)["array_max_tasks"].toInt(), 1); // from its record's %1
}

void JsonOutputTest::squeueListsEveryJobWhateverTheFilters()
{
    Harness h("bob");
    serveReference(h);
    const Result r = h.run<mc::cmd::Squeue>(
        {"--json", "-u", "bob", "-t", "R", "-j", "999", "-o", "%i", "-S", "bogus"});
    QCOMPARE(r.exitCode, 0);
    const Json ours = Json::parse(r.out).value_or(Json());
    QCOMPARE(ours["jobs"].size(), std::size_t{5});
    for (const auto &request : h.requests) {
        QVERIFY(!request.contains("users") && !request.contains("states")
            && !request.contains("job_ids") && !request.contains("fields"));
    }
}

void JsonOutputTest::squeueStillRejectsBadOptionsFirst()
{
    Result r = runWith<mc::cmd::Squeue>({"--json", "-t", "bogus"});
    QCOMPARE(r.exitCode, 1);
    COMPARE_TEXT(r.out, "");
    QVERIFY(r.err.rfind("squeue: error: Invalid job state specified: bogus\n", 0) == 0);
    r = runWith<mc::cmd::Squeue>({"--json", "--bogus"});
    COMPARE_TEXT(r.err,
        "squeue: unrecognized option '--bogus'\nTry \"squeue --help\" for more information\n");
    r = runWith<mc::cmd::Squeue>({"--yaml"});
    COMPARE_TEXT(r.err, "squeue: error: --yaml is not supported by minicluster\n");
}

void JsonOutputTest::squeueUnreachableControllerIsAnEntryOfErrors()
{
    Harness h;
    const Result r = h.run<mc::cmd::Squeue>({"--json"});
    QCOMPARE(r.exitCode, 0);
    const Json ours = Json::parse(r.out).value_or(Json());
    QCOMPARE(ours["jobs"].size(), std::size_t{0});
    const Json &error = at(ours["errors"], 0);
    COMPARE_TEXT(error["description"].toString(), "Failed while looking for jobs");
    QCOMPARE(error["error_number"].toInt(), 1001);
    COMPARE_TEXT(error["error"].toString(), "Unable to contact slurm controller (connect failure)");
    COMPARE_TEXT(error["source"].toString(), "slurm_load_jobs");
}

void JsonOutputTest::sinfoNodesHaveSlurmsKeysAndStates()
{
    const Result r = runWith<mc::cmd::Sinfo>({"--json", "-p", "cpu", "-t", "idle", "-N"});
    QCOMPARE(r.exitCode, 0);
    const Json ours = Json::parse(r.out).value_or(Json());
    const Json real = fixture("sinfo.json");
    QCOMPARE(shape(ours["meta"]), shape(real["meta"]));
    QCOMPARE(ours["nodes"].size(), std::size_t{4});
    // node01 idle, node02 mixed in both; the reference cluster's nodes say Sockets=1
    // CoresPerSocket=4, the test's slurm.conf only CPUs=4.
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(shape(at(ours["nodes"], i)), shape(at(real["nodes"], i)));
        for (const char *key : {"name", "state", "state_flags", "cpus", "real_memory", "partitions",
                 "alloc_memory", "alloc_cpus", "idle_cpus", "tres_used", "tres_weighted", "reason",
                 "reason_set_by_user", "gres_drained", "slurmd_version", "next_state_after_reboot",
                 "owner"}) {
            QVERIFY2(at(ours["nodes"], i)[key] == at(real["nodes"], i)[key], key);
        }
    }
    COMPARE_TEXT(at(ours["nodes"], 0)["tres"].toString(), "cpu=4,mem=4000M,billing=4");
    const Json &drained = at(ours["nodes"], 3);
    COMPARE_TEXT(drained["state"].toString(), "idle");
    QCOMPARE(drained["state_flags"], mc::proto::stringList({"DRAIN"}));
    COMPARE_TEXT(drained["reason"].toString(), "disk replacement");
    COMPARE_TEXT(drained["reason_set_by_user"].toString(), "root");
    QCOMPARE(drained["reason_changed_at"].toInt(), 1795259331);
}

void JsonOutputTest::sacctRecordsHaveSlurmsKeysOrderAndTypes()
{
    Result r = runWith<mc::cmd::Sacct>({"--json", "-j", "19"});
    QCOMPARE(r.exitCode, 0);
    Json ours = Json::parse(r.out).value_or(Json());
    Json real = fixture("sacct_steps.json");
    QCOMPARE(QString::fromStdString(slurmJsonText(ours["meta"])),
        QString::fromStdString(slurmJsonText(real["meta"])));
    QCOMPARE(shape(ours["jobs"]), shape(real["jobs"]));
    const Json &steps = at(ours["jobs"], 0)["steps"];
    COMPARE_TEXT(at(steps, 0)["step"]["id"].toString(), "batch"); // batch first, as Slurm stores it
    QCOMPARE(at(steps, 1)["step"]["id"].toInt(), 0);
    for (const char *key : {"time", "exit_code", "tasks", "CPU", "state", "task"}) {
        for (std::size_t i = 0; i < 2; ++i) {
            Json o = at(steps, i)[key];
            Json s = at(at(real["jobs"], 0)["steps"], i)[key];
            if (std::string(key) == "time") { // Slurm splits CPU time into user and system
                o = Json(o["elapsed"]); // a copy first: o["elapsed"] lives inside o
                s = Json(s["elapsed"]);
            }
            QVERIFY2(o == s, key);
        }
    }
    QCOMPARE(at(at(steps, 1)["tres"]["requested"]["max"], 1)["count"].toInt(), 208344 * 1024);
    QCOMPARE(at(at(steps, 1)["tres"]["requested"]["max"], 0)["count"].toInt(), 3150);
    QCOMPARE(at(ours["jobs"], 0)["tres"], at(real["jobs"], 0)["tres"]);

    r = runWith<mc::cmd::Sacct>({"--json", "-j", "13"});
    ours = Json::parse(r.out).value_or(Json());
    real = fixture("sacct_pending.json");
    QCOMPARE(shape(ours), shape(real));
    QCOMPARE(at(ours["jobs"], 0)["time"]["eligible"].toInt(-1), 0);
    COMPARE_TEXT(at(ours["jobs"], 0)["nodes"].toString(), "None assigned");
}

void JsonOutputTest::sacctSelectsJobsAndStepsButNotUsers()
{
    // bob, without -a: Slurm 22.05's --json passes no user to its query, so alice's jobs show.
    Result r = runWith<mc::cmd::Sacct>({"--json", "-j", "19.batch", "-u", "bob"}, "bob");
    Json ours = Json::parse(r.out).value_or(Json());
    QCOMPARE(ours["jobs"].size(), std::size_t{1});
    QCOMPARE(at(ours["jobs"], 0)["steps"].size(), std::size_t{1});
    COMPARE_TEXT(at(at(ours["jobs"], 0)["steps"], 0)["step"]["id"].toString(), "batch");
    r = runWith<mc::cmd::Sacct>({"--json", "-X", "-j", "19"});
    ours = Json::parse(r.out).value_or(Json());
    QCOMPARE(at(ours["jobs"], 0)["steps"].size(), std::size_t{0});
    r = runWith<mc::cmd::Sacct>({"--json", "-j", "12"});
    ours = Json::parse(r.out).value_or(Json());
    QCOMPARE(ours["jobs"].size(), std::size_t{2}); // the array record and its task 12_1
    COMPARE_TEXT(at(ours["jobs"], 0)["array"]["task"].toString(), "0x1C");
    QVERIFY(at(ours["jobs"], 0)["time"]["eligible"].isNull()); // waits on its %1, as in Slurm
    QCOMPARE(at(ours["jobs"], 1)["array"]["limits"]["max"]["running"]["tasks"].toInt(), 1);
    r = runWith<mc::cmd::Sacct>({"--json", "-o", "bogus"});
    QCOMPARE(r.exitCode, 1);
    COMPARE_TEXT(r.err, "sacct: error: Invalid field requested: \"bogus\"\n");
}

void JsonOutputTest::sacctWithoutMatchSaysNothingFound()
{
    const Result r = runWith<mc::cmd::Sacct>({"--json", "-j", "99999"});
    QCOMPARE(r.exitCode, 0);
    COMPARE_TEXT(r.err, "");
    COMPARE_TEXT(r.out, fixtureText("sacct_nothing.json"));
}

void JsonOutputTest::scontrolAndSacctmgrDoNotKnowJson()
{
    Result r = runWith<mc::cmd::Scontrol>({"--json", "show", "job"});
    QCOMPARE(r.exitCode, 1);
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err,
        "scontrol: unrecognized option '--json'\nTry \"scontrol --help\" for more information\n");
    r = runWith<mc::cmd::Sacctmgr>({"--json"});
    QCOMPARE(r.exitCode, 1);
    COMPARE_TEXT(r.err,
        "sacctmgr: unrecognized option '--json'\nTry \"sacctmgr --help\" for more information\n");
    r = runWith<mc::cmd::Scontrol>({"--yaml"});
    COMPARE_TEXT(r.err,
        "scontrol: unrecognized option '--yaml'\nTry \"scontrol --help\" for more information\n");
}

QTEST_GUILESS_MAIN(JsonOutputTest)
#include "json_output_test.moc"
