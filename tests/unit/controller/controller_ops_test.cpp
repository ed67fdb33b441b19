// The controller's scheduling requests without sockets: hold, release, requeue, update,
// priorities, shares, node_update, clock, config, test_only, and the live scheduler (backfill,
// planned starts, arrays, dependencies, --begin, preemption, plan events).
#include "controller_fixture.h"
#include "mc/record/plan_entry.h"

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace mc;
using proto::Json;
using namespace mc::test;

namespace {

const char *const kConf = R"(ClusterName=test
DefMemPerCPU=1000
SchedulerType=sched/backfill
PriorityType=priority/multifactor
PriorityWeightAge=1000
PriorityWeightFairshare=10000
PriorityDecayHalfLife=1:00:00
PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
NodeName=cn[01-02] CPUs=4 RealMemory=8000
PartitionName=cpu Nodes=cn[01-02] Default=YES DefaultTime=01:00:00 MaxTime=1-00:00:00
PartitionName=urgent Nodes=cn[01-02] MaxTime=1-00:00:00 PriorityTier=10 PreemptMode=OFF
)";

const char *const kUsers = "User=alice UID=1001 DefaultAccount=def-prof\n"
                           "User=bob UID=1002 DefaultAccount=def-prof\n"
                           "User=prof UID=1000 DefaultAccount=def-prof\n";

} // namespace

class ControllerOpsTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void ownerHoldsAndReleasesAdminHoldNeedsAnOperator();
    void requeueOfRunningJobBringsItBackWithRestarts();
    void requeueOfPendingJobIsRefusedWithSlurmsWords();
    void nodesBeyondThePartitionWaitWithPartitionNodeLimit();
    void cancelledJobWhoseNodeIsLostStaysCancelled();
    void updateChangesAPendingJobOrSaysWhyNot();
    void updateJudgesItsFieldsInOneOrderWhateverTheirOrder();
    void backfillStartsShortJobAndPlansTheBlockedOne();
    void planEventIsSentOnlyWhenPlannedStartsChange();
    void jobEventsAreSentOnlyWhenSomethingChanged();
    void arrayTasksGetTheirOwnIdsWithinTheThrottle();
    void arrayTasksAreAddressedBySlurmsIds();
    void dependencyWaitsThenStartsAndUnknownTargetsAreDropped();
    void malformedDependencyIsAJobDependencyProblem();
    void beginTimeHoldsTheJobBack();
    void higherTierJobPreemptsAndTheVictimIsRequeued();
    void testOnlyAnswersWithoutStoringAnything();
    void testOnlyOfAJobThatFitsStartsNow();
    void prioritiesAndSharesShowTheFactorsAndDecayedUsage();
    void nodeUpdateDrainsForOperatorsOnly();
    void clockKeepsTimeContinuousAndSurvivesARestart();
    void configListsSchedulerKeys();
    void runningJobsAreChargedEveryCalcPeriodAndTheRestAtTheEnd();

private:
    std::unique_ptr<ctl::Controller> makeController();
    Json call(const Json &r, sched::Seconds now = 100) { return m_ctl->handleRequest(r, now); }
    Json job(std::int64_t id)
    {
        auto jobs = call(request("jobs", fields({{"job_ids", ids({id})}})))["jobs"].items();
        for (const auto &j : jobs) {
            if (j["job_id"].toInt() == id) {
                return j;
            }
        }
        return Json();
    }
    std::string state(std::int64_t id) { return job(id)["state"].toString(); }
    std::string reason(std::int64_t id) { return job(id)["reason"].toString(); }
    std::size_t ordersOf(const char *op) const
    {
        return static_cast<std::size_t>(
            std::count_if(m_gateway.orders.begin(), m_gateway.orders.end(),
                [op](const auto &o) { return o.second["op"].toString() == op; }));
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
    std::vector<Json> m_events;
};

std::unique_ptr<ctl::Controller> ControllerOpsTest::makeController()
{
    std::string error;
    auto c = openController(*m_dir, m_store, m_gateway, kConf, kUsers, error);
    c->publish = [this](const Json &event) {
        m_events.push_back(event);
    };
    return c;
}

void ControllerOpsTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_gateway.orders.clear();
    m_events.clear();
    m_ctl = makeController();
    Json hello = Json::object();
    hello.set("op", "node_register");
    m_ctl->nodeRegistered("cn01", hello, 100);
    m_ctl->nodeRegistered("cn02", hello, 100);
}

void ControllerOpsTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void ControllerOpsTest::ownerHoldsAndReleasesAdminHoldNeedsAnOperator()
{
    call(submitRequest("alice", 1));
    Json hold = call(request("hold", fields({{"job_ids", ids({1})}, {"user", "alice"}})));
    QCOMPARE(hold["results"].size(), 0u);
    QCOMPARE(reason(1), std::string("JobHeldUser"));
    QCOMPARE(job(1)["hold"].toString(), std::string("user"));
    QCOMPARE(job(1)["priority"].toInt(), 0);
    m_ctl->schedule(101);
    QCOMPARE(state(1), std::string("PENDING")); // held jobs do not start

    call(request("hold", fields({{"job_ids", ids({1})}, {"user", "root"}})));
    QCOMPARE(reason(1), std::string("JobHeldAdmin"));
    Json denied = call(request("release", fields({{"job_ids", ids({1})}, {"user", "alice"}})));
    QCOMPARE(denied["results"].items().at(0)["error"].toString(),
        std::string("Access/permission denied"));
    QCOMPARE(reason(1), std::string("JobHeldAdmin"));
    call(request("release", fields({{"job_ids", ids({1})}, {"user", "root"}})));
    QCOMPARE(reason(1), std::string("None"));

    // scontrol uhold by an operator is still a user hold; bob may not touch alice's job.
    call(request("hold", fields({{"job_ids", ids({1})}, {"user", "root"}, {"admin", false}})));
    QCOMPARE(reason(1), std::string("JobHeldUser"));
    Json other = call(request("release", fields({{"job_ids", ids({1, 7})}, {"user", "bob"}})));
    QCOMPARE(other["results"].items().at(0)["error"].toString(),
        std::string("Invalid user id")); // Slurm's answer to an update of another's job
    QCOMPARE(other["results"].items().at(1)["error"].toString(),
        std::string("Invalid job id specified"));
    call(request("release", fields({{"job_ids", ids({1})}, {"user", "alice"}})));
    m_ctl->schedule(102);
    QCOMPARE(state(1), std::string("RUNNING"));

    // A held job cancelled keeps the reason it waited for, as in Slurm.
    call(submitRequest("alice", 1, fields({{"hold", true}})));
    call(request("cancel", fields({{"job_ids", ids({2})}, {"user", "alice"}})));
    QCOMPARE(state(2), std::string("CANCELLED"));
    QCOMPARE(reason(2), std::string("JobHeldUser"));
}

void ControllerOpsTest::requeueOfRunningJobBringsItBackWithRestarts()
{
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    QCOMPARE(state(1), std::string("RUNNING"));
    call(request("requeue", fields({{"job_ids", ids({1})}, {"user", "alice"}, {"hold", true}})));
    const Json &order = m_gateway.orders.back().second;
    QCOMPARE(order["op"].toString(), std::string("signal"));
    QCOMPARE(order["signal"].toInt(), static_cast<std::int64_t>(SIGKILL));
    m_ctl->nodeReport("cn01", jobEnded(1, 110, 0, SIGKILL), 110);
    Json j = job(1);
    QCOMPARE(j["state"].toString(), std::string("PENDING"));
    QCOMPARE(j["reason"].toString(), std::string("JobHeldUser")); // requeuehold
    QCOMPARE(j["restarts"].toInt(), 1);
    QCOMPARE(j["nodes"].size(), 0u);
    call(request("release", fields({{"job_ids", ids({1})}, {"user", "alice"}})));
    // Slurm holds a requeued job back for the credential's lifetime + 1 s: BeginTime first.
    m_ctl->schedule(111);
    QCOMPARE(reason(1), std::string("BeginTime"));
    QCOMPARE(job(1)["eligible_time"].toInt(), 110 + 121);
    m_ctl->schedule(230);
    QCOMPARE(state(1), std::string("PENDING"));
    m_ctl->schedule(231);
    QCOMPARE(state(1), std::string("RUNNING"));
    QCOMPARE(ordersOf("launch"), 2u);
}

void ControllerOpsTest::nodesBeyondThePartitionWaitWithPartitionNodeLimit()
{
    // EnforcePartLimits=NO (Slurm's default): accepted, and pending for good.
    const Json r = call(submitRequest("alice", 1, fields({{"nodes", 3}})));
    QVERIFY2(r["ok"].toBool(), r["error"].toString().c_str());
    m_ctl->schedule(101);
    QCOMPARE(state(1), std::string("PENDING"));
    QCOMPARE(reason(1), std::string("PartitionNodeLimit"));
    // Nodes that could never hold it are still refused at once.
    const Json big = call(submitRequest("alice", 8, fields({{"nodes", 3}})));
    QCOMPARE(big["error"].toString(), std::string("Requested node configuration is not available"));
}

