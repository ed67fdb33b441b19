// At most once and nothing lost (issue #18): a controller restarted mid-run, a node daemon
// lost, and a store that refuses writes (a full disk) never start a job twice nor drop a
// finished job's records. The store's refusal is SQLite's own (Database::refuseWrites).
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace mc;
using proto::Json;
using namespace mc::test;

namespace {

// A node daemon's hello: the jobs it runs and the end reports it kept.
Json registration(const std::string &node, std::initializer_list<std::int64_t> running = {},
    std::vector<Json> finished = {})
{
    Json list = Json::array();
    for (const auto &report : finished) {
        list.push(report);
    }
    return request("node_register",
        fields({{"node", node}, {"running", ids(running)}, {"finished", std::move(list)}}));
}

} // namespace

class ControllerRestartTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void registrationWithEndReportsStartsEachJobOnceAndRequeuesNone();
    void jobTheNodeRunsButTheControllerEndedIsKilledThere();
    void lostNodeDaemonKeepsItsJobsUntilItsNextDaemonRegisters();
    void fullStoreRefusesSubmissionsWithSlurmsWords();
    void endReportIsAcknowledgedOnlyOnceItsRecordsAreStored();
    void controllerKilledWhileTheStoreIsFullRunsNothingTwice();

private:
    void restart()
    {
        m_ctl.reset();
        std::string error;
        m_ctl = openController(*m_dir, m_store, m_gateway, kTwoNodeConf, kTwoUsers, error);
        QVERIFY2(error.empty(), error.c_str());
    }
    Json call(const Json &request, sched::Seconds now = 100)
    {
        return m_ctl->handleRequest(request, now);
    }
    // Job `id` as squeue sees it, else (a restarted controller keeps only unfinished jobs in
    // memory) as sacct does.
    Json job(std::int64_t id)
    {
        Json jobs = call(request("jobs", fields({{"job_ids", ids({id})}})))["jobs"];
        if (jobs.items().empty()) {
            jobs = call(request("acct", fields({{"job_ids", ids({id})}})))["jobs"];
        }
        return jobs.items().at(0);
    }
    // Orders `op` sent for job `id`, to any node.
    int orders(const std::string &op, std::int64_t id) const
    {
        int n = 0;
        for (const auto &[node, order] : m_gateway.orders) {
            const std::int64_t orderJob
                = op == "launch" ? order["job"]["job_id"].toInt() : order["job_id"].toInt();
            n += order["op"].toString() == op && orderJob == id ? 1 : 0;
        }
        return n;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

void ControllerRestartTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_gateway.orders.clear();
    restart();
    m_ctl->nodeRegistered("cn01", registration("cn01"), 100);
    m_ctl->nodeRegistered("cn02", registration("cn02"), 100);
}

void ControllerRestartTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

// The bug: replaying a node's end reports ran a pass per report, which launched the
// next job there; the lost-job check that followed, against the node's `running` list sent
// before that launch, requeued it while it ran.
void ControllerRestartTest::registrationWithEndReportsStartsEachJobOnceAndRequeuesNone()
{
    for (int i = 0; i < 4; ++i) {
        call(submitRequest("alice", 4)); // each fills a node
    }
    m_ctl->schedule(101);
    QCOMPARE(job(1)["state"].toString(), std::string("RUNNING"));
    QCOMPARE(job(2)["state"].toString(), std::string("RUNNING"));
    const std::string node1 = job(1)["nodes"].items().at(0).toString();
    const std::string node2 = job(2)["nodes"].items().at(0).toString();

    restart(); // killed; jobs 1 and 2 end meanwhile, their nodes keep the reports
    m_ctl->nodeRegistered(node1, registration(node1, {}, {jobEnded(1, 150)}), 160);
    m_ctl->nodeRegistered(node2, registration(node2, {}, {jobEnded(2, 155)}), 160);

    QCOMPARE(job(1)["state"].toString(), std::string("COMPLETED"));
    QCOMPARE(job(2)["state"].toString(), std::string("COMPLETED"));
    for (std::int64_t id : {3, 4}) {
        QCOMPARE(job(id)["state"].toString(), std::string("RUNNING"));
        QCOMPARE(job(id)["restarts"].toInt(), 0);
        QCOMPARE(orders("launch", id), 1);
    }
    QCOMPARE(orders("job_end_ack", 1), 1);
    QCOMPARE(orders("job_end_ack", 2), 1);
}

void ControllerRestartTest::jobTheNodeRunsButTheControllerEndedIsKilledThere()
{
    call(submitRequest("alice", 4));
    m_ctl->schedule(101);
    const std::string node = job(1)["nodes"].items().at(0).toString();
    m_ctl->nodeReport(node, jobEnded(1, 120), 120);
    m_gateway.orders.clear();
    restart();
    // A node that still lists job 1 (an order it never got, a report it lost): killed there,
    // and the job stays as it ended.
    m_ctl->nodeRegistered(node, registration(node, {1}), 130);
    QCOMPARE(orders("signal", 1), 1);
    QCOMPARE(m_gateway.orders.front().second["signal"].toInt(), std::int64_t{SIGKILL});
    QCOMPARE(job(1)["state"].toString(), std::string("COMPLETED"));
    QCOMPARE(orders("launch", 1), 0);
}

