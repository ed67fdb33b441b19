// Issue #6: what `jobs` and `acct` send for a request with `fields`, `form: rows` or `job_ids`
// of an array, against a real job store (SQLite in a temporary directory).
#include "controller_fixture.h"
#include "mc/record/job_codec.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace mc;
using proto::Json;
using namespace mc::test;

namespace {

std::vector<std::string> keysOf(const Json &object)
{
    std::vector<std::string> keys;
    for (const auto &[key, value] : object.members()) {
        keys.push_back(key);
    }
    return keys;
}

} // namespace

class ControllerViewsTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void defaultJobsReplyHasEveryMemberAndTheExplanation();
    void fieldsSendOnlyThoseMembers();
    void rowsFormSendsColumnsThenValues();
    void acctListsQueuedJobsFromMemoryAndFinishedFromTheStore();
    void acctJobIdsMatchEveryTaskOfAnArray();
    void acctFieldsAndStepIds();
    void rowsHoldTheValuesOfTheObjects();

private:
    Json call(const Json &r, sched::Seconds now = 100) { return m_ctl->handleRequest(r, now); }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

void ControllerViewsTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    std::string error;
    m_ctl = openController(*m_dir, m_store, m_gateway, kTwoNodeConf, kTwoUsers, error);
    QVERIFY2(error.empty(), error.c_str());
    Json hello = request("node_register");
    for (const char *node : {"cn01", "cn02"}) {
        hello.set("node", node);
        m_ctl->nodeRegistered(node, hello, 100);
    }
}

void ControllerViewsTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void ControllerViewsTest::defaultJobsReplyHasEveryMemberAndTheExplanation()
{
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4)); // waits: Resources
    m_ctl->schedule(101);
    const Json reply = call(request("jobs"));
    QVERIFY(!reply.contains("rows"));
    const Json &pending = reply["jobs"].items().at(2);
    QCOMPARE(pending["state"].toString(), std::string("PENDING"));
    std::vector<std::string> expected(record::kJobKeys.begin(), record::kJobKeys.end());
    expected.erase(std::find(expected.begin(), expected.end(), "array_task_id"));
    expected.erase(std::find(expected.begin(), expected.end(), "comment")); // none given
    expected.erase(std::find(expected.begin(), expected.end(), "node_cpus")); // not uneven
    for (const char *mail : {"mail_type", "mail_user"}) { // no --mail-type
        expected.erase(std::find(expected.begin(), expected.end(), mail));
    }
    for (const char *suspend : {"suspend_time", "suspended"}) { // never suspended
        expected.erase(std::find(expected.begin(), expected.end(), suspend));
    }
    for (const char *held : {"gpu_ids", "gpu_alloc_type"}) { // only while GPUs are held
        expected.erase(std::find(expected.begin(), expected.end(), held));
    }
    expected.insert(expected.end(), {"explanation", "now"});
    QCOMPARE(keysOf(pending), expected);
    QVERIFY(!pending["explanation"]["en"].toString().empty());
    QVERIFY(!pending["explanation"]["fr"].toString().empty());
    QVERIFY(pending["waiting_for"].isArray());
    QCOMPARE(pending["now"].toInt(), 100);
}

void ControllerViewsTest::fieldsSendOnlyThoseMembers()
{
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4));
    call(submitRequest("bob", 4)); // waits
    m_ctl->schedule(101);
    Json r = request("jobs");
    r.set("fields", proto::stringList({"job_id", "state", "reason", "user", "no_such_member"}));
    Json reply = call(r);
    QCOMPARE(reply["jobs"].size(), 3u);
    for (const auto &job : reply["jobs"].items()) {
        QCOMPARE(keysOf(job), (std::vector<std::string>{"job_id", "user", "state", "reason"}));
    }
    QCOMPARE(reply["jobs"].items().at(2)["reason"].toString(), std::string("Resources"));
    QCOMPARE(reply["now"].toInt(), 100);

    // The explanation and `now` only when named.
    r.set("fields", proto::stringList({"job_id", "explanation", "now", "waiting_for"}));
    reply = call(r);
    const Json &pending = reply["jobs"].items().at(2);
    QCOMPARE(
        keysOf(pending), (std::vector<std::string>{"job_id", "waiting_for", "explanation", "now"}));
    QVERIFY(!pending["explanation"]["en"].toString().empty());
    // Running: how it started (in priority order here, not by backfill).
    const Json &running = reply["jobs"].items().at(0);
    QCOMPARE(running["explanation"]["en"].toString(), std::string("Job 1 started on cn01."));
    QVERIFY(!running.contains("backfilled")); // not named
    r.set("fields", proto::stringList({"job_id", "backfilled"}));
    reply = call(r);
    QVERIFY(reply["jobs"].items().at(0).contains("backfilled"));
    QVERIFY(!reply["jobs"].items().at(0)["backfilled"].toBool());
    QVERIFY(!reply["jobs"].items().at(2).contains("backfilled")); // pending
}

