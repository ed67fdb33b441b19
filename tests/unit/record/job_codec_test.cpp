// The job codec carries every field of the protocol contract: the submit spec both ways, the
// stored record both ways (scheduler state included), the launch order both ways, and the
// public job object. Every field of every struct is filled with a value of its own and must
// come back; a field added to a struct and not to its codec fails here.
#include "mc/record/job_codec.h"
#include "mc/record/job_object.h"
#include "mc/record/launch_order.h"
#include "mc/record/plan_entry.h"
#include "mc/record/step.h"

#include <QtTest>

#include <algorithm>
#include <set>

// A field added to one of the structs changes its size: then fill it in the test of its codec
// below (fullSpec(), fullJob(), ...), write it in the codec (for JobSpec, kSpecKeys too; for a
// member of the public object, JobObject and jobObjectFromJson() too), and write the new size
// here. Sizes are those of x86-64 libstdc++, where CI builds.
#if defined(__x86_64__) && defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)
static_assert(sizeof(mc::sched::JobSpec) == 936, "a JobSpec field is new: see above");
static_assert(sizeof(mc::sched::Job) == 1280, "a Job field is new: see above");
static_assert(sizeof(mc::record::LaunchOrder) == 1392, "a LaunchOrder field is new: see above");
static_assert(sizeof(mc::record::StepSpec) == 152, "a StepSpec field is new: see above");
static_assert(sizeof(mc::record::StepRecord) == 168, "a StepRecord field is new: see above");
static_assert(sizeof(mc::record::JobObject) == 1568, "a JobObject field is new: see above");
static_assert(sizeof(mc::record::StepObject) == 400, "a StepObject field is new: see above");
static_assert(sizeof(mc::record::PlanEntry) == 40, "a PlanEntry field is new: see above");
#endif

using namespace mc;
using proto::Json;

class JobCodecTest : public QObject {
    Q_OBJECT

private slots:
    void everySpecFieldRoundTrips();
    void everySpecKeyIsInTheKeyTable();
    void everyJobFieldRoundTripsThroughTheRecord();
    void everyLaunchOrderFieldRoundTrips();
    void everyStepSpecFieldRoundTrips();
    void everyStepRecordFieldRoundTrips();
    void everyStepGrantFieldRoundTrips();
    void interactiveStepIdPrintsAsSlurmNamesIt();
    void schedulerSpecFieldsRoundTrip();
    void recordKeepsSchedulerState();
    void publicObjectShowsArrayHoldAndPlannedStart();
    void publicObjectFollowsTheKeyTableAndProjects();
    void commentIsAbsentUntilSetAndSurvivesTheStore();
    void everyPublicMemberIsDecoded();
    void absentMembersStayAbsentWhenDecoded();
    void everyStepMemberIsDecoded();
    void everyPlanEntryFieldRoundTrips();
    void everyMemberHasItsOwnKey();
    void rowsDecodeAsTheObject();
    void rowsOfSomeColumnsLeaveTheOtherMembersAbsent();
    void aReusedObjectTakesEachRowsValues();
};

