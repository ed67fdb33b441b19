// --json of squeue, sinfo and sacct (issue #6) against real Slurm 22.05.8 output (slurm_json/):
// the writer reproduces Slurm's text byte for byte, and each record minicluster writes has
// exactly the keys of Slurm's record of the same kind, in Slurm's order and with its value
// types; the values come from the controller's replies. scontrol and sacctmgr do not know
// --json in 22.05 and say so as getopt does.

#include "../../../scheduler/commands/src/shared/json_out.h"
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
    void yamlWriterReproducesSlurmsTextByteForByte();
    void yamlWriterQuotesAndFoldsAsLibyaml();
    void yamlIsEachCommandsJsonData();
    void squeueKeepsTheThrottleOnEveryTask();
    void sacctListsTheStepsOfARunningJob();
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
    r = runWith<mc::cmd::Squeue>({"--yaml=x"});
    QCOMPARE(r.exitCode, 1);
    COMPARE_TEXT(r.err,
        "squeue: option '--yaml' doesn't allow an argument\n"
        "Try \"squeue --help\" for more information\n");
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
    // Slurm keeps the %N on the array's own record, not on the tasks split from it.
    QCOMPARE(at(ours["jobs"], 0)["array"]["limits"]["max"]["running"]["tasks"].toInt(), 1);
    QCOMPARE(at(ours["jobs"], 1)["array"]["limits"]["max"]["running"]["tasks"].toInt(), 0);
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

// Slurm's --yaml is its --json data through libyaml: the writer, given the data of each
// recorded --json (fixtures yaml_*.json), prints the --yaml Slurm printed at the same moment.
void JsonOutputTest::yamlWriterReproducesSlurmsTextByteForByte()
{
    using mc::cmd::EmptyStrings;
    const std::pair<const char *, EmptyStrings> cases[]{{"yaml_squeue", EmptyStrings::AreNull},
        {"yaml_sinfo", EmptyStrings::AreNull}, {"yaml_sacct_running", EmptyStrings::Kept},
        {"yaml_sacct_steps", EmptyStrings::Kept}, {"yaml_sacct_array", EmptyStrings::Kept},
        {"yaml_sacct_nothing", EmptyStrings::Kept}};
    for (const auto &[name, empty] : cases) {
        const std::string json = fixtureText((std::string(name) + ".json").c_str());
        const std::string yaml = fixtureText((std::string(name) + ".yaml").c_str());
        QVERIFY2(!json.empty() && !yaml.empty(), name);
        auto parsed = Json::parse(json);
        QVERIFY2(parsed.has_value(), name);
        COMPARE_TEXT(mc::cmd::slurmYamlText(*parsed, empty), yaml);
    }
}

// What libyaml 0.2.5's emitter (Debian 12's, the one Slurm links) prints for these values, each
// tagged as Slurm tags them: quoting, escapes, empty collections, floats, folding past column
// 80 and collections inside sequences.
void JsonOutputTest::yamlWriterQuotesAndFoldsAsLibyaml()
{
    Json doc = Json::object();
    doc.add("plain", "srun --ntasks=2 python3 train.py");
    doc.add("colon", "key: value");
    doc.add("hash", "#1 run");
    doc.add("quote", "it's");
    doc.add("dash", "- x");
    doc.add("tab", "a\tb");
    doc.add("accent", "caf\xc3\xa9");
    doc.add("empty", "");
    doc.add("lines", "one\ntwo");
    doc.add("list", Json::array());
    doc.add("map", Json::object());
    doc.add("none", Json());
    doc.add("yes", true);
    doc.add("float", 1.5);
    doc.add("int", -3);
    doc.add("long",
        "sbatch --wrap 'python3 train.py --epochs 100 --batch-size 64 --learning-rate 0.001 "
        "--data /project/def-prof/data'");
    Json inner = Json::array();
    inner.push(1);
    inner.push(Json::object());
    Json k = Json::object();
    k.add("k", std::move(inner));
    Json nested = Json::array();
    nested.push(mc::proto::stringList({"a"}));
    nested.push(std::move(k));
    doc.add("nested", std::move(nested));
    COMPARE_TEXT(mc::cmd::slurmYamlText(doc, mc::cmd::EmptyStrings::Kept),
        "%YAML 1.1\n--- !!map\n!!str plain: !!str srun --ntasks=2 python3 train.py\n"
        "!!str colon: !!str 'key: value'\n!!str hash: !!str '#1 run'\n!!str quote: !!str it's\n"
        "!!str dash: !!str '- x'\n!!str tab: !!str \"a\\tb\"\n!!str accent: !!str \"caf\\xE9\"\n"
        "!!str empty: !!str\n!!str lines: !!str 'one\n\n  two'\n!!str list: !!seq []\n"
        "!!str map: !!map {}\n!!str none: !!null null\n!!str yes: !!bool true\n"
        "!!str float: !!float 1.500000\n!!str int: !!int -3\n"
        "!!str long: !!str sbatch --wrap 'python3 train.py --epochs 100 --batch-size 64 "
        "--learning-rate\n  0.001 --data /project/def-prof/data'\n"
        "!!str nested: !!seq\n- !!seq\n  - !!str a\n- !!map\n  !!str k: !!seq\n  - !!int 1\n"
        "  - !!map {}\n...\n");
    // squeue's and sinfo's unset strings: "" in JSON, null in YAML.
    COMPARE_TEXT(mc::cmd::slurmYamlText(doc["empty"], mc::cmd::EmptyStrings::AreNull),
        "%YAML 1.1\n--- !!null null\n...\n");
}

