#include "command_harness.h"
#include "mc/cmd/squeue.h"
#include "mc/sched/job_state.h"
#include "mc/sched/time_format.h"
#include "reference_cluster.h"

#include <QtTest>

#include <ctime>

using namespace mc::cmd::test;
using mc::cmd::Squeue;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

// 2026-11-21T11:09:33 UTC, when the reference squeue transcript (03_squeue.txt) was recorded.
constexpr std::int64_t kT0 = 1795259373;

struct JobSpec {
    int id;
    const char *user;
    const char *name;
    const char *partition;
    const char *state; // long name
    const char *reason;
    std::int64_t submit, start, limit;
    std::vector<std::string> nodes;
    int numNodes, cpus;
    std::int64_t priority;
};

Json jobJson(const JobSpec &s)
{
    auto state = mc::sched::parseJobState(s.state);
    Json j = Json::object();
    j.set("job_id", s.id);
    j.set("name", s.name);
    j.set("user", s.user);
    j.set("uid", static_cast<std::int64_t>(referenceUser(s.user)->uid));
    j.set("account", "students");
    j.set("partition", s.partition);
    j.set("qos", "normal");
    j.set("state", s.state);
    j.set("state_short", std::string(mc::sched::shortName(*state)));
    j.set("reason", s.reason);
    j.set("submit_time", s.submit);
    j.set("start_time", s.start);
    j.set("end_time", std::int64_t{0});
    j.set("time_limit", s.limit);
    j.set("nodes", mc::proto::stringList(s.nodes));
    j.set("num_nodes", s.numNodes);
    j.set("num_cpus", s.cpus);
    j.set("min_memory", 500);
    j.set("priority", s.priority);
    return j;
}

// The six jobs of 03_squeue.txt.
std::vector<Json> referenceJobs()
{
    return {
        jobJson({14, "alice", "longrun", "debug", "RUNNING", "None", kT0, kT0 + 3, 600,
            {"node01", "node02"}, 2, 8, 4294901746}),
        jobJson({15, "bob", "bobjob", "cpu", "RUNNING", "None", kT0 + 3, kT0 + 6, 600, {"node03"},
            1, 2, 4294901745}),
        jobJson({16, "alice", "waiting", "debug", "PENDING", "Resources", kT0 + 6, 0, 300, {}, 1, 4,
            4294901744}),
        jobJson({17, "alice", "waiting2", "debug", "PENDING", "Priority", kT0 + 6, 0, 300, {}, 1, 1,
            4294901743}),
        jobJson({18, "bob", "bobwait", "debug", "PENDING", "Priority", kT0 + 6, 0, 600, {}, 1, 1,
            4294901742}),
        jobJson({19, "root", "rootjob", "cpu", "RUNNING", "None", kT0 + 6, kT0 + 9, 172800,
            {"node03"}, 1, 1, 4294901741}),
    };
}

bool listed(const Json &list, const Json &value)
{
    if (list.size() == 0) {
        return true;
    }
    for (const auto &item : list.items()) {
        if (item == value) {
            return true;
        }
    }
    return false;
}

// Answers "jobs" requests like the controller: filters by job_ids, users, states, partitions.
auto controllerWith(std::vector<Json> jobs, std::int64_t now)
{
    return [jobs = std::move(jobs), now](const Json &request) -> std::optional<Json> {
        if (request["op"].toString() == "cluster") { // squeue -w checks the node names
            return clusterReply();
        }
        Json reply = okReply();
        reply.set("now", now);
        Json selected = Json::array();
        for (const auto &job : jobs) {
            if (listed(request["job_ids"], job["job_id"]) && listed(request["users"], job["user"])
                && listed(request["states"], job["state"])
                && listed(request["partitions"], job["partition"])) {
                selected.push(job);
            }
        }
        reply.set("jobs", std::move(selected));
        return reply;
    };
}