// scancel, then the node is lost before the job's end is reported: the cancel wins over the
// requeue a node failure brings (JobRequeue=1), as in Slurm where the job is CANCELLED at once.
void ControllerOpsTest::cancelledJobWhoseNodeIsLostStaysCancelled()
{
    call(submitRequest("alice", 4));
    call(submitRequest("alice", 4)); // not cancelled: requeued as usual
    m_ctl->schedule(101);
    QCOMPARE(state(1), std::string("RUNNING"));
    QCOMPARE(state(2), std::string("RUNNING"));
    call(request("cancel", fields({{"job_ids", ids({1})}, {"user", "alice"}})), 102);
    for (std::int64_t id : {1, 2}) { // lost, and back without the job
        const std::string node = job(id)["nodes"].items().at(0).toString();
        m_ctl->nodeLost(node, 103);
        m_ctl->nodeRegistered(node, request("node_register", fields({{"node", node}})), 103);
    }
    QCOMPARE(state(1), std::string("CANCELLED"));
    QCOMPARE(state(2), std::string("PENDING")); // requeued: waits the requeue delay first
    QCOMPARE(job(2)["reason"].toString(), std::string("BeginTime"));
    m_ctl->schedule(103 + 121);
    QCOMPARE(state(1), std::string("CANCELLED"));
    QCOMPARE(state(2), std::string("RUNNING"));
    QCOMPARE(job(2)["restarts"].toInt(), 1);
}

void ControllerOpsTest::requeueOfPendingJobIsRefusedWithSlurmsWords()
{
    call(submitRequest("alice", 1, fields({{"hold", true}})));
    Json r = call(request("requeue", fields({{"job_ids", ids({1})}, {"user", "root"}})));
    QCOMPARE(
        r["results"].items().at(0)["error"].toString(), std::string("Job is pending execution"));
    QCOMPARE(r["results"].items().at(0)["errno"].toInt(), 2024);
}

void ControllerOpsTest::updateChangesAPendingJobOrSaysWhyNot()
{
    call(submitRequest("alice", 1, fields({{"hold", true}})));
    Json ok = call(request("update",
        fields({{"job_id", 1}, {"user", "alice"},
            {"fields", fields({{"time_limit", 180}, {"name", "renamed"}})}})));
    QVERIFY(ok["ok"].toBool());
    QCOMPARE(job(1)["time_limit"].toInt(), 180);
    QCOMPARE(job(1)["name"].toString(), std::string("renamed"));

    Json badPart = call(request("update",
        fields({{"job_id", 1}, {"user", "alice"}, {"fields", fields({{"partition", "nosuch"}})}})));
    QCOMPARE(badPart["error"].toString(), std::string("Invalid partition name specified"));
    Json notOwner = call(request("update",
        fields({{"job_id", 1}, {"user", "bob"}, {"fields", fields({{"time_limit", 60}})}})));
    QCOMPARE(notOwner["error"].toString(), std::string("Invalid user id")); // as Slurm 22.05
    Json nice = call(request(
        "update", fields({{"job_id", 1}, {"user", "alice"}, {"fields", fields({{"nice", -10}})}})));
    QCOMPARE(nice["error"].toString(), std::string("Access/permission denied"));
    Json tooLong = call(request("update",
        fields({{"job_id", 1}, {"user", "alice"}, {"fields", fields({{"time_limit", 200000}})}})));
    QCOMPARE(tooLong["error"].toString(), std::string("Access/permission denied")); // > MaxTime
    Json unknown = call(request("update",
        fields({{"job_id", 1}, {"user", "alice"}, {"fields", fields({{"licenses", "x"}})}})));
    QCOMPARE(
        unknown["error"].toString(), std::string("minicluster does not support updating licenses"));
    QCOMPARE(job(1)["time_limit"].toInt(), 180); // a refused update changes nothing
}

// The fields of a running job's update are judged in one order, whatever order the request
// gives them in: those a running job may change first, then those of a pending job only.
void ControllerOpsTest::updateJudgesItsFieldsInOneOrderWhateverTheirOrder()
{
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    QCOMPARE(state(1), std::string("RUNNING"));
    auto update = [this](Json changes) {
        return call(request(
            "update", fields({{"job_id", 1}, {"user", "alice"}, {"fields", std::move(changes)}})));
    };
    const std::string runningLimit
        = "minicluster does not support changing the time limit of a running job";
    QCOMPARE(update(fields({{"name", "x"}, {"time_limit", 60}}))["error"].toString(), runningLimit);
    QCOMPARE(update(fields({{"time_limit", 60}, {"name", "x"}}))["error"].toString(), runningLimit);
    const std::string notPending = "Job is no longer pending execution";
    QCOMPARE(update(fields({{"name", "x"}, {"comment", "c"}}))["error"].toString(), notPending);
    QCOMPARE(update(fields({{"licenses", "x"}, {"nice", 5}}))["error"].toString(), notPending);
    // Refused: nothing changed, the comment neither.
    QVERIFY(!job(1).contains("comment"));
    QCOMPARE(job(1)["name"].toString(), std::string("t"));
    QVERIFY(update(fields({{"comment", "c"}, {"nice", 5}}))["ok"].toBool());
    QCOMPARE(job(1)["comment"].toString(), std::string("c"));
}

