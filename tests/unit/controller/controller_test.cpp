// The controller without sockets: requests in, orders to a recording gateway out (the seam).
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace mc;
using proto::Json;
using namespace mc::test;

namespace {

Json registration(const std::string &node)
{
    return request("node_register", fields({{"node", node}}));
}

} // namespace

class ControllerTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void submittedJobIsCommittedBeforeTheReply();
    void jobStartsOnFirstFreeNodeAndCompletes();
    void secondJobWaitsForResourcesWhenNodesAreFull();
    void badPartitionIsRefusedWithSlurmsWords();
    void refusalsAfterTheIdAndTestOnlyUseUpAJobIdAsSlurms();
    void cancellingARunningJobSignalsItsNodeAndEndsCancelled();
    void onlyTheOwnerMayCancel();
    void restartedControllerKeepsQueueAndNextId();
    void nodeThatForgotAJobEndsItAsNodeFail();
    void lostNodeDaemonRequeuesJobsByDefault();
    void timeoutReportEndsTimeoutWithCancelledBatchStep();
    void oomReportEndsOutOfMemoryWith125AndKeepsUsage();
    void nodesSayHowTheyEnforceLimits();
    void prologFlagsContainIsRecognized();
    void externStepIsRecordedWhenPrologFlagsAskForIt();

private:
    std::unique_ptr<ctl::Controller> makeController();
    Json call(const Json &request, sched::Seconds now = 100)
    {
        return m_ctl->handleRequest(request, now);
    }
    Json job(std::int64_t id)
    {
        Json r = Json::object();
        r.set("op", "jobs");
        Json ids = Json::array();
        ids.push(id);
        r.set("job_ids", ids);
        return call(r)["jobs"].items().at(0);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

std::unique_ptr<ctl::Controller> ControllerTest::makeController()
{
    std::string error;
    return openController(*m_dir, m_store, m_gateway, kTwoNodeConf, kTwoUsers, error);
}

void ControllerTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_gateway.orders.clear();
    m_ctl = makeController();
    m_ctl->nodeRegistered("cn01", registration("cn01"), 100);
    m_ctl->nodeRegistered("cn02", registration("cn02"), 100);
}

void ControllerTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void ControllerTest::submittedJobIsCommittedBeforeTheReply()
{
    Json reply = call(submitRequest("alice", 1));
    QVERIFY(reply["ok"].toBool());
    QCOMPARE(reply["job_id"].toInt(), 1);
    // A second store on the same file sees it at once: the commit happened before the reply.
    acct::JobStore other;
    std::string error;
    QVERIFY(other.open(m_dir->path().toStdString() + "/ctld.sqlite", error));
    auto jobs = other.loadUnfinished(error);
    QCOMPARE(jobs.size(), 1u);
    QCOMPARE(QString::fromStdString(jobs[0].spec.account), QStringLiteral("def-prof"));
    QCOMPARE(QString::fromStdString(jobs[0].spec.partition), QStringLiteral("cpu"));
}

void ControllerTest::jobStartsOnFirstFreeNodeAndCompletes()
{
    call(submitRequest("alice", 2));
    QCOMPARE(QString::fromStdString(job(1)["state"].toString()), QStringLiteral("PENDING"));
    m_ctl->schedule(101);
    QCOMPARE(m_gateway.orders.size(), 1u);
    QCOMPARE(QString::fromStdString(m_gateway.orders[0].first), QStringLiteral("cn01"));
    const Json &launch = m_gateway.orders[0].second;
    QCOMPARE(QString::fromStdString(launch["op"].toString()), QStringLiteral("launch"));
    QCOMPARE(launch["job"]["cpus_on_node"].toInt(), 2);
    QCOMPARE(launch["job"]["mem_per_node_resolved"].toInt(), 2000);
    QCOMPARE(QString::fromStdString(job(1)["state"].toString()), QStringLiteral("RUNNING"));

    m_ctl->nodeReport("cn01", jobEnded(1, 200, 0), 105);
    Json done = job(1);
    QCOMPARE(QString::fromStdString(done["state"].toString()), QStringLiteral("COMPLETED"));
    QCOMPARE(m_gateway.orders.back().second["op"].toString(), std::string("job_end_ack"));

    Json acct = Json::object();
    acct.set("op", "acct");
    Json rows = call(acct)["jobs"];
    QCOMPARE(rows.size(), 1u);
    QCOMPARE(rows.items()[0]["steps"].items()[0]["state"].toString(), std::string("COMPLETED"));
}

