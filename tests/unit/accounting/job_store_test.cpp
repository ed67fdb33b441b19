#include "mc/acct/database.h"
#include "mc/acct/job_store.h"
#include "mc/record/job_codec.h"

#include <QTemporaryDir>
#include <QtTest>

#include <optional>

using namespace mc;

namespace {

sched::Job makeJob(std::uint32_t id, const std::string &user, sched::JobState state)
{
    sched::Job job;
    job.id = sched::JobId{id};
    job.spec.name = "job" + std::to_string(id);
    job.spec.user = user;
    job.spec.partition = "cpu";
    job.spec.account = "def-prof";
    job.spec.script = "#!/bin/bash\necho hi\n";
    job.spec.env = {"A=1", "B=two words"};
    job.spec.memPerCpu = 500;
    job.state = state;
    job.submitTime = 1000 + id;
    return job;
}

} // namespace

class JobStoreTest : public QObject {
    Q_OBJECT

private slots:
    void recordRoundTripsEveryField();
    void unfinishedJobsSurviveReopeningTheFile();
    void queryFiltersByUserAndJobAndKeepsStepsInOrder();
    void jobIdsAreNeverReused();
    void stepUsageIsStoredAndOlderFilesAreMigrated();
    void nodeOptionsRoundTripThroughTheRecord();
    void queryMatchesArrayIdsAndFinishedJobsOnly();
    void version2FilesGetTheArrayColumnFromTheRecord();
    void scriptAndEnvironmentAreStoredApartAndKept();
    void finishedJobsLoseTheirScriptsUnlessAccountingStoreFlagsKeepThem();
};

void JobStoreTest::recordRoundTripsEveryField()
{
    sched::Job job = makeJob(7, "alice", sched::JobState::Running);
    job.nodeList = {"cn01", "cn02"};
    job.allocCpus = 8;
    job.timeLimit = 300;
    job.cancelledBy = 1001;
    auto back = record::jobFromRecord(record::jobToRecord(job));
    QVERIFY(back.has_value());
    QCOMPARE(back->id.value, 7u);
    QCOMPARE(back->spec.env, job.spec.env);
    QCOMPARE(back->spec.script, job.spec.script);
    QCOMPARE(back->spec.memPerCpu.value_or(0), 500);
    QCOMPARE(back->nodeList, job.nodeList);
    QCOMPARE(back->allocCpus, 8);
    QCOMPARE(back->timeLimit, 300);
    QCOMPARE(back->cancelledBy.value_or(0), 1001u);
    QVERIFY(back->state == sched::JobState::Running);
}

void JobStoreTest::unfinishedJobsSurviveReopeningTheFile()
{
    QTemporaryDir dir;
    std::string path = dir.path().toStdString() + "/ctld.sqlite";
    std::string error;
    {
        acct::JobStore store;
        QVERIFY2(store.open(path, error), error.c_str());
        QVERIFY(store.saveJob(makeJob(1, "alice", sched::JobState::Completed), error));
        QVERIFY(store.saveJob(makeJob(2, "alice", sched::JobState::Pending), error));
        QVERIFY(store.saveJob(makeJob(3, "bob", sched::JobState::Running), error));
    }
    acct::JobStore reopened;
    QVERIFY(reopened.open(path, error));
    auto jobs = reopened.loadUnfinished(error);
    QCOMPARE(jobs.size(), 2u);
    QCOMPARE(jobs[0].id.value, 2u);
    QCOMPARE(jobs[1].id.value, 3u);
}

