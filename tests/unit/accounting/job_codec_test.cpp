// The job codec carries every field of the protocol contract: the submit spec both ways, the
// stored record both ways (scheduler state included), and the public job object.
#include "mc/acct/job_codec.h"

#include <QtTest>

using namespace mc;
using proto::Json;

class JobCodecTest : public QObject {
    Q_OBJECT

private slots:
    void schedulerSpecFieldsRoundTrip();
    void recordKeepsSchedulerState();
    void publicObjectShowsArrayHoldAndPlannedStart();
    void publicObjectFollowsTheKeyTableAndProjects();
    void commentIsAbsentUntilSetAndSurvivesTheStore();
};

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
        = acct::specFromJson(Json::parse(acct::specToJson(spec).dump()).value());
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
    const sched::JobSpec empty = acct::specFromJson(Json::object());
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
    const auto back = acct::jobFromRecord(Json::parse(acct::jobToRecord(job).dump()).value());
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
    const auto taskBack = acct::jobFromRecord(acct::jobToRecord(task));
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
    Json j = acct::jobToJson(job);
    QCOMPARE(j["array_job_id"].toInt(), 43);
    QVERIFY(!j.contains("array_task_id"));
    QCOMPARE(j["array_task_str"].toString(), std::string("3-10%4")); // squeue %K
    QCOMPARE(j["hold"].toString(), std::string("user"));
    QCOMPARE(j["gres"].toString(), std::string("gpu:2"));
    QCOMPARE(j["gpus"].toInt(), 0); // none allocated while pending
    QCOMPARE(j["planned_start"].toInt(), 1234);
    QCOMPARE(j["dependency"].toString(), std::string("afterok:12"));
    job.heldByAdmin = true;
    QCOMPARE(acct::jobToJson(job)["hold"].toString(), std::string("admin"));
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
    Json j = acct::jobToJson(job);
    std::vector<std::string> keys;
    for (const auto &[key, value] : j.members()) {
        keys.push_back(key);
    }
    std::vector<std::string> expected(acct::kJobKeys.begin(), acct::kJobKeys.end());
    for (const char *held : {"gpu_ids", "gpu_alloc_type"}) { // only while GPUs are held
        expected.erase(std::find(expected.begin(), expected.end(), held));
    }
    QCOMPARE(keys, expected);

    Json some = acct::jobToJson(job, acct::JobKeys::of({"user", "array_task_id", "job_id", "x"}));
    QCOMPARE(some.size(), 3u); // in the table's order, unknown names ignored
    QCOMPARE(some.members().at(0).first, std::string("job_id"));
    QCOMPARE(some["user"].toString(), std::string("bob"));
    QCOMPARE(some["array_task_id"].toInt(), 2);
    job.arrayTaskId.reset();
    QCOMPARE(acct::jobToJson(job, acct::JobKeys::of({"array_task_id"})).size(), 0u);
}

void JobCodecTest::commentIsAbsentUntilSetAndSurvivesTheStore()
{
    sched::Job job;
    job.id = sched::JobId{45};
    job.spec.user = "alice";
    QVERIFY(!acct::jobToJson(job).contains("comment")); // Slurm's (null)
    QVERIFY(!acct::specToJson(job.spec).contains("comment"));
    QVERIFY(!acct::specFromJson(acct::specToJson(job.spec)).comment.has_value());

    job.spec.comment = "memory overrun: 2.1G used";
    QCOMPARE(acct::jobToJson(job)["comment"].toString(), std::string("memory overrun: 2.1G used"));
    auto back = acct::jobFromRecord(acct::jobToRecord(job));
    QVERIFY(back.has_value());
    QCOMPARE(back->spec.comment.value_or("?"), std::string("memory overrun: 2.1G used"));

    job.spec.comment = ""; // scontrol update comment= : set, empty
    back = acct::jobFromRecord(acct::jobToRecord(job));
    QVERIFY(back->spec.comment.has_value());
    QCOMPARE(*back->spec.comment, std::string());

    // The rows form writes the same member; an unset comment is a null cell.
    acct::JobRowWriter rows({"job_id", "comment"});
    std::string text;
    rows.encode(job);
    rows.appendRow(text);
    job.spec.comment.reset();
    rows.encode(job);
    rows.appendRow(text);
    QCOMPARE(text, std::string(R"([45,""][45,null])"));
}

QTEST_APPLESS_MAIN(JobCodecTest)
#include "job_codec_test.moc"
