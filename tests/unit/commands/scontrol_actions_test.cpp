// scontrol hold/uhold/release/requeue/update and show steps against a fake controller, with the
// messages of 12_scontrol.txt.
#include "command_harness.h"
#include "mc/cmd/scontrol.h"

#include <QtTest>

using namespace mc::cmd::test;
using mc::cmd::Scontrol;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

// A reply whose `results` list the one job that failed, as the cancel-like ops answer.
Json failedFor(std::int64_t id, const std::string &error)
{
    Json result = Json::object();
    result.set("job_id", id);
    result.set("errno", std::int64_t{2002});
    result.set("error", error);
    Json results = Json::array();
    results.push(std::move(result));
    Json reply = okReply();
    reply.set("results", std::move(results));
    return reply;
}

Json refusal(const std::string &error)
{
    Json reply = Json::object();
    reply.set("ok", false);
    reply.set("error", error);
    return reply;
}

std::vector<std::int64_t> ids(const Json &list)
{
    std::vector<std::int64_t> out;
    for (const auto &id : list.items()) {
        out.push_back(id.toInt());
    }
    return out;
}

} // namespace

class ScontrolActionsTest : public QObject {
    Q_OBJECT

private slots:
    void holdUholdAndReleaseSendTheirOps();
    void refusedReleaseNamesTheJobThenSlurmSuspendError();
    void requeueAndRequeueholdSendTheHoldFlag();
    void suspendAndResumeSendTheirOpsAndPrintSlurmsWords();
    void refusedRequeueNamesTheJob();
    void updateSendsTheFieldsAUserMayChange();
    void refusedUpdateNamesTheJob();
    void badUpdateValuesAndUnknownKeysAreRefusedLocally();
    void updateNodeIsForOperatorsOnly();
    void drainWithoutReasonIsDenied();
    void showStepsPrintsRunningSteps();
    void showJobOfAnArrayRecordShowsItsTasksAndThrottle();
    void badJobIdsAreInvalid();
};

void ScontrolActionsTest::holdUholdAndReleaseSendTheirOps()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(okReply());
    };
    Result r = h.run<Scontrol>({"hold", "112,113"});
    QCOMPARE(r.exitCode, 0);
    COMPARE_TEXT(r.err, "");
    COMPARE_TEXT(h.requests.back()["op"].toString(), "hold");
    QCOMPARE(h.requests.back()["admin"].toBool(), true);
    QCOMPARE(ids(h.requests.back()["job_ids"]), (std::vector<std::int64_t>{112, 113}));
    COMPARE_TEXT(h.requests.back()["user"].toString(), "alice");
    QCOMPARE(h.run<Scontrol>({"uhold", "112"}).exitCode, 0);
    COMPARE_TEXT(h.requests.back()["op"].toString(), "hold");
    QCOMPARE(h.requests.back()["admin"].toBool(), false);
    QCOMPARE(h.run<Scontrol>({"release", "112", "114"}).exitCode, 0);
    COMPARE_TEXT(h.requests.back()["op"].toString(), "release");
    QCOMPARE(ids(h.requests.back()["job_ids"]), (std::vector<std::int64_t>{112, 114}));
}