void JobStoreTest::queryFiltersByUserAndJobAndKeepsStepsInOrder()
{
    acct::JobStore store;
    std::string error;
    QVERIFY(store.open(":memory:", error));
    for (std::uint32_t id = 1; id <= 3; ++id) {
        store.saveJob(makeJob(id, id == 2 ? "bob" : "alice", sched::JobState::Completed), error);
    }
    acct::StepRecord batch{
        sched::JobId{1}, "batch", sched::JobState::Completed, {}, 5, 6, {"cn01"}, 1};
    acct::StepRecord step0{
        sched::JobId{1}, "0", sched::JobState::Failed, {1, 0}, 5, 6, {"cn01", "cn02"}, 2};
    QVERIFY(store.saveStep(batch, error));
    QVERIFY(store.saveStep(step0, error));

    acct::AcctQuery q;
    q.users = {"alice"};
    auto rows = store.query(q, error);
    QCOMPARE(rows.size(), 2u);
    QCOMPARE(rows[0].steps.size(), 2u);
    QCOMPARE(QString::fromStdString(rows[0].steps[0].step), QStringLiteral("batch"));
    QCOMPARE(rows[0].steps[1].nodes, (std::vector<std::string>{"cn01", "cn02"}));
    QCOMPARE(rows[0].steps[1].exit.code, 1);

    acct::AcctQuery byId;
    byId.jobIds = {2};
    auto bob = store.query(byId, error);
    QCOMPARE(bob.size(), 1u);
    QCOMPARE(QString::fromStdString(bob[0].job.spec.user), QStringLiteral("bob"));
}

void JobStoreTest::jobIdsAreNeverReused()
{
    acct::JobStore store;
    std::string error;
    QVERIFY(store.open(":memory:", error));
    QCOMPARE(store.lastJobId(), 0u);
    store.saveJob(makeJob(4, "alice", sched::JobState::Pending), error);
    QCOMPARE(store.lastJobId(), 4u);
    store.setLastJobId(9);
    QCOMPARE(store.lastJobId(), 9u);
}

void JobStoreTest::stepUsageIsStoredAndOlderFilesAreMigrated()
{
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/ctld.sqlite";
    std::string error;
    {
        // A file written before steps had usage columns (schema version 1).
        acct::Database old;
        QVERIFY(old.open(path, error));
        QVERIFY2(old.exec("CREATE TABLE steps (job_id INTEGER NOT NULL, step TEXT NOT NULL, "
                          "state TEXT NOT NULL, exit_code INTEGER NOT NULL, exit_signal INTEGER "
                          "NOT NULL, start_time INTEGER NOT NULL, end_time INTEGER NOT NULL, "
                          "nodes TEXT NOT NULL, cpus INTEGER NOT NULL, PRIMARY KEY (job_id, "
                          "step)); INSERT INTO steps VALUES (1, 'batch', 'COMPLETED', 0, 0, 5, "
                          "6, 'cn01', 1); PRAGMA user_version = 1;",
                     error),
            error.c_str());
    }
    acct::JobStore store;
    QVERIFY2(store.open(path, error), error.c_str());
    store.saveJob(makeJob(1, "alice", sched::JobState::Completed), error);
    store.saveJob(makeJob(2, "alice", sched::JobState::OutOfMemory), error);
    acct::StepRecord measured{
        sched::JobId{2}, "batch", sched::JobState::OutOfMemory, {0, 125}, 5, 9, {"cn02"}, 1};
    measured.totalCpuMs = 2500;
    measured.maxRssKb = 204800;
    measured.aveRssKb = 150000;
    QVERIFY2(store.saveStep(measured, error), error.c_str());

    auto rows = store.query({}, error);
    QCOMPARE(rows.size(), 2u);
    QCOMPARE(rows[0].steps.size(), 1u);
    QCOMPARE(rows[0].steps[0].maxRssKb, 0LL); // recorded before usage existed
    QCOMPARE(rows[1].steps.at(0).totalCpuMs, 2500LL);
    QCOMPARE(rows[1].steps.at(0).maxRssKb, 204800LL);
    QCOMPARE(rows[1].steps.at(0).aveRssKb, 150000LL);
    QCOMPARE(rows[1].steps.at(0).exit.signal, 125);

    acct::JobStore reopened; // the migration runs once
    QVERIFY2(reopened.open(path, error), error.c_str());
    QCOMPARE(reopened.query({}, error).at(1).steps.at(0).maxRssKb, 204800LL);
}

