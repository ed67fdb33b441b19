// sstat in process against a fake controller: its option errors and messages as Slurm 22.05's
// (checked side by side with the reference cluster's sstat), and the rows of a running step.
#include "command_harness.h"
#include "mc/cmd/sstat.h"

#include <QtTest>

using namespace mc::cmd::test;
using mc::cmd::Sstat;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

// A `steps` reply with job 7's batch step and step 0 on node[01-02].
std::optional<Json> runningSteps(const Json &request)
{
    Json reply = okReply();
    Json steps = Json::array();
    if (request["job_ids"].items().front().toInt() == 7) {
        for (const char *id : {"batch", "0"}) {
            Json step = Json::object();
            step.set("job_id", 7);
            step.set("step_id", id);
            step.set("ntasks", 2);
            step.set("nodes", mc::proto::stringList({"node01", "node02"}));
            step.set("max_rss_kb", 2048);
            step.set("ave_rss_kb", 1024);
            step.set("total_cpu_ms", 3000);
            steps.push(std::move(step));
        }
    }
    reply.set("steps", std::move(steps));
    return reply;
}

} // namespace

class SstatTest : public QObject {
    Q_OBJECT

private slots:
    void withoutJobsSaysSoAndFails()
    {
        Harness h;
        auto r = h.run<Sstat>({});
        COMPARE_TEXT(r.err, "sstat: error: You didn't give me any jobs to stat.\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY(h.requests.empty());
    }

    void unknownAndAmbiguousOptionsAreGlibcsWords()
    {
        Harness h;
        auto r = h.run<Sstat>({"--bogus"});
        COMPARE_TEXT(r.err, "sstat: unrecognized option '--bogus'\n");
        QCOMPARE(r.exitCode, 1);
        r = h.run<Sstat>({"--par", "-j", "7"});
        COMPARE_TEXT(r.err,
            "sstat: option '--par' is ambiguous; possibilities: '--parsable' '--parsable2'\n");
        QCOMPARE(r.exitCode, 1);
    }

    void optionsMiniclusterDoesNotImplementAreRefused()
    {
        Harness h;
        auto r = h.run<Sstat>({"--noconvert", "-j", "7"});
        COMPARE_TEXT(r.err, "sstat: error: --noconvert is not supported by minicluster\n");
        QCOMPARE(r.exitCode, 1);
        r = h.run<Sstat>({"-j", "7", "--format=JobID,MaxVMSize"});
        COMPARE_TEXT(r.err, "sstat: error: the field MaxVMSize is not supported by minicluster\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY(h.requests.empty());
    }

    void aMalformedJobIdIsFatal()
    {
        Harness h;
        auto r = h.run<Sstat>({"-j", "abc"});
        COMPARE_TEXT(r.err, "sstat: fatal: Bad job/step specified: abc\n");
        QCOMPARE(r.exitCode, 1);
        QVERIFY(h.requests.empty());
    }

    void anUnreachableControllerIsSlurmsConnectFailure()
    {
        Harness h;
        auto r = h.run<Sstat>({"-j", "7"});
        COMPARE_TEXT(r.err, "sstat: error: Unable to contact slurm controller (connect failure)\n");
        QCOMPARE(r.exitCode, 1);
    }

    void showsTheLowestNumberedStepOrEveryStepWithA()
    {
        Harness h;
        h.reply = runningSteps;
        auto r = h.run<Sstat>({"-j", "7", "-P", "--format=JobID,NTasks,Nodelist,MaxRSS,TotalCPU"});
        COMPARE_TEXT(
            r.out, "JobID|NTasks|Nodelist|MaxRSS|TotalCPU\n7.0|2|node[01-02]|2048K|00:03.000\n");
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(h.requests.front()["op"].toString(), std::string("steps"));
        r = h.run<Sstat>({"-a", "-n", "-P", "-o", "JobID,AveCPU", "-j", "7"});
        COMPARE_TEXT(r.out, "7.batch|00:01.500\n7.0|00:01.500\n");
    }

    void aJobWithoutRunningStepsIsAnErrorLineButNotAFailure()
    {
        Harness h;
        h.reply = runningSteps;
        auto r = h.run<Sstat>({"-j", "8", "-n"});
        COMPARE_TEXT(r.err, "sstat: error: couldn't get steps for job 8\n");
        QCOMPARE(r.exitCode, 0);
        r = h.run<Sstat>({"-j", "7.5", "-n"});
        COMPARE_TEXT(r.err, "sstat: error: StepId=7.5 not found running.\n");
        QCOMPARE(r.exitCode, 0);
    }
};

QTEST_APPLESS_MAIN(SstatTest)
#include "sstat_test.moc"