void ControllerTest::secondJobWaitsForResourcesWhenNodesAreFull()
{
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4));
    call(submitRequest("bob", 1));
    m_ctl->schedule(101);
    QCOMPARE(job(1)["state"].toString(), std::string("RUNNING"));
    QCOMPARE(job(2)["state"].toString(), std::string("RUNNING"));
    QCOMPARE(job(3)["reason"].toString(), std::string("Resources"));
    QCOMPARE(job(4)["reason"].toString(), std::string("Priority"));

    m_ctl->nodeReport("cn01", jobEnded(1, 200, 3), 150);
    QCOMPARE(job(1)["state"].toString(), std::string("FAILED"));
    QCOMPARE(job(1)["exit_code"].toInt(), 3);
    QCOMPARE(job(3)["state"].toString(), std::string("RUNNING"));
}

void ControllerTest::badPartitionIsRefusedWithSlurmsWords()
{
    Json reply = call(submitRequest("alice", 1, fields({{"partition", "nosuch"}})));
    QVERIFY(!reply["ok"].toBool());
    QCOMPARE(reply["error"].toString(), std::string("Invalid partition name specified"));
    Json tooBig = call(submitRequest("alice", 64));
    QCOMPARE(
        tooBig["error"].toString(), std::string("Requested node configuration is not available"));
    Json nobody = call(submitRequest("mallory", 1));
    QCOMPARE(nobody["error"].toString(), std::string("Invalid user id"));
}

void ControllerTest::refusalsAfterTheIdAndTestOnlyUseUpAJobIdAsSlurms()
{
    const auto error = [this](const Json &extra) {
        return call(submitRequest("alice", 1, extra))["error"].toString();
    };
    // Refused before slurmctld gives an id: the next job still gets 1.
    QCOMPARE(error(fields({{"node_list", proto::stringList({"cn99"})}})),
        std::string("Invalid node name specified"));
    QCOMPARE(error(fields({{"nice", -10}})), std::string("Invalid --nice value"));
    QCOMPARE(call(submitRequest("alice", 1))["job_id"].toInt(), 1);
    // Refused once the job has its id (2, 3, 4, then 5 answered by --test-only): used up.
    QCOMPARE(error(fields({{"exclude", proto::stringList({"cn01", "cn02"})}})),
        std::string("Requested node configuration is not available"));
    QCOMPARE(
        error(fields({{"constraint", "bigmem"}})), std::string("Invalid feature specification"));
    QCOMPARE(error(fields({{"dependency", "afterok"}})), std::string("Job dependency problem"));
    QCOMPARE(call(submitRequest("alice", 1, fields({{"test_only", true}})))["job_id"].toInt(), 5);
    QCOMPARE(call(submitRequest("alice", 1))["job_id"].toInt(), 6);
    // A restarted controller goes on from there, as slurmctld's saved state does.
    m_ctl.reset();
    m_store.reset();
    m_ctl = makeController();
    QCOMPARE(error(fields({{"exclude", proto::stringList({"cn01", "cn02"})}})),
        std::string("Requested node configuration is not available"));
    QCOMPARE(call(submitRequest("alice", 1))["job_id"].toInt(), 8);
}

void ControllerTest::cancellingARunningJobSignalsItsNodeAndEndsCancelled()
{
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    Json cancel = Json::object();
    cancel.set("op", "cancel");
    cancel.set("user", "alice");
    Json ids = Json::array();
    ids.push(1);
    cancel.set("job_ids", ids);
    Json reply = call(cancel);
    QCOMPARE(reply["results"].size(), 0u);
    QCOMPARE(job(1)["state"].toString(), std::string("COMPLETING"));
    QCOMPARE(m_gateway.orders.back().second["op"].toString(), std::string("signal"));
    QVERIFY(m_gateway.orders.back().second["cancel"].toBool());

    m_ctl->nodeReport("cn01", jobEnded(1, 200, 0, SIGTERM), 110);
    QCOMPARE(job(1)["state"].toString(), std::string("CANCELLED"));
    QCOMPARE(job(1)["exit_signal"].toInt(), 0);
}

