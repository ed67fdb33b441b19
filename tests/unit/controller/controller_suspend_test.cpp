// scontrol suspend/resume and LSF's bstop/bresume at the controller (controller_suspend.cpp):
// who may, Slurm 22.05's words for each refusal (as real slurmctld answered them), the orders
// sent to the nodes, and a time limit that does not run while the job is suspended.
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace mc;
using proto::Json;
using namespace mc::test;

class ControllerSuspendTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void operatorSuspendsAndResumesAndUsersAreRefused();
    void refusalsUseSlurmsWords();
    void ownerMaySuspendOnlyWhenAskedAsLsf();
    void timeLimitDoesNotRunWhileSuspended();
    void cancelOfASuspendedJobEndsItsSuspension();

private:
    Json call(const Json &r, sched::Seconds now) { return m_ctl->handleRequest(r, now); }
    Json act(
        const char *op, const char *user, std::int64_t id, sched::Seconds now, bool owner = false)
    {
        Json body = fields({{"job_ids", ids({id})}, {"user", user}});
        if (owner) {
            body.set("owner", true);
        }
        return call(request(op, body), now);
    }
    Json job(std::int64_t id, sched::Seconds now)
    {
        return call(request("jobs", fields({{"job_ids", ids({id})}})), now)["jobs"].items().at(0);
    }
    // The one failure of a reply, "" when none.
    static std::string failure(const Json &reply)
    {
        const auto &results = reply["results"].items();
        return results.empty() ? std::string() : results.at(0)["error"].toString();
    }
    // A job of alice's with a limit of `limit` seconds, started at 101.
    void startJob(sched::Seconds limit)
    {
        call(submitRequest("alice", 1, fields({{"time_limit", limit}})), 100);
        m_ctl->schedule(101);
        QCOMPARE(job(1, 101)["state"].toString(), std::string("RUNNING"));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

void ControllerSuspendTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_gateway.orders.clear();
    std::string error;
    m_ctl = openController(*m_dir, m_store, m_gateway, kTwoNodeConf, kTwoUsers, error);
    QVERIFY2(error.empty(), error.c_str());
    Json hello = request("node_register");
    m_ctl->nodeRegistered("cn01", hello, 100);
    m_ctl->nodeRegistered("cn02", hello, 100);
}

void ControllerSuspendTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void ControllerSuspendTest::operatorSuspendsAndResumesAndUsersAreRefused()
{
    startJob(600);
    // Real Slurm 22.05: a plain user, even the job's owner, is refused job by job.
    Json reply = act("suspend", "alice", 1, 105);
    QCOMPARE(failure(reply), std::string("Access/permission denied"));
    QCOMPARE(reply["results"].items().at(0)["errno"].toInt(), 2002);
    QCOMPARE(job(1, 105)["state"].toString(), std::string("RUNNING"));

    const std::size_t before = m_gateway.orders.size();
    QCOMPARE(failure(act("suspend", "root", 1, 111)), std::string());
    Json j = job(1, 111);
    QCOMPARE(j["state"].toString(), std::string("SUSPENDED"));
    QCOMPARE(j["state_short"].toString(), std::string("S"));
    QCOMPARE(j["reason"].toString(), std::string("None"));
    QCOMPARE(j["suspend_time"].toInt(), 111);
    QCOMPARE(j["suspended"].toInt(), 0);
    QCOMPARE(m_gateway.orders.size(), before + 1);
    QCOMPARE(m_gateway.orders.back().first, std::string("cn01"));
    QCOMPARE(m_gateway.orders.back().second["op"].toString(), std::string("suspend"));
    QCOMPARE(m_gateway.orders.back().second["resume"].toBool(), false);

    // Suspending it again is no error, and no order (Slurm says nothing, exits 0).
    QCOMPARE(failure(act("suspend", "root", 1, 120)), std::string());
    QCOMPARE(m_gateway.orders.size(), before + 1);
    QCOMPARE(failure(act("resume", "bob", 1, 130)), std::string("Access/permission denied"));

    QCOMPARE(failure(act("resume", "root", 1, 151)), std::string());
    j = job(1, 151);
    QCOMPARE(j["state"].toString(), std::string("RUNNING"));
    QCOMPARE(j["suspend_time"].toInt(), 151); // the last suspension or resumption
    QCOMPARE(j["suspended"].toInt(), 40);
    QCOMPARE(m_gateway.orders.back().second["resume"].toBool(), true);
    // The store has it: a restarted controller keeps the suspended seconds.
    m_ctl.reset();
    std::string error;
    m_ctl = openController(*m_dir, m_store, m_gateway, kTwoNodeConf, kTwoUsers, error);
    QCOMPARE(job(1, 160)["suspended"].toInt(), 40);
}