void ControllerOpsTest::backfillStartsShortJobAndPlansTheBlockedOne()
{
    call(submitRequest("alice", 4, fields({{"time_limit", 3600}}))); // 1: cn01 for an hour
    m_ctl->schedule(100);
    call(submitRequest("alice", 4, fields({{"nodes", 2}, {"time_limit", 3600}}))); // 2: both
    call(submitRequest("bob", 4, fields({{"time_limit", 1800}}))); // 3: fits the hole
    call(submitRequest("bob", 4, fields({{"time_limit", 7200}}))); // 4: would delay job 2
    m_ctl->schedule(101);
    QCOMPARE(state(1), std::string("RUNNING"));
    QCOMPARE(reason(2), std::string("Resources"));
    QCOMPARE(job(2)["planned_start"].toInt(), 100 + 3600);
    QCOMPARE(job(2)["waiting_for"].size(), 1u);
    QCOMPARE(job(2)["waiting_for"].items().at(0).toInt(), 1);
    QVERIFY(!job(2)["explanation"]["en"].toString().empty());
    QVERIFY(!job(2)["explanation"]["fr"].toString().empty());
    QCOMPARE(state(3), std::string("RUNNING")); // backfilled on cn02
    QCOMPARE(job(3)["nodes"].toStringList(), std::vector<std::string>{"cn02"});
    // The controller says which jobs backfill started, and how each started.
    QVERIFY(job(3)["backfilled"].toBool());
    QVERIFY(job(1).contains("backfilled") && !job(1)["backfilled"].toBool());
    QVERIFY2(job(3)["explanation"]["en"].toString().find("backfill") != std::string::npos,
        job(3)["explanation"]["en"].toString().c_str());
    QVERIFY(!job(3)["explanation"]["fr"].toString().empty());
    QVERIFY(!job(2).contains("backfilled")); // pending
    QCOMPARE(state(4), std::string("PENDING"));
}

void ControllerOpsTest::planEventIsSentOnlyWhenPlannedStartsChange()
{
    call(submitRequest("alice", 4, fields({{"nodes", 2}, {"time_limit", 3600}})));
    m_ctl->schedule(100);
    call(submitRequest("alice", 4, fields({{"time_limit", 600}})));
    m_events.clear();
    m_ctl->schedule(101);
    auto plans = [this] {
        return std::count_if(m_events.begin(), m_events.end(),
            [](const Json &e) { return e["event"].toString() == "plan"; });
    };
    QCOMPARE(plans(), 1);
    const Json plan = *std::find_if(m_events.begin(), m_events.end(),
        [](const Json &e) { return e["event"].toString() == "plan"; });
    QCOMPARE(plan["plan"].items().at(0)["job_id"].toInt(), 2);
    QCOMPARE(plan["plan"].items().at(0)["planned_start"].toInt(), 3700);
    // As the app's timeline reads it: on one of the two nodes job 1 frees.
    const record::PlanEntry entry = record::planEntryFromJson(plan["plan"].items().at(0));
    QCOMPARE(entry.jobId, 2);
    QCOMPARE(entry.plannedStart, 3700);
    QCOMPARE(entry.nodes.size(), 1u);
    QCOMPARE(entry.nodes.front().substr(0, 2), std::string("cn"));
    m_ctl->schedule(102);
    m_ctl->schedule(103);
    QCOMPARE(plans(), 1);
}

void ControllerOpsTest::jobEventsAreSentOnlyWhenSomethingChanged()
{
    call(submitRequest("alice", 4, fields({{"nodes", 2}})));
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    m_events.clear();
    m_ctl->schedule(102);
    m_ctl->schedule(103);
    QCOMPARE(m_events.size(), 0u);
}