void JobStoreTest::nodeOptionsRoundTripThroughTheRecord()
{
    sched::Job job = makeJob(7, "alice", sched::JobState::Pending);
    job.spec.openAppend = true;
    job.spec.signal = "B:10@60";
    job.spec.requeue = false;
    auto back = record::jobFromRecord(record::jobToRecord(job));
    QVERIFY(back);
    QVERIFY(back->spec.openAppend);
    QCOMPARE(QString::fromStdString(back->spec.signal), QStringLiteral("B:10@60"));
    QCOMPARE(back->spec.requeue, std::optional<bool>(false));
    auto plain
        = record::jobFromRecord(record::jobToRecord(makeJob(8, "bob", sched::JobState::Pending)));
    QVERIFY(plain);
    QVERIFY(!plain->spec.openAppend);
    QVERIFY(plain->spec.signal.empty());
    QVERIFY(!plain->spec.requeue);
}

void JobStoreTest::queryMatchesArrayIdsAndFinishedJobsOnly()
{
    acct::JobStore store;
    std::string error;
    QVERIFY(store.open(":memory:", error));
    for (std::uint32_t id = 1; id <= 4; ++id) {
        sched::Job job = makeJob(id, "alice", sched::JobState::Completed);
        job.endTime = 2000 + id;
        if (id != 2) { // 1, 3 and 4: tasks of array 1
            job.arrayJobId = 1;
            job.arrayTaskId = id;
        }
        QVERIFY(store.saveJob(job, error));
    }
    sched::Job queued = makeJob(5, "alice", sched::JobState::Pending);
    queued.arrayJobId = 1;
    QVERIFY(store.saveJob(queued, error));
    acct::StepRecord named{sched::JobId{3}, "0", sched::JobState::Completed, {}, 5, 6, {"cn01"}, 1};
    named.name = "hostname";
    QVERIFY(store.saveStep(named, error));

    acct::AcctQuery q;
    q.jobIds = {1};
    std::vector<std::uint32_t> ids;
    for (const auto &row : store.query(q, error)) {
        ids.push_back(row.job.id.value);
    }
    QCOMPARE(ids, (std::vector<std::uint32_t>{1, 3, 4, 5}));

    q.finishedOnly = true;
    q.since = 2003;
    auto rows = store.query(q, error);
    QCOMPARE(rows.size(), 2u); // 3 and 4; 5 is pending, 1 ended before `since`
    QCOMPARE(rows[0].job.id.value, 3u);
    QCOMPARE(rows[0].steps.at(0).name, std::string("hostname"));
    QCOMPARE(store.steps(sched::JobId{3}).size(), 1u);
    QVERIFY(store.steps(sched::JobId{4}).empty());
    QVERIFY(acct::isUnfinished(sched::JobState::Completing));
    QVERIFY(!acct::isUnfinished(sched::JobState::Timeout));
}

void JobStoreTest::version2FilesGetTheArrayColumnFromTheRecord()
{
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/ctld.sqlite";
    std::string error;
    {
        acct::JobStore store;
        QVERIFY(store.open(path, error));
        sched::Job task = makeJob(8, "alice", sched::JobState::Completed);
        task.arrayJobId = 7;
        task.arrayTaskId = 2;
        QVERIFY(store.saveJob(task, error));
    }
    {
        // Back to version 2: no array column yet.
        acct::Database db;
        QVERIFY(db.open(path, error));
        QVERIFY2(db.exec("DROP INDEX jobs_array; ALTER TABLE jobs DROP COLUMN array_job_id; "
                         "ALTER TABLE steps DROP COLUMN name; PRAGMA user_version = 2;",
                     error),
            error.c_str());
    }
    acct::JobStore store;
    QVERIFY2(store.open(path, error), error.c_str());
    acct::AcctQuery q;
    q.jobIds = {7};
    auto rows = store.query(q, error);
    QCOMPARE(rows.size(), 1u);
    QCOMPARE(rows[0].job.id.value, 8u);
}