// --yaml prints the data --json prints (the last of the two options wins, as in 22.05).
void JsonOutputTest::yamlIsEachCommandsJsonData()
{
    using mc::cmd::EmptyStrings;
    auto yamlOf = [](const Result &json, EmptyStrings empty) {
        return mc::cmd::slurmYamlText(Json::parse(json.out).value_or(Json()), empty);
    };
    Result json = runWith<mc::cmd::Squeue>({"--json"});
    Result yaml = runWith<mc::cmd::Squeue>({"--yaml"});
    QCOMPARE(yaml.exitCode, 0);
    COMPARE_TEXT(yaml.err, "");
    QVERIFY(yaml.out.starts_with("%YAML 1.1\n--- !!map\n!!str meta: !!map\n"));
    QVERIFY(yaml.out.find("\n  !!str comment: !!null null\n") != std::string::npos);
    COMPARE_TEXT(yaml.out, yamlOf(json, EmptyStrings::AreNull));
    COMPARE_TEXT(runWith<mc::cmd::Squeue>({"--json", "--yaml"}).out, yaml.out);
    COMPARE_TEXT(runWith<mc::cmd::Squeue>({"--yaml", "--json"}).out, json.out);

    json = runWith<mc::cmd::Sinfo>({"--json"});
    yaml = runWith<mc::cmd::Sinfo>({"--yaml", "-p", "cpu"});
    QCOMPARE(yaml.exitCode, 0);
    COMPARE_TEXT(yaml.out, yamlOf(json, EmptyStrings::AreNull));
    COMPARE_TEXT(runWith<mc::cmd::Sinfo>({"--yaml", "--json"}).out, json.out);

    json = runWith<mc::cmd::Sacct>({"--json", "-j", "19"});
    yaml = runWith<mc::cmd::Sacct>({"--yaml", "-j", "19"});
    QCOMPARE(yaml.exitCode, 0);
    COMPARE_TEXT(yaml.out, yamlOf(json, EmptyStrings::Kept));
    QVERIFY(yaml.out.find("\n    !!str wckey: !!str\n") != std::string::npos); // "" stays ""
    COMPARE_TEXT(runWith<mc::cmd::Sacct>({"--json", "--yaml", "-j", "19"}).out, yaml.out);
    COMPARE_TEXT(runWith<mc::cmd::Sacct>({"--yaml", "-j", "99999"}).out,
        fixtureText("yaml_sacct_nothing.yaml"));
}

// An array --array=1-4%2 once all its tasks have started (Slurm 22.05.8, array 38 of the
// reference cluster): squeue gives every task the array's %2, sacct only the array's own record
// (the task that took its id).
void JsonOutputTest::squeueKeepsTheThrottleOnEveryTask()
{
    Harness h;
    h.ctx.now = kNow;
    h.reply = [](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        reply.set("now", kNow);
        if (request["op"].toString() == "ping") {
            reply.set("cluster_name", "refcluster");
            return reply;
        }
        Json jobs = Json::array();
        const std::pair<int, int> tasks[]{{39, 1}, {40, 2}, {38, 3}}; // 38: the last task
        for (const auto &[id, task] : tasks) {
            Json j = job(id, "thr2", id == 38 ? "RUNNING" : "COMPLETED", "None");
            allocate(j, kNow - 50, id == 38 ? 0 : kNow - 5);
            j.set("array_job_id", 38);
            j.set("array_task_id", task);
            j.set("array_max_tasks", 2);
            if (request["op"].toString() == "acct") {
                j.set("steps", Json::array());
            }
            jobs.push(std::move(j));
        }
        reply.set("jobs", std::move(jobs));
        return reply;
    };
    Json ours = Json::parse(h.run<mc::cmd::Squeue>({"--json"}).out).value_or(Json());
    QCOMPARE(ours["jobs"].size(), std::size_t{3});
    for (const auto &j : ours["jobs"].items()) {
        QCOMPARE(j["array_max_tasks"].toInt(), 2);
        COMPARE_TEXT(j["array_task_string"].toString(), "");
    }
    ours = Json::parse(h.run<mc::cmd::Sacct>({"--json", "-j", "38"}).out).value_or(Json());
    QCOMPARE(ours["jobs"].size(), std::size_t{3});
    for (const auto &j : ours["jobs"].items()) {
        QCOMPARE(j["array"]["limits"]["max"]["running"]["tasks"].toInt(),
            j["job_id"].toInt() == 38 ? 2 : 0);
    }
}