void ControllerSuspendTest::refusalsUseSlurmsWords()
{
    startJob(600);
    Json reply = act("resume", "root", 1, 110);
    QCOMPARE(failure(reply), std::string("Job is not suspended"));
    QCOMPARE(reply["results"].items().at(0)["errno"].toInt(), 2087);
    reply = act("suspend", "root", 99, 110);
    QCOMPARE(failure(reply), std::string("Unexpected message received"));
    QCOMPARE(reply["results"].items().at(0)["errno"].toInt(), 1000);
    QCOMPARE(failure(act("suspend", "alice", 99, 110)), std::string("Unexpected message received"));
    call(submitRequest("alice", 1, fields({{"hold", true}})), 110);
    QCOMPARE(failure(act("suspend", "root", 2, 111)), std::string("Job is pending execution"));
    QCOMPARE(failure(act("resume", "root", 2, 111)), std::string("Job is pending execution"));
    m_ctl->nodeReport("cn01", jobEnded(1, 120), 120);
    QCOMPARE(failure(act("suspend", "root", 1, 121)),
        std::string("Job/step already completing or completed"));
}

void ControllerSuspendTest::ownerMaySuspendOnlyWhenAskedAsLsf()
{
    startJob(600);
    QCOMPARE(failure(act("suspend", "bob", 1, 110, true)), std::string("Access/permission denied"));
    QCOMPARE(failure(act("suspend", "alice", 1, 110, true)), std::string());
    QCOMPARE(job(1, 110)["state"].toString(), std::string("SUSPENDED"));
    QCOMPARE(failure(act("resume", "alice", 1, 120, true)), std::string());
    QCOMPARE(job(1, 120)["state"].toString(), std::string("RUNNING"));
}

void ControllerSuspendTest::timeLimitDoesNotRunWhileSuspended()
{
    startJob(60); // started at 101: its limit would come at 161
    act("suspend", "root", 1, 111);
    m_ctl->enforceTimeLimits(200);
    QCOMPARE(job(1, 200)["state"].toString(), std::string("SUSPENDED"));
    QVERIFY(!m_ctl->nextTimeEvent(200)); // nothing to wait for while it is suspended
    act("resume", "root", 1, 300); // 189 s suspended: the limit is now at 350
    QCOMPARE(m_ctl->nextTimeEvent(300), std::optional<sched::Seconds>(350));
    m_ctl->enforceTimeLimits(349);
    QCOMPARE(job(1, 349)["state"].toString(), std::string("RUNNING"));
    m_ctl->enforceTimeLimits(350);
    Json j = job(1, 350);
    QCOMPARE(j["state"].toString(), std::string("COMPLETING"));
    QCOMPARE(j["reason"].toString(), std::string("TimeLimit"));
    QCOMPARE(j["end_time"].toInt(), 350);
    QCOMPARE(m_gateway.orders.back().second["signal"].toInt(), std::int64_t{SIGTERM});
}

void ControllerSuspendTest::cancelOfASuspendedJobEndsItsSuspension()
{
    startJob(600);
    act("suspend", "root", 1, 111);
    Json cancel = request("cancel", fields({{"job_ids", ids({1})}, {"user", "alice"}}));
    QCOMPARE(call(cancel, 131)["results"].size(), 0u);
    QCOMPARE(job(1, 131)["state"].toString(), std::string("COMPLETING"));
    QCOMPARE(m_gateway.orders.back().second["cancel"].toBool(), true);
    m_ctl->nodeReport("cn01", jobEnded(1, 132, 0, SIGKILL), 132);
    Json j = job(1, 132);
    QCOMPARE(j["state"].toString(), std::string("CANCELLED"));
    QCOMPARE(j["suspended"].toInt(), 20); // from 111 to the cancel at 131
}

QTEST_APPLESS_MAIN(ControllerSuspendTest)
#include "controller_suspend_test.moc"