// The same as a controller that honours `fields` and `form: rows` (docs/protocol.md).
auto rowsControllerWith(std::vector<Json> jobs, std::int64_t now)
{
    return
        [inner = controllerWith(std::move(jobs), now)](const Json &request) -> std::optional<Json> {
            auto reply = inner(request);
            const auto fields = request["fields"].toStringList();
            if (!reply || fields.empty() || request["form"].toString() != "rows") {
                return reply;
            }
            Json rows = Json::array();
            for (const auto &job : (*reply)["jobs"].items()) {
                Json row = Json::array();
                for (const auto &key : fields) {
                    row.push(job[key]);
                }
                rows.push(std::move(row));
            }
            Json out = okReply();
            out.set("now", (*reply)["now"]);
            out.set("columns", mc::proto::stringList(fields));
            out.set("rows", std::move(rows));
            return out;
        };
}

const std::string kHeader
    = "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n";

} // namespace

class SqueueTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void defaultListingSortsByPartitionStateThenPriority();
    void stepsAreListedInSlurmsStepFormatAndOrder();
    void verboseDumpsTheOptionsReadBeforeTheListing();
    void userAndMeShowOnlyThatUsersJobs();
    void statesFilterKeepsOnlyThoseStates();
    void explicitDefaultFormatPrintsTheSameTable();
    void longListingStartsWithTheDateAndShowsLimits();
    void startListsPendingJobsWithStartTimes();
    void jobsAndPartitionAndNodeFiltersSelectJobs();
    void noHeaderWithCustomFormatPrintsOnlyRows();
    void capitalFormatUsesTwentyWideLeftColumns();
    void formatLettersShowTimesMemoryAndPriority();
    void sortOnDescendingJobId();
    void unknownUserIsReportedButListingContinues();
    void singleUnknownJobIdIsAnError();
    void unknownStateIsRejectedWithTheValidList();
    void unknownPartitionShowsOnlyTheHeader();
    void finishedJobsAppearOnlyWithStatesAll();
    void unsupportedOptionIsRefused();
    void unknownOptionPointsToHelp();
    void versionHelpAndUsageMatchSlurm();
    void unreachableControllerIsALoadError();
    void arrayRecordShowsItsPendingTasksAndDashRExpandsThem();
    void dependencyAndArrayLettersShowContractFields();
    void startShowsThePlannedStart();
    void clusterLicensesAndLongFieldsAnswerAsSlurm();
};

void SqueueTest::initTestCase()
{
    qputenv("TZ", "UTC");
    tzset();
}

void SqueueTest::defaultListingSortsByPartitionStateThenPriority()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 9);
    const Result objects = h.run<Squeue>({});
    QCOMPARE(h.requests.back()["form"].toString(), std::string("rows"));
    h.reply = rowsControllerWith(referenceJobs(), kT0 + 9); // the same from `rows`
    const Result r = h.run<Squeue>({});
    COMPARE_TEXT(objects.out, r.out);
    COMPARE_TEXT(r.out,
        kHeader
            + "                15       cpu   bobjob      bob  R       0:03      1 node03\n"
              "                19       cpu  rootjob     root  R       0:00      1 node03\n"
              "                16     debug  waiting    alice PD       0:00      1 (Resources)\n"
              "                17     debug waiting2    alice PD       0:00      1 (Priority)\n"
              "                18     debug  bobwait      bob PD       0:00      1 (Priority)\n"
              "                14     debug  longrun    alice  R       0:06      2 node[01-02]\n");
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
}

void SqueueTest::userAndMeShowOnlyThatUsersJobs()
{
    const std::string alice = kHeader
        + "                16     debug  waiting    alice PD       0:00      1 (Resources)\n"
          "                17     debug waiting2    alice PD       0:00      1 (Priority)\n"
          "                14     debug  longrun    alice  R       0:06      2 node[01-02]\n";
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 9);
    COMPARE_TEXT(h.run<Squeue>({"-u", "alice"}).out, alice);
    COMPARE_TEXT(h.run<Squeue>({"--me"}).out, alice);
    QCOMPARE(h.requests.back()["users"], mc::proto::stringList({"alice"}));

    Harness bob("bob");
    bob.reply = controllerWith(referenceJobs(), kT0 + 9);
    COMPARE_TEXT(bob.run<Squeue>({"--me"}).out,
        kHeader
            + "                15       cpu   bobjob      bob  R       0:03      1 node03\n"
              "                18     debug  bobwait      bob PD       0:00      1 (Priority)\n");
}