namespace {

// A spec whose every field differs from its default (and from the others').
sched::JobSpec fullSpec()
{
    sched::JobSpec s;
    s.name = "name1";
    s.user = "user2";
    s.uid = 1003;
    s.gid = 1004;
    s.account = "account5";
    s.partition = "partition6";
    s.qos = "qos7";
    s.workDir = "/work8";
    s.script = "#!/bin/sh\necho 9\n";
    s.command = "/work8/job10.sh";
    s.argv = {"arg11", "arg12"};
    s.env = {"A=13", "B=14"};
    s.stdOut = "out15";
    s.stdErr = "err16";
    s.stdIn = "in17";
    s.timeLimit = 18;
    s.nodes = 19;
    s.ntasks = 20;
    s.ntasksGiven = true;
    s.cpusPerTask = 21;
    s.cpusPerTaskGiven = true;
    s.memPerNode = 22;
    s.memPerCpu = 23;
    s.submitHost = "host24";
    s.openAppend = true;
    s.signal = "B:10@25";
    s.requeue = false;
    s.hold = true;
    s.nice = 26;
    s.ntasksPerNode = 27;
    s.gpusPerNode = 28;
    s.gpuType = "type29";
    s.gpusPerNodeGiven = true;
    s.gpusPerJob = 30;
    s.gpusPerTask = 31;
    s.cpusPerGpu = 32;
    s.memPerGpu = 33;
    s.exclusive = true;
    s.nodeList = {"cn34", "cn35"};
    s.excludeNodes = {"cn36"};
    s.constraint = "feature37";
    s.timeMin = 38;
    s.begin = 39;
    s.dependency = "afterok:40";
    s.array = "1-41";
    s.interactive = true;
    s.comment = "comment42";
    s.testOnly = true;
    s.mailType = "BEGIN,END";
    s.mailUser = "mail43@example.org";
    return s;
}

// A job whose every field differs from its default, consistent as a record keeps it (a
// running job: the allocation is read back only with nodes).
sched::Job fullJob()
{
    sched::Job job;
    job.id = sched::JobId{101};
    job.spec = fullSpec();
    job.spec.testOnly = false; // never stored
    job.state = sched::JobState::Running;
    job.reason = sched::Reason::Priority;
    job.submitTime = 102;
    job.eligibleTime = 103;
    job.startTime = 104;
    job.endTime = 105;
    job.timeLimit = 106;
    job.memPerNode = 107;
    job.nodeList = {"cn108", "cn109"};
    job.allocCpus = 110;
    job.nodeCpus = {70, 40};
    job.gpusPerNode = 111;
    job.gpuIds = {{1, 2}, {3}};
    job.gpuAllocType = "type112";
    job.exit = sched::ExitStatus{113, 114};
    job.batchHost = "cn108";
    job.cancelledBy = 115;
    job.heldByAdmin = true;
    job.priority = 116;
    job.arrayJobId = 117;
    job.arrayTaskId = 118;
    job.arrayPending = {119, 120};
    job.arrayMaxRunning = 121;
    job.restarts = 122;
    job.plannedStart = 123;
    job.preemptEnd = 124;
    job.suspendTime = 125;
    job.suspendedSecs = 126;
    return job;
}

// The first member of `full` that `decode` does not read (its object is the same without it);
// "" when it reads them all.
template <typename Decode> std::string undecodedMember(const Json &full, Decode decode)
{
    const auto all = decode(full);
    for (const auto &[key, value] : full.members()) {
        Json less = Json::object();
        for (const auto &[other, kept] : full.members()) {
            if (other != key) {
                less.add(other, kept);
            }
        }
        if (decode(less) == all) {
            return key;
        }
    }
    return {};
}

} // namespace

void JobCodecTest::everySpecFieldRoundTrips()
{
    const sched::JobSpec spec = fullSpec();
    QVERIFY(!(spec == sched::JobSpec{}));
    const sched::JobSpec back
        = record::specFromJson(Json::parse(record::specToJson(spec).dump()).value());
    QVERIFY(back == spec);
    // And the defaults: what a client leaves out is read as the struct's default.
    QVERIFY(record::specFromJson(record::specToJson(sched::JobSpec{})) == sched::JobSpec{});
    QVERIFY(record::specFromJson(Json::object()) == sched::JobSpec{});
}

void JobCodecTest::everySpecKeyIsInTheKeyTable()
{
    const Json json = record::specToJson(fullSpec());
    std::set<std::string> written;
    for (const auto &[key, value] : json.members()) {
        written.insert(key);
    }
    std::set<std::string> listed;
    for (const auto &[key, kind] : record::kSpecKeys) {
        listed.insert(std::string(key));
    }
    QCOMPARE(listed.size(), record::kSpecKeys.size()); // no key twice
    QCOMPARE(written, listed);
    const Json request = record::submitRequest(fullSpec());
    QCOMPARE(request["op"].toString(), std::string("submit"));
    QVERIFY(record::specFromJson(request["job"]) == fullSpec());
}