void ControllerTest::onlyTheOwnerMayCancel()
{
    call(submitRequest("alice", 1));
    Json cancel = Json::object();
    cancel.set("op", "cancel");
    cancel.set("user", "bob");
    Json ids = Json::array();
    ids.push(1);
    ids.push(99);
    cancel.set("job_ids", ids);
    Json results = call(cancel)["results"];
    QCOMPARE(results.size(), 2u);
    QCOMPARE(results.items()[0]["error"].toString(), std::string("Access/permission denied"));
    QCOMPARE(results.items()[1]["error"].toString(), std::string("Invalid job id specified"));
    QCOMPARE(job(1)["state"].toString(), std::string("PENDING"));
}

void ControllerTest::restartedControllerKeepsQueueAndNextId()
{
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4));
    m_ctl->schedule(101);
    m_ctl.reset(); // the controller dies
    m_ctl = makeController();
    m_ctl->nodeRegistered(
        "cn01",
        [] {
            Json m = registration("cn01");
            Json running = Json::array();
            running.push(1);
            m.set("running", running);
            return m;
        }(),
        120);
    QCOMPARE(job(1)["state"].toString(), std::string("RUNNING"));
    QCOMPARE(job(3)["state"].toString(), std::string("PENDING"));
    QCOMPARE(call(submitRequest("alice", 1))["job_id"].toInt(), 4);
}

void ControllerTest::nodeThatForgotAJobEndsItAsNodeFail()
{
    Json request = submitRequest("alice", 1);
    Json spec = request["job"];
    spec.set("requeue", false); // sbatch --no-requeue
    request.set("job", spec);
    call(request);
    m_ctl->schedule(101);
    m_ctl->nodeLost("cn01", 110);
    m_ctl->nodeRegistered("cn01", registration("cn01"), 120); // comes back without job 1
    QCOMPARE(job(1)["state"].toString(), std::string("NODE_FAIL"));
}

void ControllerTest::lostNodeDaemonRequeuesJobsByDefault()
{
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    QCOMPARE(job(1)["nodes"].toStringList(), std::vector<std::string>{"cn01"});
    m_ctl->nodeLost("cn01", 110); // RUNNING until cn01's next daemon says it is gone
    QCOMPARE(job(1)["state"].toString(), std::string("RUNNING"));
    QCOMPARE(job(1)["nodes"].toStringList(), std::vector<std::string>{"cn01"});
    m_ctl->nodeRegistered("cn01", registration("cn01"), 120); // JobRequeue=1: back to the queue
    QCOMPARE(job(1)["state"].toString(), std::string("PENDING"));
    QCOMPARE(job(1)["reason"].toString(), std::string("BeginTime")); // the requeue delay
    m_ctl->schedule(120 + 121);
    QCOMPARE(job(1)["state"].toString(), std::string("RUNNING"));
    QCOMPARE(job(1)["restarts"].toInt(), 1);
    QCOMPARE(m_gateway.orders.back().second["op"].toString(), std::string("launch"));
}

void ControllerTest::timeoutReportEndsTimeoutWithCancelledBatchStep()
{
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    Json report = jobEnded(1, 200, 0, SIGTERM);
    report.set("timeout", true);
    m_ctl->nodeReport("cn01", report, 200);
    Json j = job(1);
    QCOMPARE(j["state"].toString(), std::string("TIMEOUT"));
    QCOMPARE(j["reason"].toString(), std::string("TimeLimit"));
    QCOMPARE(j["exit_code"].toInt(), 0);
    QCOMPARE(j["exit_signal"].toInt(), 0);
    Json acct = Json::object();
    acct.set("op", "acct");
    Json step = call(acct)["jobs"].items().at(0)["steps"].items().at(0);
    QCOMPARE(step["step"].toString(), std::string("batch"));
    QCOMPARE(step["state"].toString(), std::string("CANCELLED"));
    QCOMPARE(step["exit_signal"].toInt(), static_cast<std::int64_t>(SIGTERM));
}