// docs/design.md, "At most once": no copy of a lost daemon's job starts before the node's
// next daemon, which kills what is left of the earlier one, has registered.
void ControllerRestartTest::lostNodeDaemonKeepsItsJobsUntilItsNextDaemonRegisters()
{
    call(submitRequest("alice", 4));
    m_ctl->schedule(101);
    QCOMPARE(job(1)["nodes"].toStringList(), std::vector<std::string>{"cn01"});
    m_ctl->nodeLost("cn01", 110);
    m_ctl->schedule(111);
    QCOMPARE(job(1)["state"].toString(), std::string("RUNNING"));
    QCOMPARE(orders("launch", 1), 1);

    m_ctl->nodeRegistered("cn01", registration("cn01"), 120); // without job 1: requeued
    QCOMPARE(job(1)["state"].toString(), std::string("PENDING"));
    QCOMPARE(job(1)["reason"].toString(), std::string("BeginTime")); // the requeue delay
    QCOMPARE(orders("launch", 1), 1);
    m_ctl->schedule(120 + 121);
    QCOMPARE(job(1)["state"].toString(), std::string("RUNNING"));
    QCOMPARE(job(1)["restarts"].toInt(), 1);
    QCOMPARE(orders("launch", 1), 2);
}

void ControllerRestartTest::fullStoreRefusesSubmissionsWithSlurmsWords()
{
    m_store->database().refuseWrites(true);
    Json refused = call(submitRequest("alice", 1));
    QVERIFY(!refused["ok"].toBool());
    QCOMPARE(
        refused["error"].toString(), std::string("I/O error writing script/environment to file"));
    QCOMPARE(refused["errno"].toInt(), 2019);

    m_store->database().refuseWrites(false); // space is back
    Json accepted = call(submitRequest("alice", 1));
    QVERIFY(accepted["ok"].toBool());
    QCOMPARE(accepted["job_id"].toInt(), 1);
}

void ControllerRestartTest::endReportIsAcknowledgedOnlyOnceItsRecordsAreStored()
{
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4));
    m_ctl->schedule(101);
    const std::string node = job(1)["nodes"].items().at(0).toString();

    m_store->database().refuseWrites(true);
    m_ctl->nodeReport(node, jobEnded(1, 120), 120);
    QCOMPARE(orders("job_end_ack", 1), 0); // the node keeps its report
    QCOMPARE(job(1)["state"].toString(), std::string("COMPLETED"));
    m_ctl->schedule(121);
    QCOMPARE(job(3)["state"].toString(), std::string("PENDING")); // nothing new starts
    QCOMPARE(orders("launch", 3), 0);
    Json refused = call(submitRequest("alice", 1));
    QCOMPARE(refused["errno"].toInt(), 2019);

    m_store->database().refuseWrites(false);
    m_ctl->schedule(122); // the next pass stores what waited, then acknowledges
    QCOMPARE(orders("job_end_ack", 1), 1);
    QCOMPARE(orders("launch", 3), 1);
    acct::JobStore other; // what sacct reads
    std::string error;
    QVERIFY(other.open(m_dir->path().toStdString() + "/ctld.sqlite", error));
    acct::AcctQuery query;
    query.jobIds = {1};
    auto rows = other.query(query, error);
    QCOMPARE(rows.size(), 1u);
    QCOMPARE(rows[0].job.state, sched::JobState::Completed);
    auto steps = other.steps(sched::JobId{1});
    QCOMPARE(steps.size(), 1u);
    QCOMPARE(steps[0].step, std::string("batch"));
}

void ControllerRestartTest::controllerKilledWhileTheStoreIsFullRunsNothingTwice()
{
    call(submitRequest("alice", 4));
    m_ctl->schedule(101);
    const std::string node = job(1)["nodes"].items().at(0).toString();
    m_store->database().refuseWrites(true);
    const Json report = jobEnded(1, 120);
    m_ctl->nodeReport(node, report, 120);
    QCOMPARE(orders("job_end_ack", 1), 0);

    restart(); // killed before space came back; the store says RUNNING, the node kept the report
    QCOMPARE(job(1)["state"].toString(), std::string("RUNNING"));
    m_ctl->nodeRegistered(node, registration(node, {}, {report}), 130);
    QCOMPARE(job(1)["state"].toString(), std::string("COMPLETED"));
    QCOMPARE(job(1)["restarts"].toInt(), 0);
    QCOMPARE(orders("launch", 1), 1);
    QCOMPARE(orders("job_end_ack", 1), 1);
}

QTEST_APPLESS_MAIN(ControllerRestartTest)
#include "controller_restart_test.moc"