void ControllerOpsTest::arrayTasksGetTheirOwnIdsWithinTheThrottle()
{
    Json reply = call(submitRequest("alice", 1, fields({{"array", "1-4%2"}})));
    QCOMPARE(reply["job_id"].toInt(), 1);
    QCOMPARE(job(1)["array_task_str"].toString(), std::string("1-4%2"));
    m_ctl->schedule(101);
    QCOMPARE(ordersOf("launch"), 2u);
    Json record = job(1);
    QCOMPARE(record["state"].toString(), std::string("PENDING"));
    QCOMPARE(record["array_task_str"].toString(), std::string("3-4%2"));
    QCOMPARE(record["reason"].toString(), std::string("JobArrayTaskLimit"));
    QVERIFY(!record.contains("array_task_id"));
    QCOMPARE(job(2)["array_job_id"].toInt(), 1);
    QCOMPARE(job(2)["array_task_id"].toInt(), 1);
    QCOMPARE(job(3)["array_task_id"].toInt(), 2);
    QCOMPARE(state(3), std::string("RUNNING"));
    // squeue -j 1 lists the record and its tasks
    QCOMPARE(call(request("jobs", fields({{"job_ids", ids({1})}})))["jobs"].size(), 3u);
    m_ctl->nodeReport("cn01", jobEnded(2, 110), 110);
    QCOMPARE(job(4)["array_task_id"].toInt(), 3);
    QCOMPARE(call(submitRequest("alice", 1))["job_id"].toInt(), 5); // ids stay unique

    // scancel of the array's id: the record and its unfinished tasks, no error for the others
    Json cancel = call(request("cancel", fields({{"job_ids", ids({1})}, {"user", "alice"}})));
    QCOMPARE(cancel["results"].size(), 0u);
    QCOMPARE(state(1), std::string("CANCELLED"));
    QCOMPARE(state(3), std::string("COMPLETING"));
    QCOMPARE(state(4), std::string("COMPLETING"));
    QCOMPARE(state(2), std::string("COMPLETED"));
}

void ControllerOpsTest::arrayTasksAreAddressedBySlurmsIds()
{
    // Held, the whole array stays one pending record: 1_[1-5].
    call(submitRequest("alice", 1, fields({{"array", "1-5"}, {"hold", true}})));
    const Json one = call(
        request("cancel", fields({{"job_ids", Json::array().push("1_2")}, {"user", "alice"}})));
    QCOMPARE(one["results"].size(), 0u);
    QCOMPARE(job(1)["array_task_str"].toString(), std::string("1,3-5")); // squeue: 1_[1,3-5]
    QCOMPARE(job(2)["array_task_id"].toInt(), 2); // the task left the record under its own id
    QCOMPARE(state(2), std::string("CANCELLED"));
    const Json range = call(request("cancel",
        fields({{"job_ids", Json::array().push("1_[4-5]").push("1_9")}, {"user", "alice"}})));
    QCOMPARE(job(1)["array_task_str"].toString(), std::string("1,3"));
    QCOMPARE(state(3), std::string("CANCELLED"));
    QCOMPARE(state(4), std::string("CANCELLED"));
    QCOMPARE(range["results"].size(), 1u); // 1_9 does not exist
    QCOMPARE(range["results"].items().at(0)["job"].toString(), std::string("1_9"));
    QCOMPARE(range["results"].items().at(0)["error"].toString(),
        std::string("Invalid job id specified"));
    // scontrol release 1_3: that task alone runs, the record keeps waiting.
    call(request("release", fields({{"job_ids", Json::array().push("1_3")}, {"user", "alice"}})));
    m_ctl->schedule(101);
    QCOMPARE(job(5)["array_task_id"].toInt(), 3);
    QCOMPARE(state(5), std::string("RUNNING"));
    QCOMPARE(reason(1), std::string("JobHeldUser"));
    // The last pending task takes the array's own id.
    const Json update = call(request("update",
        fields({{"job_id", "1_1"}, {"user", "alice"}, {"fields", fields({{"name", "last"}})}})));
    QVERIFY(update["ok"].toBool());
    QCOMPARE(job(1)["array_task_id"].toInt(), 1);
    QCOMPARE(job(1)["name"].toString(), std::string("last"));
    // scontrol requeue 1_3: the running task is ended to be requeued.
    const Json requeue = call(
        request("requeue", fields({{"job_ids", Json::array().push("1_3")}, {"user", "alice"}})));
    QCOMPARE(requeue["results"].size(), 0u);
    // sacct -j 1: the tasks in task order, whatever their job ids.
    const Json acct = call(request("acct", fields({{"job_ids", ids({1})}})));
    std::vector<std::int64_t> order;
    for (const auto &j : acct["jobs"].items()) {
        order.push_back(j["job_id"].toInt());
    }
    QCOMPARE(order, (std::vector<std::int64_t>{1, 2, 5, 3, 4}));
}

