// scancel JOB.STEP on the controller's side (step_signal): Slurm 22.05's answers for a job that
// is not there, another user's, a pending one, a step that is not there; the order to the
// step's nodes alone; and the step's end recorded CANCELLED with its exit, its job running on.
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace mc;
using proto::Json;
using namespace mc::test;

class StepSignalTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void aStepIsCancelledOnItsNodesAndEndsCancelled();
    void errorsAreSlurmsAndNameTheJobOnlyWhenItIsThere();

private:
    Json call(const Json &r, sched::Seconds now = 102) { return m_ctl->handleRequest(r, now); }
    // Step `step` of job 1 asked for by `user` with `signal`.
    Json stepSignal(const char *job, int step, const char *user, int signal = SIGKILL)
    {
        return call(request("step_signal",
            fields({{"job", job}, {"step_id", step}, {"signal", signal}, {"user", user}})));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

void StepSignalTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    std::string error;
    m_ctl = openController(*m_dir, m_store, m_gateway, kTwoNodeConf, kTwoUsers, error);
    QVERIFY2(error.empty(), error.c_str());
    Json hello = Json::object();
    hello.set("op", "node_register");
    m_ctl->nodeRegistered("cn01", hello, 100);
    m_ctl->nodeRegistered("cn02", hello, 100);
    // Job 1 runs two steps on cn01 (0 and 1) from 101 on; job 2 is held.
    call(submitRequest("alice", 2), 100);
    call(submitRequest("alice", 1, fields({{"hold", true}})), 100);
    m_ctl->schedule(101);
    for (int step = 0; step < 2; ++step) {
        Json created = call(request("step_create",
            fields({{"job_id", 1}, {"user", "alice"}, {"ntasks", 1}, {"name", "sleep"}})));
        QVERIFY2(created["ok"].toBool(), created.dump().c_str());
        QCOMPARE(created["step_id"].toInt(), step);
    }
    m_gateway.orders.clear();
}

void StepSignalTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void StepSignalTest::aStepIsCancelledOnItsNodesAndEndsCancelled()
{
    Json reply = stepSignal("1", 0, "alice");
    QVERIFY2(reply["ok"].toBool(), reply.dump().c_str());
    // One order, to the step's node, naming the step, a cancel.
    QCOMPARE(m_gateway.orders.size(), std::size_t{1});
    QCOMPARE(m_gateway.orders[0].first, std::string("cn01"));
    const Json &order = m_gateway.orders[0].second;
    QCOMPARE(order["op"].toString(), std::string("signal"));
    QCOMPARE(order["step_id"].toInt(), 0);
    QCOMPARE(order["signal"].toInt(), SIGKILL);
    QVERIFY(order["cancel"].toBool());
    // srun reports its killed task: the step ends CANCELLED 0:9, the job and step 1 run on.
    call(request("step_end",
        fields({{"job_id", 1}, {"step_id", 0}, {"exit_code", 0}, {"exit_signal", SIGKILL}})));
    Json acct = call(request("acct", fields({{"job_ids", ids({1})}})));
    QCOMPARE(acct["jobs"].size(), 1u);
    const Json &job = acct["jobs"].items().front();
    QCOMPARE(job["state"].toString(), std::string("RUNNING"));
    bool seen = false;
    for (const auto &step : job["steps"].items()) {
        if (step["step"].toString() == "0") {
            seen = true;
            QCOMPARE(step["state"].toString(), std::string("CANCELLED"));
            QCOMPARE(step["exit_signal"].toInt(), SIGKILL);
        }
    }
    QVERIFY(seen);
    Json steps = call(request("steps", fields({{"job_ids", ids({1})}})));
    std::vector<std::string> running;
    for (const auto &step : steps["steps"].items()) {
        running.push_back(step["step_id"].toString());
    }
    QCOMPARE(running, (std::vector<std::string>{"batch", "1"}));
    // A signal other than SIGKILL is no cancel: step 1 ends as its exit says.
    QVERIFY(stepSignal("1", 1, "alice", SIGUSR1)["ok"].toBool());
    QVERIFY(!m_gateway.orders.back().second["cancel"].toBool());
    call(request(
        "step_end", fields({{"job_id", 1}, {"step_id", 1}, {"exit_code", 0}, {"exit_signal", 0}})));
    acct = call(request("acct", fields({{"job_ids", ids({1})}})));
    for (const auto &step : acct["jobs"].items().front()["steps"].items()) {
        if (step["step"].toString() == "1") {
            QCOMPARE(step["state"].toString(), std::string("COMPLETED"));
        }
    }
}

void StepSignalTest::errorsAreSlurmsAndNameTheJobOnlyWhenItIsThere()
{
    // No such job: Slurm's error, the job not named (scancel then names the step).
    Json reply = stepSignal("99", 0, "alice");
    QCOMPARE(reply["error"].toString(), std::string("Invalid job id specified"));
    QCOMPARE(reply["errno"].toInt(), 2017);
    QVERIFY(!reply["job_id"].isNumber());
    // Another user's job: "Invalid user id" (ESLURM_USER_ID_MISSING), the job named.
    reply = stepSignal("1", 0, "bob");
    QCOMPARE(reply["error"].toString(), std::string("Invalid user id"));
    QCOMPARE(reply["errno"].toInt(), 2010);
    QCOMPARE(reply["job_id"].toInt(), 1);
    // A running job without that step: Invalid job id, the job named.
    reply = stepSignal("1", 7, "alice");
    QCOMPARE(reply["errno"].toInt(), 2017);
    QCOMPARE(reply["job_id"].toInt(), 1);
    // A pending job's step: success, nothing sent.
    QVERIFY(stepSignal("2", 0, "alice")["ok"].toBool());
    QVERIFY(m_gateway.orders.empty());
}

QTEST_APPLESS_MAIN(StepSignalTest)
#include "step_signal_test.moc"
