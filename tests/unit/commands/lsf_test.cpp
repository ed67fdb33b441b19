// bsub, bjobs, bkill and bstop/bresume in process against a fake controller: LSF 10.1's words
// and formats, and the request each LSF command becomes.
#include "command_harness.h"
#include "mc/cmd/lsf.h"

#include <QtTest>

#include <fstream>
#include <map>

using namespace mc::cmd::test;
using mc::cmd::Bjobs;
using mc::cmd::Bkill;
using mc::cmd::Bstop;
using mc::cmd::Bsub;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

Json job(std::int64_t id, const std::string &state, const std::string &user = "alice")
{
    Json j = Json::object();
    j.set("job_id", id);
    j.set("name", "myjob");
    j.set("user", user);
    j.set("state", state);
    j.set("partition", "hpc");
    j.set("submit_host", "login1");
    j.set("submit_time", std::int64_t{0});
    j.set("reason", state == "PENDING" ? "Dependency" : "None");
    j.set("num_cpus", std::int64_t{4});
    Json nodes = Json::array();
    if (state == "RUNNING") {
        nodes.push("n-62-1");
    }
    j.set("nodes", std::move(nodes));
    return j;
}

// A controller that accepts submissions as job 12 (queue hpc) and lists `jobs`.
auto controller(std::vector<Json> jobs)
{
    return [jobs](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        const std::string op = request["op"].toString();
        if (op == "submit") {
            reply.set("job_id", 12);
        } else if (op == "jobs") {
            Json list = Json::array();
            for (const Json &j : jobs) {
                list.push(j);
            }
            if (request.contains("job_ids")) {
                list = Json::array();
                list.push(job(12, "PENDING"));
            }
            reply.set("jobs", std::move(list));
        } else if (op == "cancel") {
            Json results = Json::array();
            for (const auto &id : request["job_ids"].items()) {
                if (id.toInt() == 99) {
                    Json r = Json::object();
                    r.set("job_id", id.toInt());
                    r.set("error", "Invalid job id specified");
                    results.push(std::move(r));
                }
            }
            reply.set("results", std::move(results));
        }
        return reply;
    };
}

// bstop (or bresume, `resume`) with `args` through the harness's controller.
Result stop(Harness &h, std::vector<std::string> args, bool resume)
{
    std::ostringstream out;
    std::ostringstream err;
    h.ctx.args = std::move(args);
    h.ctx.out = &out;
    h.ctx.err = &err;
    Result result;
    result.exitCode = Bstop(h.ctx, resume).run();
    result.out = out.str();
    result.err = err.str();
    return result;
}

const Json *submitted(const Harness &h)
{
    for (const auto &request : h.requests) {
        if (request["op"].toString() == "submit") {
            return &request;
        }
    }
    return nullptr;
}

} // namespace

class LsfTest : public QObject {
    Q_OBJECT

private slots:
    void bsubFromStdinReadsBsubLinesAndAnswersInLsfWords();
    void bsubCommandLineOverridesTheScript();
    void bsubOfACommandWrapsIt();
    void bsubRefusesWhatMinclusterLacks();
    void bsubUnknownQueueIsNoSuchQueue();
    void bjobsListsUnfinishedJobsOfTheCaller();
    void bjobsAllShowsFinishedAndPendingShowsReasons();
    void bjobsWithNothingToShowSaysSo();
    void bjobsLongTellsTheJobsStory();
    void bkillTerminatesAndNamesUnknownJobs();
    void bstopSuspendsARunningJobAndHoldsAPendingOne();
};

void LsfTest::bsubFromStdinReadsBsubLinesAndAnswersInLsfWords()
{
    Harness h;
    h.reply = controller({});
    h.ctx.readStdin = [] {
        return std::string("#!/bin/sh\n#BSUB -J train\n#BSUB -q hpc\n#BSUB -n 4\n"
                           "#BSUB -R \"rusage[mem=2GB] span[hosts=1]\"\n#BSUB -W 1:30\n"
                           "#BSUB -o out_%J.txt\n#BSUB -e err_%J.txt\npython train.py\n");
    };
    const Result r = h.run<Bsub>({});
    COMPARE_TEXT(r.err, "");
    COMPARE_TEXT(r.out, "Job <12> is submitted to queue <hpc>.\n");
    QCOMPARE(r.exitCode, 0);
    const Json *request = submitted(h);
    QVERIFY(request);
    const Json &spec = (*request)["job"];
    COMPARE_TEXT(spec["name"].toString(), "train");
    COMPARE_TEXT(spec["partition"].toString(), "hpc");
    QCOMPARE(spec["ntasks"].toInt(), std::int64_t{4});
    QCOMPARE(spec["nodes"].toInt(), std::int64_t{1});
    QCOMPARE(spec["mem_per_cpu"].toInt(), std::int64_t{2048});
    QCOMPARE(spec["time_limit"].toInt(), std::int64_t{5400}); // LSF's hours:minutes
    COMPARE_TEXT(spec["std_out"].toString(), "/home/alice/out_%j.txt");
    COMPARE_TEXT(spec["std_err"].toString(), "/home/alice/err_%j.txt");
    COMPARE_TEXT(spec["open_mode"].toString(), "append"); // -o appends in LSF
    const auto env = spec["env"].toStringList();
    QVERIFY(std::find(env.begin(), env.end(), "MINICLUSTER_BATCH_SYSTEM=lsf") != env.end());
}