void ControllerTest::oomReportEndsOutOfMemoryWith125AndKeepsUsage()
{
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    Json report = jobEnded(1, 200, 0);
    report.set("oom", true);
    Json usage = Json::object();
    usage.set("total_cpu_ms", 1234);
    usage.set("max_rss_kb", 102400);
    usage.set("ave_rss_kb", 51200);
    report.set("usage", usage);
    m_ctl->nodeReport("cn01", report, 200);
    Json j = job(1);
    QCOMPARE(j["state"].toString(), std::string("OUT_OF_MEMORY"));
    QCOMPARE(j["reason"].toString(), std::string("OutOfMemory"));
    QCOMPARE(j["exit_signal"].toInt(), 125);
    Json acct = Json::object();
    acct.set("op", "acct");
    Json step = call(acct)["jobs"].items().at(0)["steps"].items().at(0);
    QCOMPARE(step["state"].toString(), std::string("OUT_OF_MEMORY"));
    QCOMPARE(step["exit_code"].toInt(), 0);
    QCOMPARE(step["exit_signal"].toInt(), 125);
    QCOMPARE(step["total_cpu_ms"].toInt(), 1234);
    QCOMPARE(step["max_rss_kb"].toInt(), 102400);
    QCOMPARE(step["ave_rss_kb"].toInt(), 51200);
    QCOMPARE(m_gateway.orders.back().second["op"].toString(), std::string("job_end_ack"));
}

void ControllerTest::nodesSayHowTheyEnforceLimits()
{
    Json hello = registration("cn02");
    hello.set("limits", "cgroup-v1");
    hello.set("limits_detail", "cgroup v1 as root");
    m_ctl->nodeRegistered("cn02", hello, 120);
    Json request = Json::object();
    request.set("op", "cluster");
    Json nodes = call(request)["nodes"];
    QCOMPARE(nodes.items().at(0)["name"].toString(), std::string("cn01"));
    QCOMPARE(nodes.items().at(0)["limits"].toString(), std::string());
    QCOMPARE(nodes.items().at(1)["limits"].toString(), std::string("cgroup-v1"));
    QCOMPARE(nodes.items().at(1)["limits_detail"].toString(), std::string("cgroup v1 as root"));
}

void ControllerTest::prologFlagsContainIsRecognized()
{
    QVERIFY(ctl::prologFlagsContain("ClusterName=a\nPrologFlags=Contain\n"));
    QVERIFY(ctl::prologFlagsContain("prologflags=Alloc,contain,X11 # Alliance\n"));
    QVERIFY(!ctl::prologFlagsContain("PrologFlags=Alloc\n"));
    QVERIFY(!ctl::prologFlagsContain("# PrologFlags=Contain\n"));
    QVERIFY(!ctl::prologFlagsContain("ClusterName=a\n"));
}

void ControllerTest::externStepIsRecordedWhenPrologFlagsAskForIt()
{
    m_ctl->setExternSteps(true);
    call(submitRequest("alice", 2));
    m_ctl->schedule(101);
    m_ctl->nodeReport("cn01", jobEnded(1, 200, 0), 200);
    Json acct = Json::object();
    acct.set("op", "acct");
    auto steps = call(acct)["jobs"].items().at(0)["steps"].items();
    QCOMPARE(steps.size(), 2u);
    QCOMPARE(steps.at(0)["step"].toString(), std::string("batch"));
    QCOMPARE(steps.at(1)["step"].toString(), std::string("extern"));
    QCOMPARE(steps.at(1)["state"].toString(), std::string("COMPLETED"));
    QCOMPARE(steps.at(1)["num_cpus"].toInt(), 2);
    QCOMPARE(steps.at(1)["start_time"].toInt(), 101);
    QCOMPARE(steps.at(1)["end_time"].toInt(), 200);
}

QTEST_APPLESS_MAIN(ControllerTest)
#include "controller_test.moc"
