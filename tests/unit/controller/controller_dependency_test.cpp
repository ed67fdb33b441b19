// Dependencies that stay true (issue #17): a dependency is decided by how its target ended, read
// from the store once the target has left the controller's memory (MinJobAge) or the controller
// restarted; kill_invalid_depend cancels what can never run; cycles are refused with Slurm's
// words on submission and on `scontrol update`. Also the timing keys of slurm.conf the
// controller honours (MinJobAge, OverTimeLimit) and shows (scontrol show config).
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
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
    void limitsFollowTheClusterClockThroughSpeedAndFastForward_data();
    void limitsFollowTheClusterClockThroughSpeedAndFastForward();

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
    std::string state(std::int64_t id, sched::Seconds now = 100)
    {
        return job(id, now)["state"].toString();
    }
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

    // OverTimeLimit: the controller ends the job two minutes after its limit, on the cluster
    // clock; --signal still counts from the limit. The node keeps no timer of its own.
    const auto id = submit(nullptr, fields({{"time_limit", 600}, {"signal", "10@60"}}));
    m_ctl->schedule(101);
    QCOMPARE(m_gateway.orders.back().second["op"].toString(), std::string("launch"));
    QCOMPARE(m_ctl->nextTimeEvent(101).value_or(0), 101 + 600 - 60);
    const auto sent = m_gateway.orders.size();
    m_ctl->enforceTimeLimits(640);
    QCOMPARE(m_gateway.orders.size(), sent); // not yet
    m_ctl->enforceTimeLimits(641);
    QCOMPARE(m_gateway.orders.size(), sent + 1);
    const Json warning = m_gateway.orders.back().second;
    QCOMPARE(warning["signal"].toInt(), 10);
    QCOMPARE(warning["scope"].toString(), std::string("steps"));
    QVERIFY(warning["warning"].toBool());
    m_ctl->enforceTimeLimits(700);
    QCOMPARE(m_gateway.orders.size(), sent + 1); // once
    QCOMPARE(m_ctl->nextTimeEvent(700).value_or(0), 101 + 600 + 120);
    m_ctl->enforceTimeLimits(820);
    QCOMPARE(state(id), std::string("RUNNING"));
    m_ctl->enforceTimeLimits(821);
    const Json kill = m_gateway.orders.back().second;
    QVERIFY(kill["timeout"].toBool());
    QCOMPARE(kill["time"].toInt(), 821);
    QCOMPARE(kill["kill_wait_ms"].toInt(), 5000); // KillWait=5, no cluster clock: 1x
    QCOMPARE(state(id), std::string("COMPLETING"));
    QCOMPARE(reason(id), std::string("TimeLimit"));

    // The node's report, whenever it comes: TIMEOUT, ended at the limit. MinJobAge=30: still
    // shown 30 s after its end, gone after.
    end(id, 830, 0);
    QCOMPARE(state(id), std::string("TIMEOUT"));
    QCOMPARE(job(id)["end_time"].toInt(), 821);
    m_ctl->purgeOldJobs(851);
    QCOMPARE(state(id), std::string("TIMEOUT"));
    m_ctl->purgeOldJobs(852);
    QVERIFY(job(id).isNull());
}

void ControllerDependencyTest::limitsFollowTheClusterClockThroughSpeedAndFastForward_data()
{
    QTest::addColumn<double>("speed");
    QTest::newRow("1x") << 1.0;
    QTest::newRow("60x") << 60.0;
    QTest::newRow("3600x") << 3600.0;
}