void LsfTest::bsubCommandLineOverridesTheScript()
{
    Harness h;
    h.reply = controller({});
    h.ctx.readStdin = [] {
        return std::string("#BSUB -J inscript\n#BSUB -M 500\nhostname\n");
    };
    QCOMPARE(h.run<Bsub>({"-J", "cli", "-oo", "o.txt"}).exitCode, 0);
    const Json &spec = (*submitted(h))["job"];
    COMPARE_TEXT(spec["name"].toString(), "cli");
    QCOMPARE(spec["mem_per_cpu"].toInt(), std::int64_t{500});
    QVERIFY(!spec.contains("open_mode"));
    QVERIFY(spec["script"].toString().rfind("#!/bin/sh\n", 0) == 0); // LSF runs it with sh
}

void LsfTest::bsubOfACommandWrapsIt()
{
    Harness h;
    h.reply = controller({});
    QCOMPARE(h.run<Bsub>({"-w", "done(10) && ended(11)", "sleep", "60"}).exitCode, 0);
    const Json &spec = (*submitted(h))["job"];
    COMPARE_TEXT(spec["script"].toString(), "#!/bin/sh\nsleep 60\n");
    COMPARE_TEXT(spec["name"].toString(), "sleep 60");
    COMPARE_TEXT(spec["dependency"].toString(), "afterok:10,afterany:11");
}

void LsfTest::bsubRefusesWhatMinclusterLacks()
{
    Harness h;
    h.reply = controller({});
    Result r = h.run<Bsub>({"-Is", "bash"});
    COMPARE_TEXT(r.err, "-Is is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 255);
    r = h.run<Bsub>({"-Z", "x"});
    COMPARE_TEXT(r.err, "bsub: illegal option -- Z\n");
    r = h.run<Bsub>({"-R", "affinity[core(1)]", "true"});
    COMPARE_TEXT(r.err, "-R \"affinity[core(1)]\" is not supported by minicluster\n");
    QVERIFY(!submitted(h));
}

void LsfTest::bsubUnknownQueueIsNoSuchQueue()
{
    Harness h;
    h.reply = [](const Json &request) -> std::optional<Json> {
        if (request["op"].toString() == "submit") {
            return errorReply("Invalid partition name specified");
        }
        return okReply();
    };
    const Result r = h.run<Bsub>({"-q", "nosuch", "true"});
    COMPARE_TEXT(r.err, "nosuch: No such queue. Job not submitted.\n");
    QCOMPARE(r.exitCode, 255);
}

void LsfTest::bjobsListsUnfinishedJobsOfTheCaller()
{
    Harness h;
    h.reply = controller(
        {job(12, "RUNNING"), job(13, "PENDING"), job(14, "COMPLETED"), job(15, "RUNNING", "bob")});
    const Result r = h.run<Bjobs>({});
    COMPARE_TEXT(r.out,
        "JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME\n"
        "12      alice   RUN   hpc        login1      4*n-62-1    myjob      "
            + std::string(r.out.substr(r.out.rfind("myjob") + 11, 12))
            + "\n"
              "13      alice   PEND  hpc        login1                  myjob      "
            + std::string(r.out.substr(r.out.rfind("myjob") + 11, 12)) + "\n");
    QCOMPARE(r.exitCode, 0);
    const Result others = h.run<Bjobs>({"-u", "all"});
    QVERIFY(others.out.find("\n15      bob     RUN") != std::string::npos);
}

void LsfTest::bjobsAllShowsFinishedAndPendingShowsReasons()
{
    Harness h;
    h.reply = controller({job(13, "PENDING"), job(14, "COMPLETED"), job(16, "FAILED")});
    Result r = h.run<Bjobs>({"-a"});
    QVERIFY(r.out.find("\n14      alice   DONE") != std::string::npos);
    QVERIFY(r.out.find("\n16      alice   EXIT") != std::string::npos);
    r = h.run<Bjobs>({"-p"});
    QVERIFY(r.out.rfind("JOBID   USER    STAT  QUEUE      FROM_HOST   JOB_NAME   SUBMIT_TIME\n"
                        "13      alice   PEND  hpc        login1      myjob      ",
                0)
        == 0);
    QVERIFY(r.out.find("\n Job dependency condition not satisfied;\n") != std::string::npos);
}

void LsfTest::bjobsWithNothingToShowSaysSo()
{
    Harness h;
    h.reply = controller({job(14, "COMPLETED")});
    Result r = h.run<Bjobs>({});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err, "No unfinished job found\n");
    r = h.run<Bjobs>({"-p"});
    COMPARE_TEXT(r.err, "No pending job found\n");
    r = h.run<Bjobs>({"-z"});
    COMPARE_TEXT(r.err, "bjobs: illegal option -- z\n");
    QCOMPARE(r.exitCode, 255);
}