void JobCodecTest::everyJobFieldRoundTripsThroughTheRecord()
{
    const sched::Job job = fullJob();
    const auto back = record::jobFromRecord(Json::parse(record::jobToRecord(job).dump()).value());
    QVERIFY(back);
    QVERIFY(back->spec == job.spec);
    QVERIFY(*back == job);
}

void JobCodecTest::everyLaunchOrderFieldRoundTrips()
{
    record::LaunchOrder order;
    order.job = fullJob();
    order.clusterName = "cluster201";
    order.cpusOnNode = 202;
    order.nodeList = "cn[108-109]";
    order.gpuType = "a100";
    const auto back
        = record::launchFromJson(Json::parse(record::launchToJson(order).dump()).value());
    QVERIFY(back);
    QVERIFY(back->job == order.job);
    QCOMPARE(back->clusterName, order.clusterName);
    QCOMPARE(back->cpusOnNode, order.cpusOnNode);
    QCOMPARE(back->nodeList, order.nodeList);
    QCOMPARE(back->gpuType, order.gpuType);
    order.gpuType.reset(); // a node without GPUs
    QVERIFY(!record::launchFromJson(record::launchToJson(order))->gpuType);
    QVERIFY(!record::launchFromJson(Json::object())); // not a job record
}

void JobCodecTest::everyStepSpecFieldRoundTrips()
{
    record::StepSpec spec;
    spec.job = sched::JobId{301};
    spec.user = "user302";
    spec.ntasks = 303;
    spec.nodes = 304;
    spec.ntasksPerNode = 305;
    spec.nodeList = {"cn306"};
    spec.excludeNodes = {"cn307", "cn308"};
    spec.cpusPerTask = 309;
    spec.exact = true;
    spec.name = "step310";
    spec.pty = true;
    spec.interactive = true;
    const Json request = record::stepCreateRequest(spec);
    QCOMPARE(request["op"].toString(), std::string("step_create"));
    QVERIFY(record::stepSpecFromJson(Json::parse(request.dump()).value()) == spec);
    QVERIFY(record::stepSpecFromJson(record::stepCreateRequest({})) == record::StepSpec{});
}

void JobCodecTest::interactiveStepIdPrintsAsSlurmNamesIt()
{
    // SLURM_STEP_ID=4294967290 in the shell, -6 in a signed column: "interactive" either way.
    QCOMPARE(record::stepIdText(4294967290), std::string("interactive"));
    QCOMPARE(record::stepIdText(-6), std::string("interactive"));
    QCOMPARE(record::stepIdText(0), std::string("0"));
    QCOMPARE(record::stepIdText(12), std::string("12"));
    QCOMPARE(record::stepIdFromText("4294967290"), std::string("interactive"));
    QCOMPARE(record::stepIdFromText("interactive"), std::string("interactive"));
    QCOMPARE(record::stepIdFromText("batch"), std::string("batch"));
    QCOMPARE(record::stepIdFromText("3"), std::string("3"));
}

void JobCodecTest::everyStepRecordFieldRoundTrips()
{
    record::StepRecord step;
    step.job = sched::JobId{401};
    step.step = "2";
    step.state = sched::JobState::Failed;
    step.exit = sched::ExitStatus{402, 403};
    step.startTime = 404;
    step.endTime = 405;
    step.nodes = {"cn406", "cn407"};
    step.cpus = 408;
    step.totalCpuMs = 409;
    step.maxRssKb = 410;
    step.aveRssKb = 411;
    step.name = "step412";
    step.ntasks = 413;
    const Json json = Json::parse(record::stepRecordToJson(step).dump()).value();
    QVERIFY(record::stepRecordFromJson(json, step.job) == step);
    // An unnamed batch step is shown under its own name, and read back unnamed.
    record::StepRecord batch;
    batch.step = "batch";
    const Json shown = record::stepRecordToJson(batch);
    QCOMPARE(shown["name"].toString(), std::string("batch"));
    QVERIFY(record::stepRecordFromJson(shown, batch.job) == batch);
}