void ControllerDependencyTest::limitsFollowTheClusterClockThroughSpeedAndFastForward()
{
    QFETCH(double, speed);
    double wall = 1000.0;
    ctl::ClusterClock clock([&wall] { return wall; });
    m_ctl->setClock(&clock);
    QVERIFY(call(request("clock", fields({{"speed", speed}})), clock.now())["ok"].toBool());
    const auto t0 = clock.now();
    QCOMPARE(t0, 1000);
    const auto shortJob = submit(nullptr, fields({{"time_limit", 60}}));
    const auto longJob = submit(nullptr, fields({{"time_limit", 3600}}));
    const auto quickJob = submit(nullptr, fields({{"time_limit", 3600}}));
    m_ctl->schedule(clock.now());
    QCOMPARE(state(shortJob, t0), std::string("RUNNING"));

    // 90 s of cluster time pass, however many wall seconds that is at this speed.
    wall += 90.0 / speed;
    QCOMPARE(clock.now(), t0 + 90);
    QCOMPARE(m_ctl->nextTimeEvent(t0).value_or(0), t0 + 60); // what the daemon's tick waits for
    m_ctl->enforceTimeLimits(clock.now());
    const Json kill = m_gateway.orders.back().second;
    QVERIFY(kill["timeout"].toBool());
    QCOMPARE(kill["job_id"].toInt(), shortJob);
    QCOMPARE(kill["time"].toInt(), t0 + 60); // the notice's CANCELLED AT: the limit
    QCOMPARE(kill["kill_wait_ms"].toInt(), std::llround(30000 / speed)); // KillWait=30 s
    const Json shortNow = job(shortJob, clock.now());
    QCOMPARE(shortNow["state"].toString(), std::string("COMPLETING"));
    QCOMPARE(shortNow["end_time"].toInt() - shortNow["start_time"].toInt(), 60);
    // The other jobs' TIME is the cluster clock's.
    const Json longNow = job(longJob, clock.now());
    QCOMPARE(longNow["state"].toString(), std::string("RUNNING"));
    QCOMPARE(longNow["now"].toInt() - longNow["start_time"].toInt(), 90);

    // The node reports the processes gone (its wall clock): TIMEOUT at the limit, whatever
    // the report says. A job that ends by itself is dated on the cluster clock.
    m_ctl->nodeReport(
        shortNow["batch_host"].toString(), jobEnded(shortJob, std::llround(wall)), clock.now());
    const Json quick = job(quickJob, clock.now());
    wall += 10.0 / speed;
    Json quickEnd = jobEnded(quickJob, 0);
    quickEnd.set("end_time", wall); // nodes tell the wall clock to the millisecond
    m_ctl->nodeReport(quick["batch_host"].toString(), quickEnd, clock.now());
    QCOMPARE(state(shortJob, clock.now()), std::string("TIMEOUT"));
    QCOMPARE(state(quickJob, clock.now()), std::string("COMPLETED"));
    const Json quickEnded = job(quickJob, clock.now());
    QVERIFY2(std::abs(quickEnded["end_time"].toInt() - (t0 + 100)) <= 1,
        std::to_string(quickEnded["end_time"].toInt()).c_str());

    // An instructor jumps 61 days ahead: the long job's limit passed during the jump; it ends
    // TIMEOUT at its limit, not at the new `now`.
    const Json jumped = call(request("clock", fields({{"advance", 61 * 86400}})), clock.now());
    QVERIFY(jumped["ok"].toBool());
    QCOMPARE(clock.now(), t0 + 100 + 61 * 86400);
    const Json longEnding = job(longJob, clock.now());
    QCOMPARE(longEnding["state"].toString(), std::string("COMPLETING"));
    QCOMPARE(longEnding["end_time"].toInt(), t0 + 3600);
    m_ctl->nodeReport(
        longEnding["batch_host"].toString(), jobEnded(longJob, std::llround(wall)), clock.now());
    const Json acct
        = call(request("acct", fields({{"job_ids", ids({shortJob, longJob})}})), clock.now());
    QCOMPARE(acct["jobs"].size(), std::size_t{2});
    for (const auto &j : acct["jobs"].items()) {
        QCOMPARE(j["state"].toString(), std::string("TIMEOUT"));
        QCOMPARE(j["start_time"].toInt(), t0);
        QCOMPARE(j["end_time"].toInt() - j["start_time"].toInt(), j["time_limit"].toInt());
    }
    m_ctl->setClock(nullptr);
}

QTEST_APPLESS_MAIN(ControllerDependencyTest)
#include "controller_dependency_test.moc"