void SqueueTest::statesFilterKeepsOnlyThoseStates()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({"-t", "PD"}).out,
        kHeader
            + "                16     debug  waiting    alice PD       0:00      1 (Resources)\n"
              "                17     debug waiting2    alice PD       0:00      1 (Priority)\n"
              "                18     debug  bobwait      bob PD       0:00      1 (Priority)\n");
    COMPARE_TEXT(h.run<Squeue>({"-t", "R"}).out,
        kHeader
            + "                15       cpu   bobjob      bob  R       0:04      1 node03\n"
              "                19       cpu  rootjob     root  R       0:01      1 node03\n"
              "                14     debug  longrun    alice  R       0:07      2 node[01-02]\n");
    QCOMPARE(h.requests.back()["states"], mc::proto::stringList({"RUNNING"}));
}

void SqueueTest::explicitDefaultFormatPrintsTheSameTable()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    const Result r = h.run<Squeue>({"-o", "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"});
    COMPARE_TEXT(r.out,
        kHeader
            + "                15       cpu   bobjob      bob  R       0:04      1 node03\n"
              "                19       cpu  rootjob     root  R       0:01      1 node03\n"
              "                16     debug  waiting    alice PD       0:00      1 (Resources)\n"
              "                17     debug waiting2    alice PD       0:00      1 (Priority)\n"
              "                18     debug  bobwait      bob PD       0:00      1 (Priority)\n"
              "                14     debug  longrun    alice  R       0:07      2 node[01-02]\n");
}

void SqueueTest::longListingStartsWithTheDateAndShowsLimits()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({"-l"}).out,
        "Sat Nov 21 11:09:43 2026\n"
        "             JOBID PARTITION     NAME     USER    STATE       TIME TIME_LIMI  NODES "
        "NODELIST(REASON)\n"
        "                15       cpu   bobjob      bob  RUNNING       0:04     10:00      1 "
        "node03\n"
        "                19       cpu  rootjob     root  RUNNING       0:01 2-00:00:00      1 "
        "node03\n"
        "                16     debug  waiting    alice  PENDING       0:00      5:00      1 "
        "(Resources)\n"
        "                17     debug waiting2    alice  PENDING       0:00      5:00      1 "
        "(Priority)\n"
        "                18     debug  bobwait      bob  PENDING       0:00     10:00      1 "
        "(Priority)\n"
        "                14     debug  longrun    alice  RUNNING       0:07     10:00      2 "
        "node[01-02]\n");
}

void SqueueTest::startListsPendingJobsWithStartTimes()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({"--start"}).out,
        "             JOBID PARTITION     NAME     USER ST          START_TIME  NODES SCHEDNODES   "
        "        NODELIST(REASON)\n"
        "                16     debug  waiting    alice PD                 N/A      1 (null)       "
        "        (Resources)\n"
        "                17     debug waiting2    alice PD                 N/A      1 (null)       "
        "        (Priority)\n"
        "                18     debug  bobwait      bob PD                 N/A      1 (null)       "
        "        (Priority)\n");
}

void SqueueTest::jobsAndPartitionAndNodeFiltersSelectJobs()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({"-j", "14,16"}).out,
        kHeader
            + "                16     debug  waiting    alice PD       0:00      1 (Resources)\n"
              "                14     debug  longrun    alice  R       0:07      2 node[01-02]\n");
    COMPARE_TEXT(h.run<Squeue>({"-p", "cpu"}).out,
        kHeader
            + "                15       cpu   bobjob      bob  R       0:04      1 node03\n"
              "                19       cpu  rootjob     root  R       0:01      1 node03\n");
    COMPARE_TEXT(h.run<Squeue>({"-w", "node01"}).out,
        kHeader
            + "                14     debug  longrun    alice  R       0:07      2 node[01-02]\n");
    COMPARE_TEXT(h.run<Squeue>({"-j", "14", "-o", "%i %j %P"}).out,
        "JOBID NAME PARTITION\n14 longrun debug\n");
    const Result unknownNode = h.run<Squeue>({"-w", "node99"});
    COMPARE_TEXT(unknownNode.out, "");
    COMPARE_TEXT(unknownNode.err, "squeue: error: Invalid node name node99\n");
    QCOMPARE(unknownNode.exitCode, 1);
}