void ControllerOpsTest::dependencyWaitsThenStartsAndUnknownTargetsAreDropped()
{
    call(submitRequest("alice", 1));
    call(submitRequest("alice", 1, fields({{"dependency", "afterok:1"}})));
    call(submitRequest("alice", 1, fields({{"dependency", "afterok:999999"}})));
    m_ctl->schedule(101);
    QCOMPARE(reason(2), std::string("Dependency"));
    QCOMPARE(job(2)["dependency"].toString(), std::string("afterok:1(unfulfilled)"));
    QCOMPARE(job(2)["waiting_for"].items().at(0).toInt(), 1);
    QCOMPARE(state(3), std::string("RUNNING")); // Slurm drops a never-existing target
    m_ctl->nodeReport("cn01", jobEnded(1, 120), 120);
    QCOMPARE(state(2), std::string("RUNNING"));

    call(submitRequest("alice", 1, fields({{"dependency", "afterok:2"}}))); // 4
    Json failed = jobEnded(2, 130);
    failed.set("exit_code", 3);
    m_ctl->nodeReport("cn01", failed, 130);
    QCOMPARE(reason(4), std::string("DependencyNeverSatisfied"));
    QCOMPARE(job(4)["dependency"].toString(), std::string("afterok:2(failed)"));
}

void ControllerOpsTest::malformedDependencyIsAJobDependencyProblem()
{
    for (const char *text : {"afterok", "bogus:1", "afterok:abc"}) {
        Json r = call(submitRequest("alice", 1, fields({{"dependency", text}})));
        QVERIFY(!r["ok"].toBool());
        QCOMPARE(r["error"].toString(), std::string("Job dependency problem"));
    }
    Json badArray = call(submitRequest("alice", 1, fields({{"array", "5-1"}})));
    QCOMPARE(badArray["error"].toString(), std::string("Invalid job array specification"));
}

void ControllerOpsTest::beginTimeHoldsTheJobBack()
{
    call(submitRequest("alice", 1, fields({{"begin", 500}})));
    m_ctl->schedule(101);
    QCOMPARE(reason(1), std::string("BeginTime"));
    QCOMPARE(job(1)["planned_start"].toInt(), 500);
    m_ctl->schedule(500);
    QCOMPARE(state(1), std::string("RUNNING"));
    QCOMPARE(job(1)["start_time"].toInt(), 500);
}

void ControllerOpsTest::higherTierJobPreemptsAndTheVictimIsRequeued()
{
    call(submitRequest("alice", 4, fields({{"nodes", 2}})));
    m_ctl->schedule(101);
    QCOMPARE(state(1), std::string("RUNNING"));
    call(submitRequest("bob", 4, fields({{"partition", "urgent"}})));
    m_ctl->schedule(102);
    const Json &order = m_gateway.orders.back().second;
    QCOMPARE(order["op"].toString(), std::string("signal"));
    QCOMPARE(order["job_id"].toInt(), 1);
    QCOMPARE(order["signal"].toInt(), static_cast<std::int64_t>(SIGKILL));
    QCOMPARE(job(1)["preempt_end"].toInt(), 102);
    m_ctl->nodeReport("cn01", jobEnded(1, 103, 0, SIGKILL), 103);
    QCOMPARE(state(2), std::string("RUNNING"));
    QCOMPARE(state(1), std::string("PENDING")); // PreemptMode=REQUEUE
    QCOMPARE(job(1)["restarts"].toInt(), 1);
}

void ControllerOpsTest::testOnlyAnswersWithoutStoringAnything()
{
    call(submitRequest("alice", 4, fields({{"nodes", 2}, {"time_limit", 600}})));
    m_ctl->schedule(100);
    Json r = call(submitRequest("bob", 2, fields({{"test_only", true}})), 101);
    QVERIFY(r["ok"].toBool());
    QCOMPARE(r["job_id"].toInt(), 2);
    QCOMPARE(r["planned_start"].toInt(), 700);
    QCOMPARE(r["partition"].toString(), std::string("cpu"));
    QCOMPARE(r["num_cpus"].toInt(), 2);
    QCOMPARE(r["nodes"].toStringList(), std::vector<std::string>{"cn01"});
    QCOMPARE(r["reason"].toString(), std::string("Resources"));
    QVERIFY(job(2).isNull()); // not stored; its id is used up, as Slurm's will-run does
    QCOMPARE(call(submitRequest("bob", 1))["job_id"].toInt(), 3);
}

void ControllerOpsTest::testOnlyOfAJobThatFitsStartsNow()
{
    call(submitRequest("alice", 4, fields({{"time_limit", 600}})));
    m_ctl->schedule(100);
    const Json r = call(submitRequest("bob", 3, fields({{"test_only", true}})), 101);
    QVERIFY(r["ok"].toBool());
    QCOMPARE(r["job_id"].toInt(), 2);
    QCOMPARE(r["planned_start"].toInt(), 101);
    QCOMPARE(r["num_cpus"].toInt(), 3);
    QCOMPARE(r["nodes"].toStringList(), std::vector<std::string>{"cn02"}); // cn01 is alice's
    QCOMPARE(r["reason"].toString(), std::string("None")); // it waits for nothing
    QCOMPARE(r["state"].toString(), std::string("PENDING")); // the tested copy, never started
    QVERIFY(job(2).isNull());
    // More nodes than the partition has: a submission would wait, the test says no.
    const Json wide
        = call(submitRequest("bob", 1, fields({{"test_only", true}, {"nodes", 3}})), 101);
    QVERIFY(!wide["ok"].toBool());
    QCOMPARE(
        wide["error"].toString(), std::string("Requested node configuration is not available"));
}