// A running batch job with an srun step (Slurm 22.05.8's job 27: `srun sleep 50 & sleep 60`,
// four seconds in): the controller lists its batch step and step 0 RUNNING, and sacct prints
// them as Slurm does, in its table and in --json.
void JsonOutputTest::sacctListsTheStepsOfARunningJob()
{
    const Json real = fixture("yaml_sacct_running.json");
    const Json &realJob = at(real["jobs"], 0);
    const std::int64_t start = realJob["time"]["start"].toInt();
    Harness h;
    h.ctx.now = start + 4;
    h.reply = [&](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        reply.set("now", start + 4);
        if (request["op"].toString() == "ping") {
            reply.set("cluster_name", "refcluster");
            return reply;
        }
        Json j = job(27, "steps", "RUNNING", "None");
        j.set("submit_time", start - 1);
        j.set("eligible_time", start - 1);
        j.set("time_limit", 300);
        allocate(j, start);
        j.set("nodes", mc::proto::stringList({"node01"}));
        j.set("batch_host", "node01");
        Json batch = stepObject("batch", "batch", start, 0, 0, 0);
        batch.set("state", "RUNNING");
        batch.set("nodes", mc::proto::stringList({"node01"}));
        batch.set("ntasks", 1);
        Json srun = stepObject("0", "sleep", start, 0, 0, 0);
        srun.set("state", "RUNNING");
        srun.set("nodes", mc::proto::stringList({"node01"}));
        srun.set("ntasks", 1);
        Json steps = Json::array();
        steps.push(std::move(batch));
        steps.push(std::move(srun));
        j.set("steps", std::move(steps));
        if (request.contains("fields")) { // sacct's table asks for rows of the named members
            const auto fields = request["fields"].toStringList();
            Json row = Json::array();
            for (const auto &field : fields) {
                row.push(j[field]);
            }
            Json rows = Json::array();
            rows.push(std::move(row));
            reply.set("columns", request["fields"]);
            reply.set("rows", std::move(rows));
            return reply;
        }
        Json jobs = Json::array();
        jobs.push(std::move(j));
        reply.set("jobs", std::move(jobs));
        return reply;
    };
    Result r = h.run<mc::cmd::Sacct>({"-j", "27"});
    QCOMPARE(r.exitCode, 0);
    COMPARE_TEXT(r.out,
        "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n"
        "------------ ---------- ---------- ---------- ---------- ---------- -------- \n"
        "27                steps      debug   students          1    RUNNING      0:0 \n"
        "27.batch          batch              students          1    RUNNING      0:0 \n"
        "27.0              sleep              students          1    RUNNING      0:0 \n");
    r = h.run<mc::cmd::Sacct>({"-j", "27", "-o", "JobID,State,Elapsed,NodeList"});
    COMPARE_TEXT(r.out,
        "JobID             State    Elapsed        NodeList \n"
        "------------ ---------- ---------- --------------- \n"
        "27              RUNNING   00:00:04          node01 \n"
        "27.batch        RUNNING   00:00:04          node01 \n"
        "27.0            RUNNING   00:00:04          node01 \n");
    // No usage until a step ends (Slurm records it then): MaxRSS and AveRSS stay blank.
    r = h.run<mc::cmd::Sacct>({"-j", "27", "-o", "JobID,TotalCPU,MaxRSS,AveRSS,NTasks"});
    COMPARE_TEXT(r.out,
        "JobID          TotalCPU     MaxRSS     AveRSS   NTasks \n"
        "------------ ---------- ---------- ---------- -------- \n"
        "27             00:00:00                                \n"
        "27.batch       00:00:00                              1 \n"
        "27.0           00:00:00                              1 \n");
    r = h.run<mc::cmd::Sacct>({"--json", "-j", "27"});
    const Json ours = Json::parse(r.out).value_or(Json());
    const Json &steps = at(ours["jobs"], 0)["steps"];
    QCOMPARE(shape(steps), shape(realJob["steps"]));
    for (std::size_t i = 0; i < 2; ++i) {
        for (const char *key : {"nodes", "time", "exit_code", "tasks", "CPU", "state", "step",
                 "task", "statistics", "pid"}) {
            const Json &o = at(steps, i)[key];
            const Json &s = at(realJob["steps"], i)[key];
            QVERIFY2(o == s,
                qPrintable(QStringLiteral("step %1 %2: %3 vs Slurm's %4")
                               .arg(i)
                               .arg(key, QString::fromStdString(o.dump()),
                                   QString::fromStdString(s.dump()))));
        }
        const Json &tres = at(steps, i)["tres"];
        QCOMPARE(tres["requested"], at(realJob["steps"], i)["tres"]["requested"]);
        QCOMPARE(tres["consumed"], at(realJob["steps"], i)["tres"]["consumed"]);
    }
}

QTEST_GUILESS_MAIN(JsonOutputTest)
#include "json_output_test.moc"