void SqueueTest::noHeaderWithCustomFormatPrintsOnlyRows()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({"-h", "-o", "%i %T %r"}).out,
        "15 RUNNING None\n19 RUNNING None\n16 PENDING Resources\n17 PENDING Priority\n"
        "18 PENDING Priority\n14 RUNNING None\n");
}

void SqueueTest::capitalFormatUsesTwentyWideLeftColumns()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    const Result r
        = h.run<Squeue>({"-O", "JobID,Name,UserName,State,Reason,TimeLimit,NumCPUs,MinMemory"});
    COMPARE_TEXT(r.out,
        "JOBID               NAME                USER                STATE               REASON    "
        "          TIME_LIMIT          CPUS                MIN_MEMORY          \n"
        "15                  bobjob              bob                 RUNNING             None      "
        "          10:00               2                   500M                \n"
        "19                  rootjob             root                RUNNING             None      "
        "          2-00:00:00          1                   500M                \n"
        "16                  waiting             alice               PENDING             Resources "
        "          5:00                4                   500M                \n"
        "17                  waiting2            alice               PENDING             Priority  "
        "          5:00                1                   500M                \n"
        "18                  bobwait             bob                 PENDING             Priority  "
        "          10:00               1                   500M                \n"
        "14                  longrun             alice               RUNNING             None      "
        "          10:00               8                   500M                \n");
}

void SqueueTest::formatLettersShowTimesMemoryAndPriority()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({"-o", "%A %j %T %M %l %L %C %m %b %Q %S %V"}).out,
        "JOBID NAME STATE TIME TIME_LIMIT TIME_LEFT CPUS MIN_MEMORY TRES_PER_NODE PRIORITY "
        "START_TIME SUBMIT_TIME\n"
        "15 bobjob RUNNING 0:04 10:00 9:56 2 500M N/A 4294901745 2026-11-21T11:09:39 "
        "2026-11-21T11:09:36\n"
        "19 rootjob RUNNING 0:01 2-00:00:00 1-23:59:59 1 500M N/A 4294901741 2026-11-21T11:09:42 "
        "2026-11-21T11:09:39\n"
        "16 waiting PENDING 0:00 5:00 5:00 4 500M N/A 4294901744 N/A 2026-11-21T11:09:39\n"
        "17 waiting2 PENDING 0:00 5:00 5:00 1 500M N/A 4294901743 N/A 2026-11-21T11:09:39\n"
        "18 bobwait PENDING 0:00 10:00 10:00 1 500M N/A 4294901742 N/A 2026-11-21T11:09:39\n"
        "14 longrun RUNNING 0:07 10:00 9:53 8 500M N/A 4294901746 2026-11-21T11:09:36 "
        "2026-11-21T11:09:33\n");
}

void SqueueTest::sortOnDescendingJobId()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({"--sort=-i"}).out,
        kHeader
            + "                19       cpu  rootjob     root  R       0:01      1 node03\n"
              "                18     debug  bobwait      bob PD       0:00      1 (Priority)\n"
              "                17     debug waiting2    alice PD       0:00      1 (Priority)\n"
              "                16     debug  waiting    alice PD       0:00      1 (Resources)\n"
              "                15       cpu   bobjob      bob  R       0:04      1 node03\n"
              "                14     debug  longrun    alice  R       0:07      2 node[01-02]\n");
    const Result bad = h.run<Squeue>({"--sort=Y"});
    COMPARE_TEXT(bad.err, "squeue: error: Invalid sort specification: Y\n");
    QCOMPARE(bad.exitCode, 1);
}

void SqueueTest::unknownUserIsReportedButListingContinues()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    const Result r = h.run<Squeue>({"-u", "nosuchuser"});
    COMPARE_TEXT(r.out, kHeader);
    COMPARE_TEXT(r.err, "squeue: error: Invalid user: nosuchuser\n\n");
    QCOMPARE(r.exitCode, 0);
}

void SqueueTest::singleUnknownJobIdIsAnError()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    const Result r = h.run<Squeue>({"-j", "999999"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err, "slurm_load_jobs error: Invalid job id specified\n");
    QCOMPARE(r.exitCode, 1);
}