// srun's step as the controller grants it, both ways; the lists derived for readers that do not
// decode the job (`node_list`, `cpus_on_node`) are written beside it.
void JobCodecTest::everyStepGrantFieldRoundTrips()
{
    record::StepGrant grant;
    grant.stepId = record::kInteractiveStep;
    grant.nodes = {"cn501", "cn502"};
    grant.tasksPerNode = {3, 1};
    grant.ntasks = 4;
    grant.job = fullJob();
    grant.clusterName = "cluster503";
    const Json json = Json::parse(record::stepGrantToJson(grant).dump()).value();
    QVERIFY(record::stepGrantFromJson(json) == grant);
    QCOMPARE(json["node_list"].toString(), std::string("cn[501-502]"));
    QCOMPARE(json["job"]["cpus_on_node"].toInt(), grant.job->cpusOnNode(0));
    // Without a job (a reply of an older controller), nothing is made up.
    record::StepGrant bare;
    bare.stepId = 7;
    QVERIFY(record::stepGrantFromJson(record::stepGrantToJson(bare)) == bare);
    QVERIFY(!record::stepGrantFromJson(Json::object()).job);
}

void JobCodecTest::schedulerSpecFieldsRoundTrip()
{
    sched::JobSpec spec;
    spec.user = "alice";
    spec.ntasksPerNode = 2;
    spec.gpusPerNode = 1;
    spec.exclusive = true;
    spec.nodeList = {"cn01", "cn02"};
    spec.excludeNodes = {"cn03"};
    spec.constraint = "avx2&ib";
    spec.timeMin = 600;
    spec.begin = 1700000000;
    spec.dependency = "afterok:12:13?singleton";
    spec.array = "1-100%5";
    spec.interactive = true;
    const sched::JobSpec back
        = record::specFromJson(Json::parse(record::specToJson(spec).dump()).value());
    QCOMPARE(back.ntasksPerNode, 2);
    QCOMPARE(back.gpusPerNode, 1);
    QVERIFY(back.exclusive);
    QCOMPARE(back.nodeList, spec.nodeList);
    QCOMPARE(back.excludeNodes, spec.excludeNodes);
    QCOMPARE(back.constraint, spec.constraint);
    QCOMPARE(back.timeMin, spec.timeMin);
    QCOMPARE(back.begin, spec.begin);
    QCOMPARE(back.dependency, spec.dependency);
    QCOMPARE(back.array, spec.array);
    QVERIFY(back.interactive);
    // Absent fields mean "not given".
    const sched::JobSpec empty = record::specFromJson(Json::object());
    QCOMPARE(empty.ntasksPerNode, 0);
    QVERIFY(!empty.timeMin && !empty.begin && !empty.exclusive && !empty.interactive);
}

void JobCodecTest::recordKeepsSchedulerState()
{
    sched::Job job;
    job.id = sched::JobId{7};
    job.spec.user = "alice";
    job.state = sched::JobState::Pending;
    job.reason = sched::Reason::JobHeldAdmin;
    job.heldByAdmin = true;
    job.priority = 4242;
    job.arrayJobId = 7;
    job.arrayPending = {3, 4, 9};
    job.arrayMaxRunning = 2;
    job.restarts = 3;
    job.plannedStart = 5000;
    const auto back = record::jobFromRecord(Json::parse(record::jobToRecord(job).dump()).value());
    QVERIFY(back);
    QVERIFY(back->heldByAdmin);
    QCOMPARE(back->priority, 4242);
    QCOMPARE(back->arrayJobId, 7u);
    QVERIFY(!back->arrayTaskId);
    QCOMPARE(back->arrayPending, (std::vector<std::uint32_t>{3, 4, 9}));
    QCOMPARE(back->arrayMaxRunning, 2);
    QCOMPARE(back->restarts, 3);
    QCOMPARE(back->plannedStart, std::optional<sched::Seconds>(5000));
    QVERIFY(!back->preemptEnd);

    sched::Job task = job;
    task.arrayPending.clear();
    task.arrayTaskId = 4;
    task.state = sched::JobState::Running;
    task.preemptEnd = 6000;
    const auto taskBack = record::jobFromRecord(record::jobToRecord(task));
    QCOMPARE(taskBack->arrayTaskId, std::optional<std::uint32_t>(4));
    QCOMPARE(taskBack->preemptEnd, std::optional<sched::Seconds>(6000));
}