void ControllerViewsTest::rowsFormSendsColumnsThenValues()
{
    call(submitRequest("alice", 1));
    call(submitRequest("bob", 1, fields({{"array", "1-2"}})));
    Json r = request("jobs");
    const std::vector<std::string> fields{"job_id", "user", "array_task_id", "array_task_str"};
    r.set("fields", proto::stringList(fields));
    r.set("form", "rows");
    // Rows are written as text (record::JobRowWriter): read back as a client reads them.
    Json reply = *Json::parse(call(r).dump());
    QVERIFY(!reply.contains("jobs"));
    QCOMPARE(reply["columns"].toStringList(), fields);
    QCOMPARE(reply["rows"].size(), 2u);
    const Json &first = reply["rows"].items().at(0);
    QCOMPARE(first.size(), 4u);
    QCOMPARE(first.items().at(0).toInt(), 1);
    QCOMPARE(first.items().at(1).toString(), std::string("alice"));
    QVERIFY(first.items().at(2).isNull()); // not an array task: no such member
    const Json &record = reply["rows"].items().at(1);
    QCOMPARE(record.items().at(1).toString(), std::string("bob"));
    QCOMPARE(record.items().at(3).toString(), std::string("1-2"));

    // Without `fields`, `form` changes nothing: the GUI's and other clients' reply.
    Json plain = request("jobs");
    plain.set("form", "rows");
    QVERIFY(call(plain)["jobs"].size() == 2u);
}

void ControllerViewsTest::acctListsQueuedJobsFromMemoryAndFinishedFromTheStore()
{
    call(submitRequest("alice", 4)); // 1: runs, then ends
    call(submitRequest("alice", 4)); // 2: runs
    call(submitRequest("bob", 4)); // 3: pending
    call(submitRequest("alice", 4)); // 4: pending
    m_ctl->schedule(101);
    m_ctl->nodeReport("cn01", jobEnded(1, 150), 150);

    Json r = request("acct");
    r.set("users", proto::stringList({"alice"}));
    r.set("since", 120);
    Json jobs = call(r, 160)["jobs"];
    std::vector<std::int64_t> ids;
    for (const auto &job : jobs.items()) {
        ids.push_back(job["job_id"].toInt());
    }
    // Job 1 ended at 150 >= since; job 2 runs, 4 waits; 3 is bob's. Sorted by id.
    QCOMPARE(ids, (std::vector<std::int64_t>{1, 2, 4}));
    QCOMPARE(jobs.items().at(0)["state"].toString(), std::string("COMPLETED"));
    QCOMPARE(jobs.items().at(0)["steps"].size(), 1u);
    QCOMPARE(jobs.items().at(2)["state"].toString(), std::string("PENDING"));
    QCOMPARE(jobs.items().at(2)["steps"].size(), 0u);

    r.set("since", 151); // job 1 ended before the window
    QCOMPARE(call(r, 160)["jobs"].size(), 2u);
}

void ControllerViewsTest::acctJobIdsMatchEveryTaskOfAnArray()
{
    call(submitRequest("alice", 1, fields({{"array", "1-3"}})));
    call(submitRequest("alice", 1));
    m_ctl->schedule(101); // the tasks start, each a job of its own with the array's id
    Json list = call(request("jobs"))["jobs"];
    QCOMPARE(list.size(), 4u);
    Json r = request("acct");
    Json ids = Json::array();
    ids.push(1);
    r.set("job_ids", ids);
    Json jobs = call(r)["jobs"];
    QCOMPARE(jobs.size(), 3u);
    for (const auto &job : jobs.items()) {
        QCOMPARE(job["array_job_id"].toInt(), 1);
        QVERIFY(job["array_task_id"].isInt());
    }
    // After they end, the store answers the same.
    for (const auto &job : jobs.items()) {
        m_ctl->nodeReport(
            job["nodes"].items().at(0).toString(), jobEnded(job["job_id"].toInt(), 150), 150);
    }
    jobs = call(r, 160)["jobs"];
    QCOMPARE(jobs.size(), 3u);
    QCOMPARE(jobs.items().at(0)["state"].toString(), std::string("COMPLETED"));
}