void ControllerOpsTest::prioritiesAndSharesShowTheFactorsAndDecayedUsage()
{
    call(submitRequest("alice", 4, fields({{"nodes", 2}})));
    m_ctl->schedule(100);
    m_ctl->nodeReport("cn01", jobEnded(1, 1100), 1100); // alice used 8 CPUs for 1000 s
    call(submitRequest("alice", 1), 1100); // pending: no pass runs before the question
    call(submitRequest("bob", 1), 1100);
    // Not listed, as in Slurm: a held job, one waiting for its --begin.
    call(submitRequest("bob", 1, fields({{"hold", true}})), 1100);
    call(submitRequest("bob", 1, fields({{"begin", 5000}})), 1100);
    Json p = call(request("priorities"), 1200);
    QCOMPARE(p["weights"]["fairshare"].toInt(), 10000);
    QCOMPARE(p["weights"]["age"].toInt(), 1000);
    QCOMPARE(p["jobs"].size(), 2u);
    const Json alice = p["jobs"].items().at(0);
    const Json bob = p["jobs"].items().at(1);
    QCOMPARE(alice["user"].toString(), std::string("alice"));
    QVERIFY(alice["fairshare"].toDouble() < bob["fairshare"].toDouble());
    QVERIFY(alice["age"].toDouble() > 0);

    Json s = call(request("shares"), 1100);
    double aliceUsage = -1;
    for (const auto &row : s["associations"].items()) {
        if (row["user"].toString() == "alice") {
            aliceUsage = row["raw_usage"].toDouble();
        }
    }
    QCOMPARE(aliceUsage, 8000.0);
    // PriorityDecayHalfLife=1:00:00: an hour later half of it is left
    Json later = call(request("shares"), 1100 + 3600); // kept: the loop reads into it
    for (const auto &row : later["associations"].items()) {
        if (row["user"].toString() == "alice") {
            QCOMPARE(row["raw_usage"].toInt(), 4000);
        }
    }
}

void ControllerOpsTest::nodeUpdateDrainsForOperatorsOnly()
{
    Json denied = call(request("node_update",
        fields({{"node", "cn01"}, {"state", "drain"}, {"reason", "x"}, {"user", "alice"}})));
    QCOMPARE(denied["error"].toString(), std::string("Invalid user id"));
    Json ok = call(request("node_update",
        fields({{"node", "cn01"}, {"state", "drain"}, {"reason", "disk"}, {"user", "prof"}})));
    QVERIFY(ok["ok"].toBool());
    call(submitRequest("alice", 1));
    m_ctl->schedule(101);
    QCOMPARE(job(1)["nodes"].toStringList(), std::vector<std::string>{"cn02"});
    Json nodes = call(request("cluster"))["nodes"];
    QCOMPARE(nodes.items().at(0)["state"].toString(), std::string("drained"));
    QCOMPARE(nodes.items().at(0)["reason"].toString(), std::string("disk"));
    Json bad = call(
        request("node_update", fields({{"node", "cn01"}, {"state", "x"}, {"user", "prof"}})));
    QCOMPARE(bad["error"].toString(), std::string("Invalid node state specified"));
    call(request("node_update", fields({{"node", "cn01"}, {"state", "resume"}, {"user", "prof"}})));
    QCOMPARE(
        call(request("cluster"))["nodes"].items().at(0)["state"].toString(), std::string("idle"));
}