// 12_scontrol.txt: alice releases the job root held.
void ScontrolActionsTest::refusedReleaseNamesTheJobThenSlurmSuspendError()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(failedFor(112, "Access/permission denied"));
    };
    const Result r = h.run<Scontrol>({"release", "112"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err,
        "Access/permission denied for job 112\nslurm_suspend error: Access/permission denied\n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolActionsTest::suspendAndResumeSendTheirOpsAndPrintSlurmsWords()
{
    Harness h("root");
    h.reply = [](const Json &) {
        return std::optional<Json>(okReply());
    };
    Result r = h.run<Scontrol>({"suspend", "112,113"});
    QCOMPARE(r.exitCode, 0);
    COMPARE_TEXT(r.out + r.err, ""); // Slurm says nothing when it is done
    COMPARE_TEXT(h.requests.back()["op"].toString(), "suspend");
    QCOMPARE(ids(h.requests.back()["job_ids"]), (std::vector<std::int64_t>{112, 113}));
    COMPARE_TEXT(h.requests.back()["user"].toString(), "root");
    QVERIFY(!h.requests.back().contains("owner")); // Slurm's rule: operators only
    QCOMPARE(h.run<Scontrol>({"resume", "112"}).exitCode, 0);
    COMPARE_TEXT(h.requests.back()["op"].toString(), "resume");
    // The controller's refusals, as real scontrol prints them: no summary line, exit 1.
    h.reply = [](const Json &) {
        return std::optional<Json>(failedFor(112, "Job is not suspended"));
    };
    r = h.run<Scontrol>({"resume", "112"});
    COMPARE_TEXT(r.err, "Job is not suspended for job 112\n");
    QCOMPARE(r.exitCode, 1);
    r = h.run<Scontrol>({"suspend"});
    COMPARE_TEXT(r.err, "too few arguments for keyword:suspend\n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolActionsTest::requeueAndRequeueholdSendTheHoldFlag()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(okReply());
    };
    QCOMPARE(h.run<Scontrol>({"requeue", "111"}).exitCode, 0);
    COMPARE_TEXT(h.requests.back()["op"].toString(), "requeue");
    QCOMPARE(h.requests.back()["hold"].toBool(), false);
    QCOMPARE(h.run<Scontrol>({"requeuehold", "111"}).exitCode, 0);
    QCOMPARE(h.requests.back()["hold"].toBool(), true);
}

void ScontrolActionsTest::refusedRequeueNamesTheJob()
{
    Harness h("root");
    h.reply = [](const Json &) {
        return std::optional<Json>(failedFor(111, "Job is pending execution"));
    };
    const Result r = h.run<Scontrol>({"requeue", "111"});
    COMPARE_TEXT(r.err, "Job is pending execution for job 111\n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolActionsTest::updateSendsTheFieldsAUserMayChange()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(okReply());
    };
    const Result r = h.run<Scontrol>({"update", "jobid=112", "TimeLimit=00:03:00", "Nice=10",
        "JobName=renamed", "Dependency=", "ArrayTaskThrottle=4", "Features=gpu"});
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
    const Json &request = h.requests.back();
    COMPARE_TEXT(request["op"].toString(), "update");
    QCOMPARE(request["job_id"].toInt(), std::int64_t{112});
    const Json &fields = request["fields"];
    QCOMPARE(fields["time_limit"].toInt(), std::int64_t{180});
    QCOMPARE(fields["nice"].toInt(), std::int64_t{10});
    COMPARE_TEXT(fields["name"].toString(), "renamed");
    QVERIFY(fields.contains("dependency"));
    COMPARE_TEXT(fields["dependency"].toString(), "");
    QCOMPARE(fields["array_task_throttle"].toInt(), std::int64_t{4});
    COMPARE_TEXT(fields["constraint"].toString(), "gpu");
}

// 12_scontrol.txt: another user's job, an unknown partition.
void ScontrolActionsTest::refusedUpdateNamesTheJob()
{
    Harness h;
    h.reply = [](const Json &request) {
        return std::optional<Json>(
            refusal(request["job_id"].toInt() == 111 ? "Access/permission denied"
                                                     : "Invalid partition name specified"));
    };
    Result r = h.run<Scontrol>({"update", "jobid=111", "TimeLimit=01:00:00"});
    COMPARE_TEXT(r.err, "Access/permission denied for job 111\n");
    QCOMPARE(r.exitCode, 1);
    r = h.run<Scontrol>({"update", "jobid=112", "Partition=nosuch"});
    COMPARE_TEXT(r.err, "Invalid partition name specified for job 112\n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolActionsTest::badUpdateValuesAndUnknownKeysAreRefusedLocally()
{
    Harness h;
    Result r = h.run<Scontrol>({"update", "jobid=112", "TimeLimit=soon"});
    COMPARE_TEXT(r.err, "Invalid TimeLimit value\n");
    QCOMPARE(r.exitCode, 1);
    r = h.run<Scontrol>({"update", "jobid=112", "Licenses=matlab"});
    COMPARE_TEXT(
        r.err, "scontrol: error: scontrol update Licenses= is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
    r = h.run<Scontrol>({"update", "jobid=112", "Frobs=3"});
    COMPARE_TEXT(r.err, "Update of this parameter is not supported: Frobs=3\nRequest aborted\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY(h.requests.empty());
}

// 12_scontrol.txt: "scontrol update nodename=node01 state=drain reason=x" as alice.
void ScontrolActionsTest::updateNodeIsForOperatorsOnly()
{
    Harness h;
    h.reply = [](const Json &) {
        return std::optional<Json>(refusal("Invalid user id"));
    };
    const Result r = h.run<Scontrol>({"update", "nodename=node01", "state=drain", "reason=x"});
    COMPARE_TEXT(r.err, "slurm_update error: Invalid user id\n");
    QCOMPARE(r.exitCode, 1);
    const Json &request = h.requests.back();
    COMPARE_TEXT(request["op"].toString(), "node_update");
    COMPARE_TEXT(request["node"].toString(), "node01");
    COMPARE_TEXT(request["state"].toString(), "drain");
    COMPARE_TEXT(request["reason"].toString(), "x");
}

void ScontrolActionsTest::drainWithoutReasonIsDenied()
{
    Harness h("root");
    const Result r = h.run<Scontrol>({"update", "NodeName=node01", "State=DRAIN"});
    COMPARE_TEXT(
        r.err, "You must specify a reason when DOWNING or DRAINING a node. Request denied\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY(h.requests.empty());
}

void ScontrolActionsTest::showStepsPrintsRunningSteps()
{
    Harness h;
    h.reply = [](const Json &) {
        Json step = Json::object();
        step.set("job_id", std::int64_t{120});
        step.set("step_id", "0");
        step.set("uid", std::int64_t{1001});
        step.set("start_time", std::int64_t{0});
        step.set("state", "RUNNING");
        step.set("partition", "cpu");
        step.set("nodes", mc::proto::stringList({"node01", "node02"}));
        step.set("num_cpus", std::int64_t{2});
        step.set("ntasks", std::int64_t{2});
        step.set("name", "hostname");
        Json steps = Json::array();
        steps.push(std::move(step));
        Json reply = okReply();
        reply.set("steps", std::move(steps));
        return std::optional<Json>(reply);
    };
    const Result r = h.run<Scontrol>({"-o", "show", "steps", "120"});
    COMPARE_TEXT(r.out,
        "StepId=120.0 UserId=1001 StartTime=Unknown TimeLimit=UNLIMITED State=RUNNING "
        "Partition=cpu NodeList=node[01-02] Nodes=2 CPUs=2 Tasks=2 Name=hostname Network=(null) "
        "TRES=(null) ResvPorts=(null) CPUFreqReq=Default Dist=Block SrunHost:Pid=(null):0\n");
    QCOMPARE(ids(h.requests.back()["job_ids"]), (std::vector<std::int64_t>{120}));
    h.reply = [](const Json &) {
        Json reply = okReply();
        reply.set("steps", Json::array());
        return std::optional<Json>(reply);
    };
    COMPARE_TEXT(h.run<Scontrol>({"show", "steps"}).out, "No job steps in the system\n");
    // Named: a job the controller does not know, else a step its job does not have.
    h.reply = [](const Json &request) {
        Json reply = okReply();
        reply.set("steps", Json::array());
        Json jobs = Json::array();
        if (ids(request["job_ids"]) == std::vector<std::int64_t>{120}) {
            jobs.push(Json::object());
        }
        reply.set("jobs", std::move(jobs));
        return std::optional<Json>(reply);
    };
    const Result unknown = h.run<Scontrol>({"show", "step", "999999.0"});
    COMPARE_TEXT(unknown.err, "slurm_get_job_steps error: Invalid job id specified\n");
    QCOMPARE(unknown.exitCode, 1);
    const Result stepless = h.run<Scontrol>({"show", "step", "120.3"});
    COMPARE_TEXT(stepless.out, "Job step 120.3 not found\n");
    QCOMPARE(stepless.exitCode, 1);
    COMPARE_TEXT(h.run<Scontrol>({"show", "step", "120"}).out, "Job step 120. not found\n");
}

// 06_arrays.txt: "scontrol show job 43", first line.
void ScontrolActionsTest::showJobOfAnArrayRecordShowsItsTasksAndThrottle()
{
    Harness h;
    h.reply = [](const Json &) {
        Json job = Json::object();
        job.set("job_id", std::int64_t{43});
        job.set("array_job_id", std::int64_t{43});
        job.set("array_task_str", "1-10%2");
        job.set("name", "arr");
        job.set("state", "PENDING");
        Json jobs = Json::array();
        jobs.push(std::move(job));
        Json reply = okReply();
        reply.set("jobs", std::move(jobs));
        return std::optional<Json>(reply);
    };
    const Result r = h.run<Scontrol>({"show", "job", "43"});
    COMPARE_TEXT(r.out.substr(0, r.out.find('\n')),
        "JobId=43 ArrayJobId=43 ArrayTaskId=1-10%2 ArrayTaskThrottle=2 JobName=arr");
}

void ScontrolActionsTest::badJobIdsAreInvalid()
{
    Harness h;
    Result r = h.run<Scontrol>({"hold", "abc"});
    COMPARE_TEXT(r.err, "Invalid job id specified for job abc\n");
    QCOMPARE(r.exitCode, 1);
    r = h.run<Scontrol>({"release"});
    COMPARE_TEXT(r.err, "too few arguments for keyword:release\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY(h.requests.empty());
}

QTEST_APPLESS_MAIN(ScontrolActionsTest)
#include "scontrol_actions_test.moc"