void SqueueTest::unknownStateIsRejectedWithTheValidList()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    const Result r = h.run<Squeue>({"-t", "BOGUS"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err,
        "squeue: error: Invalid job state specified: BOGUS\n"
        "squeue: error: Valid job states include: "
        "PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_"
        "FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING,RESV_DEL_HOLD,REQUEUED,"
        "REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED\n\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY(h.requests.empty());
}

void SqueueTest::stepsAreListedInSlurmsStepFormatAndOrder()
{
    Harness h;
    h.reply = [](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        reply.set("now", std::int64_t{1065});
        Json steps = Json::array();
        for (const char *id : {"batch", "0"}) {
            Json step = Json::object();
            step.set("job_id", std::int64_t{4939});
            step.set("step_id", id);
            step.set("name", std::string(id) == "0" ? "mystepname" : "batch");
            step.set("user", "alice");
            step.set("partition", "cpu");
            step.set("start_time", std::int64_t{1060});
            step.set("nodes", mc::proto::stringList({"node01"}));
            steps.push(std::move(step));
        }
        reply.set("steps",
            request["job_ids"].size() == 0 || request["job_ids"].items().at(0).toInt() == 4939
                ? std::move(steps)
                : Json::array());
        return reply;
    };
    const std::string header = "         STEPID     NAME PARTITION     USER      TIME NODELIST\n";
    Result r = h.run<Squeue>({"-s"});
    COMPARE_TEXT(r.out,
        header
            + "         4939.0 mystepna       cpu    alice      0:05 node01\n"
              "     4939.batch    batch       cpu    alice      0:05 node01\n");
    QCOMPARE(h.requests.back()["op"].toString(), std::string("steps"));
    COMPARE_TEXT(h.run<Squeue>({"-s", "4939.0", "-h"}).out,
        "         4939.0 mystepna       cpu    alice      0:05 node01\n");
    COMPARE_TEXT(h.run<Squeue>({"-s", "-j", "12"}).out, header); // a held job: no steps
    COMPARE_TEXT(h.run<Squeue>({"-s", "-u", "bob"}).out, header);
}

void SqueueTest::verboseDumpsTheOptionsReadBeforeTheListing()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 9);
    const Result r = h.run<Squeue>({"-v", "-j", "14", "-p", "debug", "-h", "-o", "%i"});
    const std::string dump = "-----------------------------\n"
                             "all         = true\n"
                             "array       = false\n"
                             "federation  = false\n"
                             "format      = %i\n"
                             "iterate     = 0\n"
                             "job_flag    = 1\n"
                             "jobs        = 14\n"
                             "licenses    = (null)\n"
                             "local       = false\n"
                             "names       = (null)\n"
                             "nodes       = \n"
                             "partitions  = debug\n"
                             "priority    = false\n"
                             "reservation = (null)\n"
                             "sibling      = false\n"
                             "sort        = (null)\n"
                             "start_flag  = 0\n"
                             "states      = (null)\n"
                             "step_flag   = 0\n"
                             "steps       = (null)\n"
                             "users       = (null)\n"
                             "verbose     = 1\n"
                             "-----------------------------\n\n\n";
    QVERIFY2(r.out.rfind(dump, 0) == 0, r.out.c_str());
    const std::string after = r.out.substr(dump.size());
    // The date, the load (one job asked for: no update time), then the listing.
    QVERIFY(after.find("\nlast_update_time=0 records=1\n14\n") != std::string::npos);
    QCOMPARE(r.exitCode, 0);
}

void SqueueTest::unknownPartitionShowsOnlyTheHeader()
{
    Harness h;
    h.reply = controllerWith(referenceJobs(), kT0 + 10);
    const Result r = h.run<Squeue>({"-p", "nosuch"});
    COMPARE_TEXT(r.out, kHeader);
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
}