void JobStoreTest::scriptAndEnvironmentAreStoredApartAndKept()
{
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/ctld.sqlite";
    std::string error;
    sched::Job job = makeJob(4, "alice", sched::JobState::Pending);
    {
        acct::JobStore store;
        QVERIFY2(store.open(path, error), error.c_str());
        QVERIFY2(store.saveJob(job, error), error.c_str());
        // The controller drops both from memory after the first save; later saves keep them.
        sched::Job light = job;
        light.spec.script.clear();
        light.spec.env.clear();
        light.state = sched::JobState::Running;
        QVERIFY2(store.saveJob(light, error), error.c_str());
    }
    acct::JobStore reopened;
    QVERIFY(reopened.open(path, error));
    auto jobs = reopened.loadUnfinished(error);
    QCOMPARE(jobs.size(), 1u);
    QVERIFY(jobs[0].spec.script.empty()); // the record itself holds neither
    QVERIFY(jobs[0].spec.env.empty());
    QVERIFY(jobs[0].state == sched::JobState::Running);
    sched::JobSpec stored;
    QVERIFY(reopened.loadScript(sched::JobId{4}, stored));
    QCOMPARE(stored.script, job.spec.script);
    QCOMPARE(stored.env, job.spec.env);
    QVERIFY(!reopened.loadScript(sched::JobId{5}, stored));
}

void JobStoreTest::finishedJobsLoseTheirScriptsUnlessAccountingStoreFlagsKeepThem()
{
    QTemporaryDir dir;
    acct::JobStore store;
    std::string error;
    QVERIFY(store.open(dir.path().toStdString() + "/ctld.sqlite", error));
    // 1 ended long ago, 2 ended recently, 3 runs, 4 is a task (array 5) that ended long ago
    // while 6, another task of array 5, still runs: 5's script stays for it.
    sched::Job old = makeJob(1, "alice", sched::JobState::Completed);
    old.endTime = 100;
    sched::Job recent = makeJob(2, "alice", sched::JobState::Failed);
    recent.endTime = 900;
    sched::Job running = makeJob(3, "bob", sched::JobState::Running);
    sched::Job arrayRecord = makeJob(5, "bob", sched::JobState::Completed);
    arrayRecord.endTime = 100;
    arrayRecord.arrayJobId = 5;
    sched::Job task = makeJob(6, "bob", sched::JobState::Running);
    task.arrayJobId = 5;
    task.spec.script.clear();
    task.spec.env.clear();
    for (const auto &job : {old, recent, running, arrayRecord, task}) {
        QVERIFY2(store.saveJob(job, error), error.c_str());
    }
    auto kept = [&store](std::uint32_t id) {
        sched::JobSpec spec;
        return store.loadScript(sched::JobId{id}, spec) ? spec : std::optional<sched::JobSpec>();
    };
    // job_script kept, job_env not: old's environment goes, its script stays.
    QVERIFY2(store.dropFinishedScripts(500, true, false, error), error.c_str());
    QCOMPARE(kept(1)->script, old.spec.script);
    QVERIFY(kept(1)->env.empty());
    QCOMPARE(kept(2)->env, recent.spec.env);
    // Neither: old's goes whole; the recent, running and array ones stay.
    QVERIFY2(store.dropFinishedScripts(500, false, false, error), error.c_str());
    QVERIFY(!kept(1));
    QVERIFY(kept(2));
    QVERIFY(kept(3));
    QVERIFY(kept(5));
}

QTEST_APPLESS_MAIN(JobStoreTest)
#include "job_store_test.moc"
