// Dependencies that stay true (issue #17): a dependency is decided by how its target ended, read
// from the store once the target has left the controller's memory (MinJobAge) or the controller
// restarted; kill_invalid_depend cancels what can never run; cycles are refused with Slurm's
// words on submission and on `scontrol update`. Also the timing keys of slurm.conf the
// controller honours (MinJobAge, OverTimeLimit) and shows (scontrol show config).
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace mc;
using proto::Json;
using namespace mc::test;

namespace {

// MinJobAge of a minute: finished jobs leave memory 60 s after their end.
const char *const kConf = R"(ClusterName=test
DefMemPerCPU=1000
MinJobAge=60
NodeName=cn[01-02] CPUs=4 RealMemory=8000
PartitionName=cpu Nodes=cn[01-02] Default=YES DefaultTime=01:00:00 MaxTime=1-00:00:00
)";

} // namespace

class ControllerDependencyTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void outcomesSurviveMinJobAgeAndARestart();
    void arrayOutcomeSurvivesMinJobAge();
    void killInvalidDependCancelsTheJob();
    void cyclesAreRefusedOnUpdateAndSubmission();
    void longChainWithoutCycleIsAccepted();
    void timingKeysAreReadShownAndHonoured();

private:
    void start(const char *conf);
    Json call(const Json &r, sched::Seconds now = 100) { return m_ctl->handleRequest(r, now); }
    Json job(std::int64_t id, sched::Seconds now = 100)
    {
        auto reply = call(request("jobs", fields({{"job_ids", ids({id})}})), now);
        for (const auto &j : reply["jobs"].items()) {
            if (j["job_id"].toInt() == id) {
                return j;
            }
        }
        return Json();
    }
    std::string state(std::int64_t id) { return job(id)["state"].toString(); }
    std::string reason(std::int64_t id) { return job(id)["reason"].toString(); }
    // The job's node reports its end.
    void end(std::int64_t id, sched::Seconds at, int exitCode)
    {
        const std::string host = job(id)["batch_host"].toString();
        QVERIFY2(!host.empty(), "the job runs somewhere");
        m_ctl->nodeReport(host, jobEnded(id, at, exitCode), at);
    }
    std::int64_t submit(const char *dependency, const Json &extra = Json::object())
    {
        Json spec = extra.isObject() ? extra : Json::object();
        if (dependency) {
            spec.set("dependency", dependency);
        }
        const Json reply = call(submitRequest("alice", 1, spec));
        return reply["ok"].toBool() ? reply["job_id"].toInt() : -1;
    }
    // The state a finished job has in accounting (sacct).
    std::string accounted(std::int64_t id, sched::Seconds now)
    {
        const Json reply = call(request("acct", fields({{"job_ids", ids({id})}})), now);
        for (const auto &j : reply["jobs"].items()) {
            if (j["job_id"].toInt() == id) {
                return j["state"].toString();
            }
        }
        return {};
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

void ControllerDependencyTest::start(const char *conf)
{
    m_ctl.reset();
    std::string error;
    m_ctl = openController(*m_dir, m_store, m_gateway, conf, kTwoUsers, error);
    QVERIFY2(error.empty(), error.c_str());
    Json hello = Json::object();
    hello.set("op", "node_register");
    Json running = Json::array();
    for (const auto &[node, order] : m_gateway.orders) {
        if (order["op"].toString() == "launch") {
            running.push(order["job"]["job_id"]);
        }
    }
    hello.set("running", running); // a restarted controller finds its running jobs alive
    m_ctl->nodeRegistered("cn01", hello, 100);
    m_ctl->nodeRegistered("cn02", hello, 100);
}

void ControllerDependencyTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_gateway.orders.clear();
    start(kConf);
}

void ControllerDependencyTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void ControllerDependencyTest::outcomesSurviveMinJobAgeAndARestart()
{
    const auto failed = submit(nullptr); // 1: exits 2
    const auto fine = submit(nullptr); // 2: exits 0
    m_ctl->schedule(101);
    end(failed, 110, 2);
    end(fine, 110, 0);
    const auto ok = submit("afterok:1"); // 3: never
    const auto notOk = submit("afternotok:2"); // 4: never
    const auto hold = Json(fields({{"hold", true}}));
    const auto any = submit("afterany:1", hold); // 5: satisfied, held so it stays to be seen
    const auto notOkFailed = submit("afternotok:1", hold); // 6: satisfied
    const auto okFine = submit("afterok:2", hold); // 7: satisfied
    const auto both = submit("afterok:2?afterok:1", hold); // 8: one suffices
    m_ctl->schedule(111);
    QCOMPARE(reason(ok), std::string("DependencyNeverSatisfied"));
    QCOMPARE(job(ok)["dependency"].toString(), std::string("afterok:1(failed)"));
    QCOMPARE(reason(notOk), std::string("DependencyNeverSatisfied"));

    // MinJobAge passes: 1 and 2 leave the controller's memory (squeue no longer knows them).
    m_ctl->purgeOldJobs(171);
    QVERIFY(job(failed).isNull());
    QVERIFY(job(fine).isNull());
    QCOMPARE(accounted(failed, 171), std::string("FAILED")); // the store still has them
    m_ctl->schedule(172);
    QCOMPARE(state(ok), std::string("PENDING"));
    QCOMPARE(reason(ok), std::string("DependencyNeverSatisfied"));
    QCOMPARE(job(ok)["dependency"].toString(), std::string("afterok:1(failed)"));
    QCOMPARE(reason(notOk), std::string("DependencyNeverSatisfied"));
    QCOMPARE(job(notOk)["dependency"].toString(), std::string("afternotok:2(failed)"));
    for (auto id : {any, notOkFailed, okFine, both}) {
        QCOMPARE(reason(id), std::string("JobHeldUser"));
    }
    // A job submitted now on the long-gone failed job cannot run either.
    const auto late = submit("afterok:1"); // 9
    m_ctl->schedule(173);
    QCOMPARE(reason(late), std::string("DependencyNeverSatisfied"));

    // A restart reloads only unfinished jobs: the outcomes still come from the store.
    start(kConf);
    m_ctl->schedule(200);
    for (auto id : {ok, notOk, late}) {
        QCOMPARE(state(id), std::string("PENDING"));
        QCOMPARE(reason(id), std::string("DependencyNeverSatisfied"));
    }
    // Released, the satisfied ones run.
    for (auto id : {any, notOkFailed, okFine, both}) {
        call(request("release", fields({{"user", "alice"}, {"job_ids", ids({id})}})), 201);
    }
    m_ctl->schedule(202);
    for (auto id : {any, notOkFailed, okFine, both}) {
        QCOMPARE(state(id), std::string("RUNNING"));
    }
    QCOMPARE(state(ok), std::string("PENDING"));
}

void ControllerDependencyTest::arrayOutcomeSurvivesMinJobAge()
{
    const auto array = submit(nullptr, fields({{"array", "1-2"}})); // 1; tasks 1 (id 2), 2 (1)
    m_ctl->schedule(101);
    std::map<std::int64_t, std::int64_t> idOfTask;
    const Json all = call(request("jobs"));
    for (const auto &j : all["jobs"].items()) {
        idOfTask[j["array_task_id"].toInt()] = j["job_id"].toInt();
    }
    QCOMPARE(idOfTask.size(), std::size_t(2));
    end(idOfTask[1], 110, 0);
    end(idOfTask[2], 110, 1); // one task fails: afterok on the array never holds
    const auto ok = submit("afterok:1");
    const auto any = submit("afterany:1");
    m_ctl->purgeOldJobs(200);
    QVERIFY(job(array).isNull());
    m_ctl->schedule(201);
    QCOMPARE(reason(ok), std::string("DependencyNeverSatisfied"));
    QCOMPARE(state(any), std::string("RUNNING"));
}

void ControllerDependencyTest::killInvalidDependCancelsTheJob()
{
    start(R"(ClusterName=test
DefMemPerCPU=1000
SchedulerParameters=bf_continue,kill_invalid_depend
NodeName=cn[01-02] CPUs=4 RealMemory=8000
PartitionName=cpu Nodes=cn[01-02] Default=YES DefaultTime=01:00:00 MaxTime=1-00:00:00
)");
    const auto parent = submit(nullptr);
    const auto child = submit("afterok:1");
    m_ctl->schedule(101);
    QCOMPARE(reason(child), std::string("Dependency"));
    end(parent, 120, 3);
    m_ctl->schedule(121);
    QCOMPARE(state(child), std::string("CANCELLED"));
    QCOMPARE(reason(child), std::string("DependencyNeverSatisfied"));
    QCOMPARE(job(child)["end_time"].toInt(), 120); // at the pass that judged it
    QCOMPARE(accounted(child, 121), std::string("CANCELLED"));
}

