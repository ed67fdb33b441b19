#include "command_harness.h"
#include "mc/cmd/scancel.h"

#include <QtTest>

using namespace mc::cmd::test;
using mc::cmd::Scancel;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

struct FakeJob {
    int id;
    std::string user;
    std::string name;
    std::string state;
};

// The jobs of 05_scancel.txt, answering "jobs" and "cancel" as the controller does: cancel
// results list only failures.
class FakeQueue {
public:
    std::vector<FakeJob> jobs{{5, "alice", "wrap", "COMPLETED"},
        {36, "alice", "sleeper", "RUNNING"}, {37, "alice", "sleeper", "RUNNING"},
        {38, "alice", "other", "PENDING"}, {39, "bob", "bobs", "RUNNING"}};

    std::optional<Json> operator()(const Json &request)
    {
        Json reply = okReply();
        if (request["op"].toString() == "jobs") {
            Json list = Json::array();
            for (const auto &job : jobs) {
                Json j = Json::object();
                j.set("job_id", job.id);
                j.set("user", job.user);
                j.set("uid", static_cast<std::int64_t>(referenceUser(job.user)->uid));
                j.set("name", job.name);
                j.set("state", job.state);
                j.set("partition", "cpu");
                j.set("account", "students");
                j.set("qos", "normal");
                list.push(std::move(j));
            }
            reply.set("jobs", std::move(list));
            return reply;
        }
        Json results = Json::array();
        for (const auto &idJson : request["job_ids"].items()) {
            auto fail = [&](const char *message) {
                Json r = Json::object();
                r.set("job_id", idJson.toInt());
                r.set("error", message);
                results.push(std::move(r));
            };
            auto it = std::find_if(
                jobs.begin(), jobs.end(), [&](const FakeJob &j) { return j.id == idJson.toInt(); });
            if (it == jobs.end()) {
                fail("Invalid job id specified");
            } else if (request["user"].toString() != "root"
                && request["user"].toString() != it->user) {
                fail("Access/permission denied");
            } else if (it->state == "COMPLETED" || it->state == "CANCELLED") {
                fail("Job/step already completing or completed");
            } else if (!request.contains("signal")) {
                it->state = it->state == "PENDING" ? "CANCELLED" : "COMPLETING";
            }
        }
        reply.set("results", std::move(results));
        return reply;
    }
};

std::vector<std::int64_t> cancelledIds(const Harness &h)
{
    std::vector<std::int64_t> ids;
    for (const auto &request : h.requests) {
        if (request["op"].toString() == "cancel") {
            for (const auto &id : request["job_ids"].items()) {
                ids.push_back(id.toInt());
            }
        }
    }
    return ids;
}

} // namespace

class ScancelTest : public QObject {
    Q_OBJECT

private slots:
    void cancellingOwnJobIsSilent();
    void cancellingTwiceIsSilent();
    void someoneElsesJobIsDeniedWithExit210();
    void unknownJobIsSilentUnlessVerbose();
    void finishedJobIsSilent();
    void malformedJobIdIsRejected();
    void arrayTasksAreSentAsNamed();
    void jobStepsAreAskedForOneByOneWithSlurmsWords();
    void missingJobIdentificationIsAnError();
    void verboseNamesEachTerminatedJob();
    void nameSelectsActiveJobsOfThatName();
    void userSelectsOnlyThatUsersActiveJobs();
    void signalByNameIsSentAndStillDenied();
    void signalNamesAndNumbersAreAccepted();
    void signalToAPendingJobIsRefused();
    void unknownSignalIsRejected();
    void unknownUserIsRejected();
    void unsupportedOptionIsRefused();
    void versionAndUsageMatchSlurm();
};

void ScancelTest::cancellingOwnJobIsSilent()
{
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"36"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(h.requests.size(), std::size_t{1});
    COMPARE_TEXT(h.requests.front().dump(), R"({"op":"cancel","job_ids":[36],"user":"alice"})");
}

void ScancelTest::cancellingTwiceIsSilent()
{
    Harness h;
    FakeQueue queue;
    h.reply = std::ref(queue);
    QCOMPARE(h.run<Scancel>({"36"}).exitCode, 0);
    const Result again = h.run<Scancel>({"36"});
    COMPARE_TEXT(again.err, "");
    QCOMPARE(again.exitCode, 0);
}

void ScancelTest::someoneElsesJobIsDeniedWithExit210()
{
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"39"});
    COMPARE_TEXT(r.err, "scancel: error: Kill job error on job id 39: Access/permission denied\n");
    QCOMPARE(r.exitCode, 210);

    // -Q hides only "already done" and "unknown job", not a refusal.
    const Result quiet = h.run<Scancel>({"-Q", "39"});
    COMPARE_TEXT(
        quiet.err, "scancel: error: Kill job error on job id 39: Access/permission denied\n");
    QCOMPARE(quiet.exitCode, 210);

    Harness root("root");
    root.reply = FakeQueue();
    const Result asRoot = root.run<Scancel>({"39"});
    COMPARE_TEXT(asRoot.err, "");
    QCOMPARE(asRoot.exitCode, 0);
}