void ControllerViewsTest::acctFieldsAndStepIds()
{
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    m_ctl->nodeReport("cn01", jobEnded(1, 150), 150);

    Json r = request("acct");
    Json full = call(r, 160)["jobs"].items().at(0);
    QVERIFY(full.contains("priority"));
    const Json &step = full["steps"].items().at(0);
    QCOMPARE(step["step_id"].toString(), std::string("batch"));
    QCOMPARE(step["step"].toString(), std::string("batch"));
    QCOMPARE(step["name"].toString(), std::string("batch"));

    r.set("fields", proto::stringList({"job_id", "state", "steps"}));
    Json slim = call(r, 160)["jobs"].items().at(0);
    QCOMPARE(keysOf(slim), (std::vector<std::string>{"job_id", "state", "steps"}));
    QCOMPARE(slim["steps"].size(), 1u);
}

// The text rows (the controller's row cache, job_table.cpp) against the Json objects of
// the same request, for `jobs` and `acct`, with every job member plus the ones the controller
// adds; again after each kind of change, since the cache keeps rows between requests.
void ControllerViewsTest::rowsHoldTheValuesOfTheObjects()
{
    std::vector<std::string> names(record::kJobKeys.begin(), record::kJobKeys.end());
    for (const char *extra : {"explanation", "now", "steps", "priority", "cancelled_by", "bogus"}) {
        names.emplace_back(extra);
    }
    auto sameValues = [&](sched::Seconds now, const char *when) {
        for (const char *op : {"jobs", "acct"}) {
            Json r = request(op);
            r.set("fields", proto::stringList(names));
            const Json objects = call(r, now);
            r.set("form", "rows");
            const Json rows = *Json::parse(call(r, now).dump());
            QCOMPARE(rows["columns"].toStringList(), names);
            QCOMPARE(rows["rows"].size(), objects["jobs"].size());
            QVERIFY(rows["rows"].size() >= 3u);
            for (std::size_t i = 0; i < rows["rows"].size(); ++i) {
                const Json &row = rows["rows"].items()[i];
                const Json &object = objects["jobs"].items()[i];
                Json rebuilt = Json::object();
                for (std::size_t c = 0; c < names.size(); ++c) {
                    if (!row.items()[c].isNull()) {
                        rebuilt.set(names[c], row.items()[c]);
                    }
                }
                // The same members with the same values (an object's order is the codec's).
                const std::string where = std::string(when) + ": " + op + " job "
                    + std::to_string(object["job_id"].toInt());
                QVERIFY2(rebuilt.size() == object.size(), where.c_str());
                for (const auto &[key, value] : object.members()) {
                    QVERIFY2(rebuilt[key] == value, (where + " " + key).c_str());
                }
            }
        }
    };
    call(submitRequest("alice", 4)); // 1: runs, then ends
    call(submitRequest("alice", 4)); // 2: runs
    call(submitRequest("bob", 4, fields({{"array", "1-3%1"}}))); // 3: an array
    call(submitRequest("alice", 4, fields({{"dependency", "afterok:2"}, {"name", "a \"b\"\n"}})));
    // 5: a member longer than the cache takes (255 bytes), written from the record each time
    call(submitRequest("bob", 1, fields({{"name", std::string(300, 'x')}})));
    sameValues(100, "submitted");
    m_ctl->schedule(101);
    sameValues(101, "scheduled");
    m_ctl->nodeReport("cn01", jobEnded(1, 150), 150);
    m_ctl->schedule(151);
    sameValues(160, "ended");

    call(request("hold", fields({{"job_ids", ids({4})}, {"user", "alice"}})), 161);
    sameValues(161, "held");
    call(request("release", fields({{"job_ids", ids({4})}, {"user", "alice"}})), 162);
    call(request("update",
             fields({{"job_id", 4}, {"user", "alice"}, {"fields", fields({{"time_limit", 30}})}})),
        162);
    sameValues(162, "released and updated");
    call(request("requeue", fields({{"job_ids", ids({2})}, {"user", "alice"}})), 163);
    m_ctl->schedule(164);
    sameValues(164, "requeued");
    Json cancel = request("cancel", fields({{"job_ids", ids({3})}, {"user", "bob"}}));
    call(cancel, 165);
    m_ctl->schedule(166);
    sameValues(166, "cancelled");
    m_ctl->nodeLost("cn01", 170);
    m_ctl->nodeLost("cn02", 170);
    m_ctl->schedule(171);
    sameValues(171, "nodes lost");
    m_ctl->purgeOldJobs(100000);
    sameValues(100000, "purged");
}

QTEST_APPLESS_MAIN(ControllerViewsTest)
#include "controller_views_test.moc"