void ControllerDependencyTest::cyclesAreRefusedOnUpdateAndSubmission()
{
    const Json hold = fields({{"hold", true}});
    const auto a = submit(nullptr, hold); // 1
    const auto b = submit("afterok:1", hold); // 2
    const auto c = submit("afterany:2", hold); // 3
    auto update = [this](std::int64_t id, const char *dependency) {
        return call(request("update",
            fields({{"job_id", id}, {"user", "alice"},
                {"fields", fields({{"dependency", dependency}})}})));
    };
    for (const auto &[id, text] :
        std::vector<std::pair<std::int64_t, const char *>>{{a, "afterok:2"}, // A -> B -> A
            {a, "afterany:3"}, // A -> C -> B -> A
            {a, "afterok:1"}, // itself
            {b, "afterok:1?after:2"}}) { // itself, in an OR list
        const Json r = update(id, text);
        QVERIFY2(!r["ok"].toBool(), text);
        QCOMPARE(r["error"].toString(), std::string("Circular job dependency"));
        QCOMPARE(r["errno"].toInt(), 2071);
    }
    QCOMPARE(job(a)["dependency"].toString(), std::string()); // unchanged
    QVERIFY(update(c, "afterok:1")["ok"].toBool()); // no cycle: accepted

    // sbatch: the new job's own id (the next one) is a dependency on itself.
    const Json self = call(submitRequest("alice", 1, fields({{"dependency", "afterok:4"}})));
    QVERIFY(!self["ok"].toBool());
    QCOMPARE(self["error"].toString(), std::string("Circular job dependency"));
    QCOMPARE(self["errno"].toInt(), 2071);
    const Json array = call(
        submitRequest("alice", 1, fields({{"dependency", "aftercorr:4"}, {"array", "1-3"}})));
    QCOMPARE(array["error"].toString(), std::string("Circular job dependency"));
    QCOMPARE(submit("afterok:3"), 4); // and the id was not used up
}

void ControllerDependencyTest::longChainWithoutCycleIsAccepted()
{
    // Slurm follows at most ten lists (max_depend_depth): a cycle longer than that is not
    // seen, and a long chain without one is accepted.
    const Json hold = fields({{"hold", true}});
    submit(nullptr, hold);
    for (int i = 2; i <= 15; ++i) {
        const std::string dep = "afterok:" + std::to_string(i - 1);
        QCOMPARE(submit(dep.c_str(), hold), i);
    }
    const Json r = call(request("update",
        fields({{"job_id", 1}, {"user", "alice"},
            {"fields", fields({{"dependency", "afterok:15"}})}})));
    QVERIFY2(r["ok"].toBool(), "a 15-job cycle is past Slurm's depth");
    const Json near = call(request("update",
        fields({{"job_id", 12}, {"user", "alice"},
            {"fields", fields({{"dependency", "afterok:14"}})}})));
    QCOMPARE(near["error"].toString(), std::string("Circular job dependency"));
}

void ControllerDependencyTest::timingKeysAreReadShownAndHonoured()
{
    start(R"(ClusterName=test
DefMemPerCPU=1000
MinJobAge=30
KillWait=5
OverTimeLimit=2
InactiveLimit=0
BatchStartTimeout=10
PriorityCalcPeriod=00:01:00
NodeName=cn[01-02] CPUs=4 RealMemory=8000
PartitionName=cpu Nodes=cn[01-02] Default=YES DefaultTime=01:00:00 MaxTime=1-00:00:00
)");
    std::map<std::string, std::string> keys;
    const Json config = call(request("config"));
    for (const auto &entry : config["config"].items()) {
        keys[entry["key"].toString()] = entry["value"].toString();
    }
    QCOMPARE(keys["MinJobAge"], std::string("30 sec"));
    QCOMPARE(keys["KillWait"], std::string("5 sec"));
    QCOMPARE(keys["OverTimeLimit"], std::string("2 min"));
    QCOMPARE(keys["InactiveLimit"], std::string("0 sec"));
    QCOMPARE(keys["BatchStartTimeout"], std::string("10 sec"));
    QCOMPARE(keys["PriorityCalcPeriod"], std::string("00:01:00"));
    QCOMPARE(keys["SchedulerParameters"], std::string("(null)"));

    // OverTimeLimit: the node ends the job two minutes after its limit; --signal still counts
    // from the limit.
    const auto id = submit(nullptr, fields({{"time_limit", 600}, {"signal", "10@60"}}));
    m_ctl->schedule(101);
    const Json &launch = m_gateway.orders.back().second;
    QCOMPARE(launch["op"].toString(), std::string("launch"));
    QCOMPARE(launch["job"]["time_limit"].toInt(), 600 + 120);
    QCOMPARE(launch["job"]["spec"]["signal"].toString(), std::string("10@180"));

    // MinJobAge=30: still shown 30 s after its end, gone after.
    end(id, 200, 0);
    m_ctl->purgeOldJobs(230);
    QCOMPARE(state(id), std::string("COMPLETED"));
    m_ctl->purgeOldJobs(231);
    QVERIFY(job(id).isNull());
}

QTEST_APPLESS_MAIN(ControllerDependencyTest)
#include "controller_dependency_test.moc"