void JobCodecTest::publicObjectShowsArrayHoldAndPlannedStart()
{
    sched::Job job;
    job.id = sched::JobId{43};
    job.spec.user = "alice";
    job.spec.hold = true;
    job.spec.gpusPerNode = 2;
    job.spec.dependency = "afterok:12";
    job.arrayJobId = 43;
    job.arrayPending = {3, 4, 5, 6, 7, 8, 9, 10};
    job.arrayMaxRunning = 4;
    job.plannedStart = 1234;
    Json j = record::jobToJson(job);
    QCOMPARE(j["array_job_id"].toInt(), 43);
    QVERIFY(!j.contains("array_task_id"));
    QCOMPARE(j["array_task_str"].toString(), std::string("3-10%4")); // squeue %K
    QCOMPARE(j["hold"].toString(), std::string("user"));
    QCOMPARE(j["gres"].toString(), std::string("gpu:2"));
    QCOMPARE(j["gpus"].toInt(), 0); // none allocated while pending
    QCOMPARE(j["planned_start"].toInt(), 1234);
    QCOMPARE(j["dependency"].toString(), std::string("afterok:12"));
    job.heldByAdmin = true;
    QCOMPARE(record::jobToJson(job)["hold"].toString(), std::string("admin"));
}

void JobCodecTest::publicObjectFollowsTheKeyTableAndProjects()
{
    sched::Job job;
    job.id = sched::JobId{44};
    job.spec.user = "bob";
    job.arrayJobId = 43;
    job.arrayTaskId = 2;
    job.spec.comment = ""; // set (even empty): the member is there
    job.nodeList = {"cn01", "cn02"};
    job.nodeCpus = {4, 2}; // an uneven layout: node_cpus is there
    job.spec.mailType = "END"; // --mail-type: mail_type and mail_user (the submitter's) are there
    job.suspendTime = 45; // suspended once: suspend_time and suspended are there
    Json j = record::jobToJson(job);
    std::vector<std::string> keys;
    for (const auto &[key, value] : j.members()) {
        keys.push_back(key);
    }
    std::vector<std::string> expected(record::kJobKeys.begin(), record::kJobKeys.end());
    for (const char *held : {"gpu_ids", "gpu_alloc_type"}) { // only while GPUs are held
        expected.erase(std::find(expected.begin(), expected.end(), held));
    }
    QCOMPARE(keys, expected);
    QCOMPARE(j["mail_user"].toString(), std::string("bob"));

    Json some
        = record::jobToJson(job, record::JobKeys::of({"user", "array_task_id", "job_id", "x"}));
    QCOMPARE(some.size(), 3u); // in the table's order, unknown names ignored
    QCOMPARE(some.members().at(0).first, std::string("job_id"));
    QCOMPARE(some["user"].toString(), std::string("bob"));
    QCOMPARE(some["array_task_id"].toInt(), 2);
    job.arrayTaskId.reset();
    QCOMPARE(record::jobToJson(job, record::JobKeys::of({"array_task_id"})).size(), 0u);
}

void JobCodecTest::commentIsAbsentUntilSetAndSurvivesTheStore()
{
    sched::Job job;
    job.id = sched::JobId{45};
    job.spec.user = "alice";
    QVERIFY(!record::jobToJson(job).contains("comment")); // Slurm's (null)
    QVERIFY(!record::specToJson(job.spec).contains("comment"));
    QVERIFY(!record::specFromJson(record::specToJson(job.spec)).comment.has_value());

    job.spec.comment = "memory overrun: 2.1G used";
    QCOMPARE(
        record::jobToJson(job)["comment"].toString(), std::string("memory overrun: 2.1G used"));
    auto back = record::jobFromRecord(record::jobToRecord(job));
    QVERIFY(back.has_value());
    QCOMPARE(back->spec.comment.value_or("?"), std::string("memory overrun: 2.1G used"));

    job.spec.comment = ""; // scontrol update comment= : set, empty
    back = record::jobFromRecord(record::jobToRecord(job));
    QVERIFY(back->spec.comment.has_value());
    QCOMPARE(*back->spec.comment, std::string());

    // The rows form writes the same member; an unset comment is a null cell.
    record::JobRowWriter rows({"job_id", "comment"});
    std::string text;
    rows.encode(job);
    rows.appendRow(text);
    job.spec.comment.reset();
    rows.encode(job);
    rows.appendRow(text);
    QCOMPARE(text, std::string(R"([45,""][45,null])"));
}