void LsfTest::bjobsLongTellsTheJobsStory()
{
    Harness h;
    h.reply = controller({job(13, "PENDING"), job(16, "FAILED")});
    const Result r = h.run<Bjobs>({"-l", "-a"});
    QVERIFY2(r.out.find("\nJob <13>, Job Name <myjob>, User <alice>, Project <default>, Status "
                        "<PEND>, Queue <hpc>, Command <")
            == 0,
        r.out.c_str());
    QVERIFY(r.out.find(": Submitted from host <login1>, CWD <") != std::string::npos);
    QVERIFY(r.out.find(" PENDING REASONS:\n Job dependency condition not satisfied;\n")
        != std::string::npos);
    QVERIFY(r.out.find("Status <EXIT>") != std::string::npos);
    QVERIFY(r.out.find(": Exited with exit code 0.\n") != std::string::npos);
}

void LsfTest::bkillTerminatesAndNamesUnknownJobs()
{
    Harness h;
    h.reply = controller({job(12, "RUNNING")});
    Result r = h.run<Bkill>({"12", "99"});
    COMPARE_TEXT(r.out, "Job <12> is being terminated\n");
    COMPARE_TEXT(r.err, "Job <99>: No matching job found\n");
    QCOMPARE(r.exitCode, 255);
    r = h.run<Bkill>({});
    COMPARE_TEXT(r.err, "bkill: Job ID or one of '-m' '-u' '-q' and '-J' must be specified\n");
    r = h.run<Bkill>({"0"});
    COMPARE_TEXT(r.out, "Job <12> is being terminated\n");
    QCOMPARE(r.exitCode, 0);
}

void LsfTest::bstopSuspendsARunningJobAndHoldsAPendingOne()
{
    Harness h;
    std::string runningState = "RUNNING";
    h.reply = [&runningState](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        if (request["op"].toString() == "jobs") {
            Json list = Json::array();
            list.push(job(12, runningState));
            list.push(job(13, "PENDING"));
            reply.set("jobs", std::move(list));
        }
        if (request["op"].toString() == "resume") { // as the controller refuses a running job
            Json failure = Json::object();
            failure.set("job_id", 12);
            failure.set("error", "Job is not suspended");
            Json results = Json::array();
            results.push(std::move(failure));
            reply.set("results", std::move(results));
        }
        return reply;
    };
    Result r = stop(h, {"12", "13"}, false);
    COMPARE_TEXT(r.out, "Job <12> is being stopped\nJob <13> is being stopped\n");
    QCOMPARE(r.exitCode, 0);
    std::map<std::string, Json> sent;
    for (const auto &request : h.requests) {
        sent[request["op"].toString()] = request;
    }
    // The running job is suspended as its owner may in LSF; the pending one held (PSUSP).
    QCOMPARE(sent["suspend"]["job_ids"].items().size(), 1u);
    QCOMPARE(sent["suspend"]["job_ids"].items().at(0).toInt(), 12);
    QVERIFY(sent["suspend"]["owner"].toBool());
    QCOMPARE(sent["hold"]["job_ids"].items().at(0).toInt(), 13);
    QVERIFY(!sent["hold"]["admin"].toBool(true));

    runningState = "SUSPENDED";
    QVERIFY(h.run<Bjobs>({"12"}).out.find(" USUSP ") != std::string::npos);
    // bresume of a job that runs: the controller's refusal, in LSF's frame.
    runningState = "RUNNING";
    r = stop(h, {"12"}, true);
    COMPARE_TEXT(r.err, "Job <12>: Job is not suspended\n");
    QCOMPARE(h.requests.back()["op"].toString(), std::string("resume"));
    QCOMPARE(r.exitCode, 255);
}

QTEST_APPLESS_MAIN(LsfTest)
#include "lsf_test.moc"