void ScancelTest::unknownJobIsSilentUnlessVerbose()
{
    Harness h;
    h.reply = FakeQueue();
    const Result quiet = h.run<Scancel>({"999999"});
    COMPARE_TEXT(quiet.err, "");
    QCOMPARE(quiet.exitCode, 0);
    const Result verbose = h.run<Scancel>({"-v", "999999"});
    COMPARE_TEXT(verbose.err,
        "scancel: Terminating job 999999\n"
        "scancel: error: Kill job error on job id 999999: Invalid job id specified\n");
    QCOMPARE(verbose.exitCode, 0);
}

void ScancelTest::finishedJobIsSilent()
{
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"5"});
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
}

void ScancelTest::malformedJobIdIsRejected()
{
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"abc"});
    COMPARE_TEXT(r.err, "scancel: error: Invalid job id abc\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY(h.requests.empty());
}

void ScancelTest::arrayTasksAreSentAsNamed()
{
    // scancel 12_2 "12_[1-3,5]",14: the tasks as named (a comma inside brackets is theirs).
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"36_2", "36_[1-3,5],38"});
    QCOMPARE(r.exitCode, 0);
    COMPARE_TEXT(h.requests.front().dump(),
        R"({"op":"cancel","job_ids":["36_2","36_[1-3,5]",38],"user":"alice"})");
    for (const char *bad : {"36_", "36_[x]", "36_[1-3%2]"}) {
        QCOMPARE(
            h.run<Scancel>({bad}).err, "scancel: error: Invalid job id " + std::string(bad) + "\n");
    }
    // Slurm's scancel takes a step's number only: no batch or extern step, no step of a step.
    for (const char *bad : {"36.batch", "36.extern", "36.0.1", "36.", "36_[1-2].0"}) {
        QCOMPARE(
            h.run<Scancel>({bad}).err, "scancel: error: Invalid job id " + std::string(bad) + "\n");
    }
}

void ScancelTest::jobStepsAreAskedForOneByOneWithSlurmsWords()
{
    // The controller's answers: 36.0 runs, job 37 is not there, 38 runs without step 4, 39 is
    // bob's (the reply names a job that is there).
    Harness h;
    h.reply = [](const Json &request) -> std::optional<Json> {
        const std::string job = request["job"].toString();
        if (job == "39") {
            Json reply = errorReply("Invalid user id");
            reply.set("errno", 2010);
            reply.set("job_id", 39);
            return reply;
        }
        if (job == "37" || job == "38") {
            Json reply = errorReply("Invalid job id specified");
            reply.set("errno", 2017);
            if (job == "38") {
                reply.set("job_id", 38);
            }
            return reply;
        }
        return okReply();
    };
    Result r = h.run<Scancel>({"36.0", "36_2.1"});
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(h.requests.size(), std::size_t{2});
    COMPARE_TEXT(h.requests[0].dump(),
        R"({"op":"step_signal","job":"36","step_id":0,"signal":9,"user":"alice"})");
    COMPARE_TEXT(h.requests[1].dump(),
        R"({"op":"step_signal","job":"36_2","step_id":1,"signal":9,"user":"alice"})");
    // A job that is not there is said even without -v and exits 1; -Q hides the words only.
    r = h.run<Scancel>({"37.4"});
    COMPARE_TEXT(
        r.err, "scancel: error: Kill job error on job step id 37.4: Invalid job id specified\n");
    QCOMPARE(r.exitCode, 1);
    r = h.run<Scancel>({"-Q", "37.4"});
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 1);
    // No such step of a job that runs: named by its job alone, exit 2017 % 256, even with -Q.
    r = h.run<Scancel>({"-Q", "38.4"});
    COMPARE_TEXT(
        r.err, "scancel: error: Kill job error on job step id 38: Invalid job id specified\n");
    QCOMPARE(r.exitCode, 225);
    // Another user's step: likewise, exit 2010 % 256.
    r = h.run<Scancel>({"-Q", "--signal=USR1", "39.0"});
    COMPARE_TEXT(r.err, "scancel: error: Kill job error on job step id 39: Invalid user id\n");
    QCOMPARE(r.exitCode, 218);
    COMPARE_TEXT(h.requests.back().dump(),
        R"({"op":"step_signal","job":"39","step_id":0,"signal":10,"user":"alice"})");
    r = h.run<Scancel>({"-v", "36.0"});
    COMPARE_TEXT(r.err, "scancel: Terminating step 36.0\n");
}