void ControllerOpsTest::clockKeepsTimeContinuousAndSurvivesARestart()
{
    double wall = 1000.0;
    ctl::ClusterClock clock([&wall] { return wall; });
    m_ctl->setClock(&clock);
    QCOMPARE(clock.now(), 1000);
    Json r = call(request("clock", fields({{"speed", 10.0}})), clock.now());
    QCOMPARE(r["speed"].toDouble(), 10.0);
    QCOMPARE(clock.now(), 1000); // no jump when the speed changes
    wall += 5;
    QCOMPARE(clock.now(), 1050);
    call(request("clock", fields({{"advance", 3600}})), clock.now());
    QCOMPARE(clock.now(), 4650);
    Json asked = call(request("clock"), clock.now()); // a question: answered, no event
    QCOMPARE(asked["now"].toInt(), 4650);
    QCOMPARE(asked["speed"].toDouble(), 10.0);
    auto clockEvents = std::count_if(m_events.begin(), m_events.end(),
        [](const Json &e) { return e["event"].toString() == "clock"; });
    QCOMPARE(clockEvents, 2);
    QVERIFY(!call(request("clock", fields({{"advance", -5}})))["ok"].toBool());

    m_ctl->setClock(nullptr);
    m_ctl.reset();
    m_ctl = makeController(); // a restarted controller keeps the cluster's time
    ctl::ClusterClock again([&wall] { return wall; });
    m_ctl->setClock(&again);
    QCOMPARE(again.now(), 4650);
    QCOMPARE(again.speed(), 10.0);
    m_ctl->setClock(nullptr);
}

void ControllerOpsTest::configListsSchedulerKeys()
{
    Json r = call(request("config"));
    std::map<std::string, std::string> keys;
    for (const auto &entry : r["config"].items()) {
        keys[entry["key"].toString()] = entry["value"].toString();
    }
    QCOMPARE(keys["SchedulerType"], std::string("sched/backfill"));
    QCOMPARE(keys["PriorityType"], std::string("priority/multifactor"));
    QCOMPARE(keys["PriorityDecayHalfLife"], std::string("01:00:00"));
    QCOMPARE(keys["PriorityCalcPeriod"], std::string("00:05:00")); // Slurm's default
    QCOMPARE(keys["PreemptType"], std::string("preempt/partition_prio"));
    QCOMPARE(keys["ClusterName"], std::string("test"));
}

void ControllerOpsTest::runningJobsAreChargedEveryCalcPeriodAndTheRestAtTheEnd()
{
    // PriorityCalcPeriod=1 (a minute); no decay, so the ledger holds plain CPU-seconds.
    const char *conf = R"(ClusterName=test
DefMemPerCPU=1000
PriorityType=priority/multifactor
PriorityWeightFairshare=10000
PriorityDecayHalfLife=0
PriorityCalcPeriod=1
NodeName=cn[01-02] CPUs=4 RealMemory=8000
PartitionName=cpu Nodes=cn[01-02] Default=YES DefaultTime=01:00:00 MaxTime=1-00:00:00
)";
    m_ctl.reset();
    std::string error;
    m_ctl = openController(*m_dir, m_store, m_gateway, conf, kUsers, error);
    Json hello = Json::object();
    hello.set("op", "node_register");
    m_ctl->nodeRegistered("cn01", hello, 100);
    m_ctl->nodeRegistered("cn02", hello, 100);
    auto usageOf = [this](const std::string &user, sched::Seconds now) {
        const Json reply = call(request("shares"), now); // kept: the loop reads into it
        for (const auto &row : reply["associations"].items()) {
            if (row["user"].toString() == user) {
                return row["raw_usage"].toDouble();
            }
        }
        return -1.0;
    };
    QCOMPARE(m_ctl->config().priority.calcPeriod, sched::Seconds(60));

    call(submitRequest("alice", 4), 100);
    m_ctl->schedule(100); // runs on cn01 from 100
    QCOMPARE(state(1), std::string("RUNNING"));
    m_ctl->schedule(130); // within the period: nothing charged yet
    QCOMPARE(usageOf("alice", 130), 0.0);
    m_ctl->schedule(160); // a period: 4 CPUs x 60 s
    QCOMPARE(usageOf("alice", 160), 240.0);
    m_ctl->schedule(200);
    QCOMPARE(usageOf("alice", 200), 240.0);
    m_ctl->schedule(220);
    QCOMPARE(usageOf("alice", 220), 480.0);

    // While it runs, her waiting job already ranks below bob's.
    call(submitRequest("alice", 4, fields({{"nodes", 2}})), 220);
    call(submitRequest("bob", 4, fields({{"nodes", 2}})), 220);
    Json p = call(request("priorities"), 220);
    QCOMPARE(p["jobs"].size(), 2u);
    QVERIFY(p["jobs"].items().at(0)["fairshare"].toDouble()
        < p["jobs"].items().at(1)["fairshare"].toDouble());

    // The end charges only the rest: in all, exactly the job's 4 CPUs x 150 s.
    m_ctl->nodeReport("cn01", jobEnded(1, 250), 250);
    QCOMPARE(state(1), std::string("COMPLETED"));
    QCOMPARE(usageOf("alice", 250), 600.0);
    m_ctl->schedule(400); // a later period finds nothing more of it
    QCOMPARE(usageOf("alice", 400), 600.0);
}

QTEST_APPLESS_MAIN(ControllerOpsTest)
#include "controller_ops_test.moc"