void SqueueTest::finishedJobsAppearOnlyWithStatesAll()
{
    // 11_sacct.txt: jobs 106-108 ended less than MinJobAge ago.
    const std::int64_t t = kT0 + 246;
    auto finished = [&](int id, const char *name, const char *state, const char *reason,
                        std::int64_t start, std::int64_t end, std::vector<std::string> nodes) {
        Json j = jobJson(
            {id, "alice", name, "cpu", state, reason, start - 2, start, 172800, nodes, 1, 1, 0});
        j.set("end_time", end);
        return j;
    };
    Harness h;
    h.reply = controllerWith(
        {finished(106, "sacct_ok", "COMPLETED", "None", t, t + 12, {"node01"}),
            finished(107, "sacct_fail", "FAILED", "NonZeroExitCode", t, t, {"node01"}),
            finished(108, "sacct_cancel", "CANCELLED", "None", t, t + 2, {"node01"})},
        t + 30);
    COMPARE_TEXT(h.run<Squeue>({"-j", "106,107,108"}).out, kHeader);
    COMPARE_TEXT(h.run<Squeue>({"-t", "all", "-j", "106,107,108"}).out,
        kHeader
            + "               108       cpu sacct_ca    alice CA       0:02      1 node01\n"
              "               106       cpu sacct_ok    alice CD       0:12      1 node01\n"
              "               107       cpu sacct_fa    alice  F       0:00      1 "
              "(NonZeroExitCode)\n");
}