// Every member of the public object, and of what the commands and the app read beside it, reaches a
// JobObject member of its own: taking any one away changes what is decoded.
namespace {

// A public job object with every member the decoders read, each with a value of its own.
Json fullPublicObject()
{
    Json full = record::jobToJson(fullJob());
    full.set("dependency", "afterok:130(unfulfilled)"); // as the controller words a wait
    Json waits = Json::array();
    waits.push(std::int64_t{131});
    full.set("waiting_for", std::move(waits));
    full.set("submit_host", "login132");
    full.set("submit_sid", 133);
    full.set("last_sched_eval", 134);
    full.set("group", "group135");
    record::StepRecord step;
    step.job = sched::JobId{101};
    step.step = "batch";
    step.totalCpuMs = 136;
    Json steps = Json::array();
    steps.push(record::stepRecordToJson(step));
    full.set("steps", std::move(steps));
    full.set("cancelled_by", 137);
    full.set("now", 138);
    Json explanation = Json::object();
    explanation.set("en", "words139");
    explanation.set("fr", "mots140");
    full.set("explanation", std::move(explanation));
    full.set("backfilled", true);
    return Json::parse(full.dump()).value();
}

// `objects` as a `form: "rows"` reply of `columns` (absent members null), read as a table.
proto::RowTable rowsReply(const std::vector<Json> &objects, const std::vector<std::string> &columns)
{
    Json rows = Json::array();
    for (const Json &object : objects) {
        Json row = Json::array();
        for (const auto &column : columns) {
            row.push(object[column]);
        }
        rows.push(std::move(row));
    }
    Json reply = Json::object();
    reply.set("ok", true);
    reply.set("columns", proto::stringList(columns));
    reply.set("rows", std::move(rows));
    return proto::RowTable::parse(reply.dump()).value();
}

std::vector<std::string> everyMemberKey()
{
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < record::kJobMemberCount; ++i) {
        keys.emplace_back(record::jobMemberKey(static_cast<record::JobMember>(i)));
    }
    return keys;
}

} // namespace

void JobCodecTest::everyPublicMemberIsDecoded()
{
    const Json full = fullPublicObject();
    const record::JobObject o = record::jobObjectFromJson(full);
    QCOMPARE(o.jobId, 101);
    QCOMPARE(o.name, std::string("name1"));
    QCOMPARE(o.gid.value_or(0), 1004);
    QCOMPARE(o.state, std::string("RUNNING"));
    QCOMPARE(o.stateShort, std::string("R"));
    QCOMPARE(o.timeLimit.value_or(0), 106);
    QCOMPARE(o.nodes, std::vector<std::string>({"cn108", "cn109"}));
    QCOMPARE(o.numCpus.value_or(0), 110);
    QCOMPARE(o.minMemory, 23); // per CPU
    QVERIFY(o.memPerCpu);
    QCOMPARE(o.exitCode, 113);
    QCOMPARE(o.arrayTaskId.value_or(0), 118);
    QCOMPARE(o.arrayTaskStr, std::string("119-120%121"));
    QCOMPARE(o.hold, std::string("admin"));
    QCOMPARE(o.gpuIds, std::vector<std::vector<int>>({{1, 2}, {3}}));
    QCOMPARE(o.gres, std::string("gpu:type29:28"));
    QCOMPARE(o.tresPerJob, std::string("gres:gpu:type29:30"));
    QCOMPARE(o.dependency, std::string("afterok:130(unfulfilled)"));
    QCOMPARE(o.waitingFor, std::vector<std::int64_t>({131}));
    QCOMPARE(o.comment.value_or("?"), std::string("comment42"));
    QCOMPARE(o.nodeCpus, std::vector<int>({70, 40}));
    QCOMPARE(o.mailUser, std::string("mail43@example.org"));
    QCOMPARE(o.submitHost.value_or("?"), std::string("login132"));
    QCOMPARE(o.steps.size(), 1u);
    QCOMPARE(o.steps.front().stepId, std::string("batch"));
    QCOMPARE(o.steps.front().totalCpuMs, 136);
    QCOMPARE(o.cancelledBy.value_or(0), 137);
    QCOMPARE(o.now, 138);
    QCOMPARE(o.explanation.size(), 2u);
    QCOMPARE(o.explanation.at("fr"), std::string("mots140"));
    QCOMPARE(o.backfilled, std::optional<bool>(true));

    QVERIFY(full.size() >= record::kJobKeys.size());
    QCOMPARE(undecodedMember(full, record::jobObjectFromJson), std::string());
}