void ScancelTest::missingJobIdentificationIsAnError()
{
    Harness h;
    const Result r = h.run<Scancel>({});
    COMPARE_TEXT(r.err, "scancel: error: No job identification provided\n");
    QCOMPARE(r.exitCode, 1);
}

void ScancelTest::verboseNamesEachTerminatedJob()
{
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"-v", "37"});
    COMPARE_TEXT(r.err, "scancel: Terminating job 37\n");
    QCOMPARE(r.exitCode, 0);
}

void ScancelTest::nameSelectsActiveJobsOfThatName()
{
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"-n", "other"});
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(cancelledIds(h), (std::vector<std::int64_t>{38}));
}

void ScancelTest::userSelectsOnlyThatUsersActiveJobs()
{
    Harness h;
    FakeQueue queue;
    h.reply = std::ref(queue);
    const Result r = h.run<Scancel>({"-u", "alice"});
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
    // Pending jobs are cancelled first, as Slurm does.
    QCOMPARE(cancelledIds(h), (std::vector<std::int64_t>{38, 36, 37}));
    h.requests.clear();
    const Result again = h.run<Scancel>({"-u", "alice"});
    COMPARE_TEXT(again.err, "");
    QCOMPARE(again.exitCode, 0);
    QVERIFY(cancelledIds(h).empty());
}

void ScancelTest::signalByNameIsSentAndStillDenied()
{
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"--signal=USR1", "39"});
    COMPARE_TEXT(r.err, "scancel: error: Kill job error on job id 39: Access/permission denied\n");
    QCOMPARE(r.exitCode, 210);
    COMPARE_TEXT(
        h.requests.back().dump(), R"({"op":"cancel","job_ids":[39],"user":"alice","signal":10})");
}

void ScancelTest::signalToAPendingJobIsRefused()
{
    Harness h;
    h.reply = FakeQueue();
    const Result r = h.run<Scancel>({"-s", "USR1", "38", "36"});
    COMPARE_TEXT(r.err,
        "scancel: error: Kill job error on job id 38: Job can not be altered now, try again "
        "later\n");
    QCOMPARE(r.exitCode, 228); // ESLURM_TRANSITION_STATE_NO_UPDATE (2020) % 256
    QCOMPARE(cancelledIds(h), std::vector<std::int64_t>{36}); // the running job still gets it
    // SIGKILL is a cancel: a pending job takes it.
    const Result kill = h.run<Scancel>({"-s", "KILL", "38"});
    QCOMPARE(kill.exitCode, 0);
}

void ScancelTest::signalNamesAndNumbersAreAccepted()
{
    for (const char *name : {"USR1", "SIGUSR1", "usr1", "10"}) {
        Harness h;
        h.reply = FakeQueue();
        const Result r = h.run<Scancel>({"-s", name, "36"});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(h.requests.back()["signal"].toInt(), std::int64_t{10});
    }
}

void ScancelTest::unknownSignalIsRejected()
{
    Harness h;
    const Result r = h.run<Scancel>({"-s", "BOGUS", "36"});
    COMPARE_TEXT(r.err, "Unknown job signal: BOGUS\n");
    QCOMPARE(r.exitCode, 1);
}

void ScancelTest::unknownUserIsRejected()
{
    Harness h;
    const Result r = h.run<Scancel>({"-u", "nosuchuser"});
    COMPARE_TEXT(r.err, "scancel: error: Invalid user name: nosuchuser\n");
    QCOMPARE(r.exitCode, 1);
}

void ScancelTest::unsupportedOptionIsRefused()
{
    Harness h;
    const Result r = h.run<Scancel>({"--interactive", "36"});
    COMPARE_TEXT(r.err, "scancel: error: --interactive is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
    const Result unknown = h.run<Scancel>({"--bogus"});
    COMPARE_TEXT(unknown.err,
        "scancel: unrecognized option '--bogus'\nTry \"scancel --help\" for more information\n");
    QCOMPARE(unknown.exitCode, 1);
}

void ScancelTest::versionAndUsageMatchSlurm()
{
    Harness h;
    COMPARE_TEXT(h.run<Scancel>({"--version"}).out, "slurm-wlm 22.05.8\n");
    COMPARE_TEXT(h.run<Scancel>({"--usage"}).out,
        "Usage: scancel [-A account] [--batch] [--full] [--interactive] [-n job_name]\n"
        "               [-p partition] [-Q] [-q qos] [-R reservation] [-s signal | integer]\n"
        "               [-t PENDING | RUNNING | SUSPENDED] [--usage] [-u user_name]\n"
        "               [--hurry] [-V] [-v] [-w hosts...] [--wckey=wckey]\n"
        "               [job_id[_array_id][.step_id]]\n");
}

QTEST_APPLESS_MAIN(ScancelTest)
#include "scancel_test.moc"