void SqueueTest::unsupportedOptionIsRefused()
{
    Harness h;
    const Result r = h.run<Squeue>({"--iterate=5"});
    COMPARE_TEXT(r.err, "squeue: error: --iterate is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
}

void SqueueTest::unknownOptionPointsToHelp()
{
    Harness h;
    const Result r = h.run<Squeue>({"--bogus"});
    COMPARE_TEXT(r.err,
        "squeue: unrecognized option '--bogus'\nTry \"squeue --help\" for more information\n");
    QCOMPARE(r.exitCode, 1);
}

void SqueueTest::versionHelpAndUsageMatchSlurm()
{
    Harness h;
    COMPARE_TEXT(h.run<Squeue>({"--version"}).out, "slurm-wlm 22.05.8\n");
    const Result usage = h.run<Squeue>({"--usage"});
    COMPARE_TEXT(usage.out,
        "Usage: squeue [-A account] [--clusters names] [-i seconds] [--job jobid]\n"
        "              [-n name] [-o format] [-p partitions] [--qos qos]\n"
        "              [--reservation reservation] [--sort fields] [--start]\n"
        "              [--step step_id] [-t states] [-u user_name] [--usage]\n"
        "              [-L licenses] [-w nodes] [--federation] [--local] [--sibling]\n"
        "\t      [-ahjlrsv]\n");
    const Result help = h.run<Squeue>({"--help"});
    QVERIFY(
        help.out.rfind("Usage: squeue [OPTIONS]\n  -A, --account=account(s)        comma separated "
                       "list of accounts\n\t\t\t\t  to view, default is all accounts\n",
            0)
        == 0);
    QCOMPARE(std::count(help.out.begin(), help.out.end(), '\n'), 52);
    QVERIFY(h.requests.empty());
}

void SqueueTest::unreachableControllerIsALoadError()
{
    Harness h;
    const Result r = h.run<Squeue>({});
    COMPARE_TEXT(
        r.err, "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n");
    QCOMPARE(r.exitCode, 1);
}

namespace {

// Array 43 of 06_arrays.txt after two tasks started: the record and tasks 1 and 2.
std::vector<Json> arrayJobs()
{
    Json record
        = jobJson({43, "alice", "arr", "cpu", "PENDING", "None", kT0, 0, 120, {}, 1, 1, 10});
    record.set("array_job_id", 43);
    record.set("array_task_str", "3-10%4");
    std::vector<Json> jobs{record};
    for (int task : {1, 2}) {
        Json t = jobJson({43 + task, "alice", "arr", "cpu", "RUNNING", "None", kT0, kT0 + 9, 120,
            {"node01"}, 1, 1, 10});
        t.set("array_job_id", 43);
        t.set("array_task_id", task);
        jobs.push_back(t);
    }
    return jobs;
}

} // namespace

// 06_arrays.txt: "squeue" after the throttle change, and "squeue -r" before any task started.
void SqueueTest::arrayRecordShowsItsPendingTasksAndDashRExpandsThem()
{
    Harness h;
    h.reply = controllerWith(arrayJobs(), kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({}).out,
        kHeader
            + "       43_[3-10%4]       cpu      arr    alice PD       0:00      1 (None)\n"
              "              43_1       cpu      arr    alice  R       0:01      1 node01\n"
              "              43_2       cpu      arr    alice  R       0:01      1 node01\n");
    const std::string expanded = h.run<Squeue>({"-r", "-t", "PD", "-h", "-o", "%i %t"}).out;
    COMPARE_TEXT(expanded,
        "43_3 PD\n43_4 PD\n43_5 PD\n43_6 PD\n43_7 PD\n43_8 PD\n43_9 PD\n"
        "43_10 PD\n");
    COMPARE_TEXT(
        h.run<Squeue>({"-j", "43", "-h", "--array", "-o", "%i"}).out.substr(0, 10), "43_3\n43_4\n");
}

// 06_arrays.txt "%i %A %F %K %j %T" and 07_dependencies.txt "%E".
void SqueueTest::dependencyAndArrayLettersShowContractFields()
{
    Harness h;
    std::vector<Json> jobs = arrayJobs();
    jobs[0].set("array_task_str", "1-10%2");
    Json dependent
        = jobJson({60, "alice", "b.sh", "cpu", "PENDING", "Dependency", kT0, 0, 120, {}, 1, 1, 9});
    dependent.set("dependency", "afterok:59(unfulfilled)");
    jobs.push_back(dependent);
    h.reply = controllerWith(jobs, kT0 + 10);
    COMPARE_TEXT(h.run<Squeue>({"-t", "PD", "-o", "%i %A %F %K %j %T %E"}).out,
        "JOBID JOBID ARRAY_JOB_ID ARRAY_TASK_ID NAME STATE DEPENDENCY\n"
        "43_[1-10%2] 43 43 1-10%2 arr PENDING (null)\n"
        "60 60 60 N/A b.sh PENDING afterok:59(unfulfilled)\n");
}

void SqueueTest::startShowsThePlannedStart()
{
    Harness h;
    std::vector<Json> jobs = referenceJobs();
    jobs[2].set("planned_start", kT0 + 600); // job 16
    h.reply = controllerWith(jobs, kT0 + 10);
    const std::string out = h.run<Squeue>({"--start", "-h", "-o", "%i %S"}).out;
    COMPARE_TEXT(out, "17 N/A\n18 N/A\n16 " + mc::sched::formatTimestamp(kT0 + 600) + "\n");
}

void SqueueTest::clusterLicensesAndLongFieldsAnswerAsSlurm()
{
    Harness h;
    std::vector<Json> jobs = referenceJobs();
    jobs[3].set("gid", 1001); // job 17: alice's own group
    jobs[3].set("work_dir", "/home/alice/run");
    h.reply = withClusterName(controllerWith(jobs, kT0 + 10));
    auto pad = [](std::string text, std::size_t width) {
        text.resize(std::max(text.size(), width), ' ');
        return text.substr(0, width);
    };
    Result r = h.run<Squeue>({"-M", "refcluster", "-j", "17", "-h", "-O",
        "Cluster:11,GroupName:6,AccrueTime:20,MinTime:5,Requeue:2,exit_code:4,tres-alloc:32,"
        "STDOUT:30"});
    COMPARE_TEXT(r.out,
        "CLUSTER: refcluster\n" + pad("refcluster", 11) + pad("alice", 6)
            + pad(mc::sched::formatTimestamp(kT0 + 6), 20) + pad("0:00", 5) + pad("1", 2)
            + pad("0", 4) + pad("cpu=1,mem=500M,node=1,billing=1", 32)
            + pad("/home/alice/run/slurm-17.out", 30) + "\n");
    QCOMPARE(r.exitCode, 0);

    r = h.run<Squeue>({"-M", "nosuch"});
    COMPARE_TEXT(r.err,
        "squeue: error: No cluster 'nosuch' known by database.\n"
        "squeue: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  "
        "Use 'sacctmgr list clusters' to see available clusters.\n");
    QCOMPARE(r.exitCode, 1);
    // No job holds a license on minicluster: -L selects none.
    r = h.run<Squeue>({"-L", "matlab", "-h"});
    COMPARE_TEXT(r.out, "");
    QCOMPARE(r.exitCode, 0);
}

QTEST_APPLESS_MAIN(SqueueTest)
#include "squeue_test.moc"