// An absent member is not a zero: the optional members stay empty, so that each command keeps
// the fallback it prints (scontrol's NumCPUs=1, squeue's TIME_LIMIT UNLIMITED).
void JobCodecTest::absentMembersStayAbsentWhenDecoded()
{
    QVERIFY(record::jobObjectFromJson(Json::object()) == record::JobObject{});
    const record::JobObject o = record::jobObjectFromJson(Json::object());
    QVERIFY(!o.timeLimit && !o.numCpus && !o.arrayTaskId && !o.comment && !o.qos);
    Json pending = Json::object();
    pending.set("array_task_id", nullptr);
    pending.set("time_limit", "soon"); // not a number: as absent, as proto::Json reads it
    pending.set("comment", "");
    const record::JobObject p = record::jobObjectFromJson(pending);
    QVERIFY(!p.arrayTaskId && !p.timeLimit);
    QCOMPARE(p.comment.value_or("?"), std::string()); // set, empty
}

// A step as the controller lists a running one (and what scontrol show step reads beside) or
// as an acct job's steps carry it: every member reaches a StepObject member of its own.
void JobCodecTest::everyStepMemberIsDecoded()
{
    Json full = Json::object();
    full.set("job_id", 201);
    full.set("step_id", "0");
    full.set("name", "hostname");
    full.set("state", "RUNNING");
    full.set("start_time", 202);
    full.set("end_time", 211);
    full.set("exit_code", 212);
    full.set("exit_signal", 213);
    full.set("nodes", proto::stringList({"cn01", "cn02"}));
    full.set("ntasks", 203);
    full.set("num_cpus", 204);
    full.set("total_cpu_ms", 205);
    full.set("max_rss_kb", 206);
    full.set("ave_rss_kb", 207);
    full.set("uid", 208);
    full.set("partition", "cpu");
    full.set("time_limit", 209);
    full.set("tres", "cpu=2");
    full.set("srun_host", "login1");
    full.set("srun_pid", 210);
    full.set("user", "alice");

    const record::StepObject o = record::stepObjectFromJson(full);
    QCOMPARE(o.jobId, 201);
    QCOMPARE(o.stepId, std::string("0"));
    QCOMPARE(o.nodes, std::vector<std::string>({"cn01", "cn02"}));
    QCOMPARE(o.ntasks.value_or(0), 203);
    QCOMPARE(o.totalCpuMs, 205);
    QCOMPARE(o.aveRssKb, 207);
    QCOMPARE(o.srunHost.value_or("?"), std::string("login1"));
    QCOMPARE(o.user, std::string("alice"));
    QCOMPARE(undecodedMember(full, record::stepObjectFromJson), std::string());
    const record::StepObject none = record::stepObjectFromJson(Json::object());
    QVERIFY(!none.name && !none.state && !none.ntasks && !none.numCpus && !none.timeLimit
        && !none.srunHost);
    // The controller's encoder gives back every member, and nothing for an empty object.
    QVERIFY(
        record::stepObjectFromJson(Json::parse(record::stepObjectToJson(o).dump()).value()) == o);
    QVERIFY(record::stepObjectFromJson(record::stepObjectToJson(none)) == none);
    // An acct step of an older store names itself `step`, a number as a number.
    Json older = Json::object();
    older.set("step", 3);
    QCOMPARE(record::stepObjectFromJson(older).stepId, std::string("3"));
}

// An entry of the plan event, both ways; its nodes may also come as a hostlist.
void JobCodecTest::everyPlanEntryFieldRoundTrips()
{
    const record::PlanEntry entry{301, 302, {"cn03", "cn04"}};
    const Json text = Json::parse(record::planEntryToJson(entry).dump()).value();
    QVERIFY(record::planEntryFromJson(text) == entry);
    QCOMPARE(undecodedMember(text, record::planEntryFromJson), std::string());
    Json hostlist = text;
    hostlist.set("nodes", "cn[03-04]");
    QVERIFY(record::planEntryFromJson(hostlist) == entry);
    QVERIFY(record::planEntryFromJson(Json::object()) == record::PlanEntry{});
}

// The keys of JobMember are the public object's (kJobKeys first, in its order), each once:
// every key of a full object names a member.
void JobCodecTest::everyMemberHasItsOwnKey()
{
    const std::vector<std::string> keys = everyMemberKey();
    QCOMPARE(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size());
    for (std::size_t i = 0; i < record::kJobKeys.size(); ++i) {
        QCOMPARE(keys[i], std::string(record::kJobKeys[i]));
    }
    const Json full = fullPublicObject();
    for (const auto &[key, value] : full.members()) {
        QVERIFY2(std::find(keys.begin(), keys.end(), key) != keys.end(), key.c_str());
    }
}

// A row of every member decodes as the object does, and so does the object itself in a
// `jobs` array (a controller that sends whole objects).
void JobCodecTest::rowsDecodeAsTheObject()
{
    const Json full = fullPublicObject();
    const record::JobObject expected = record::jobObjectFromJson(full);
    const proto::RowTable table = rowsReply({full}, everyMemberKey());
    const record::JobRowReader reader(table);
    record::JobObject o;
    reader.read(0, o);
    QVERIFY(o == expected);
    QVERIFY(reader.has(record::JobMember::Steps) && reader.has(record::JobMember::JobId));

    Json reply = Json::object();
    Json jobs = Json::array();
    jobs.push(full);
    reply.set("jobs", std::move(jobs));
    const proto::RowTable objects = proto::RowTable::parse(reply.dump()).value();
    record::JobObject fromObjects;
    record::JobRowReader(objects).read(0, fromObjects);
    QVERIFY(fromObjects == expected);
}

// A reply of a few members (a request's `fields`): those are read, the others stay absent, and
// a column that is no member (a key this reader does not know) is left alone.
void JobCodecTest::rowsOfSomeColumnsLeaveTheOtherMembersAbsent()
{
    const Json full = fullPublicObject();
    const std::vector<std::string> columns{"time_limit", "sched_nodes", "job_id", "steps", "qos"};
    Json projected = Json::object();
    for (const auto &key : columns) {
        if (full.contains(key)) {
            projected.set(key, full[key]);
        }
    }
    const proto::RowTable table = rowsReply({full}, columns);
    const record::JobRowReader reader(table);
    record::JobObject o;
    reader.read(0, o);
    QVERIFY(o == record::jobObjectFromJson(projected));
    QCOMPARE(o.jobId, 101);
    QVERIFY(o.name.empty() && !o.numCpus && o.nodes.empty());
    QVERIFY(reader.has(record::JobMember::TimeLimit) && !reader.has(record::JobMember::Name));
}

// One object read row after row (sacct's loop) holds each row's values, absent ones included.
void JobCodecTest::aReusedObjectTakesEachRowsValues()
{
    const Json full = fullPublicObject();
    Json bare = Json::object();
    bare.set("job_id", 7);
    const proto::RowTable table = rowsReply({full, bare}, everyMemberKey());
    const record::JobRowReader reader(table);
    record::JobObject o;
    reader.read(0, o);
    reader.read(1, o);
    QVERIFY(o == record::jobObjectFromJson(bare));
    reader.read(0, o);
    QVERIFY(o == record::jobObjectFromJson(full));
}

QTEST_APPLESS_MAIN(JobCodecTest)
#include "job_codec_test.moc"
