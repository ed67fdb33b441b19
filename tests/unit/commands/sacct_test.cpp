#include "command_harness.h"
#include "mc/cmd/sacct.h"

#include <QtTest>

#include <ctime>

using namespace mc::cmd::test;
using mc::cmd::Sacct;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

// 2026-11-21T11:13:39 UTC, when the reference sacct transcript (11_sacct.txt) was recorded.
constexpr std::int64_t kNow = 1795259619;
constexpr std::int64_t kMinute = 60;

Json step(const char *id, const char *state, int code, int signal, std::int64_t start,
    std::int64_t end, int cpus, const char *name = nullptr)
{
    Json s = Json::object();
    s.set("step", id);
    if (name) {
        s.set("name", name);
    }
    s.set("state", state);
    s.set("exit_code", code);
    s.set("exit_signal", signal);
    s.set("start_time", start);
    s.set("end_time", end);
    s.set("nodes", mc::proto::stringList({"node01"}));
    s.set("num_cpus", cpus);
    return s;
}

struct Record {
    int id;
    const char *user;
    const char *name;
    const char *partition;
    const char *state;
    int cpus;
    int code = 0;
    std::optional<int> cancelledBy = {};
    std::vector<Json> steps = {};
    std::int64_t submit = kNow - 4 * kMinute;
    std::int64_t start = kNow - 4 * kMinute + 2;
    std::int64_t end = kNow - 3 * kMinute;
};

Json record(const Record &r)
{
    Json j = Json::object();
    j.set("job_id", r.id);
    j.set("name", r.name);
    j.set("user", r.user);
    j.set("uid", static_cast<std::int64_t>(referenceUser(r.user)->uid));
    j.set("gid", static_cast<std::int64_t>(referenceUser(r.user)->gid));
    j.set("account", "students");
    j.set("partition", r.partition);
    j.set("qos", "normal");
    j.set("state", r.state);
    j.set("reason", "None");
    j.set("submit_time", r.submit);
    j.set("eligible_time", r.submit);
    j.set("start_time", r.start);
    j.set("end_time", r.end);
    j.set("time_limit", std::int64_t{172800});
    j.set("nodes",
        mc::proto::stringList(
            r.start ? std::vector<std::string>{"node01"} : std::vector<std::string>{}));
    j.set("num_nodes", 1);
    j.set("num_cpus", r.cpus);
    j.set("min_memory", 300);
    j.set("mem_per_cpu", false);
    j.set("exit_code", r.code);
    j.set("exit_signal", 0);
    j.set("work_dir", std::string("/home/") + r.user);
    if (r.cancelledBy) {
        j.set("cancelled_by", *r.cancelledBy);
    }
    j.set("steps", Json(Json::Array(r.steps.begin(), r.steps.end())));
    return j;
}

// Jobs 106-108 of alice and bob's jobs, as the accounting store returns them.
std::vector<Json> referenceRecords()
{
    const std::int64_t t = kNow; // 106 was submitted when the transcript started
    const std::int64_t b = kNow - 4 * kMinute;
    return {
        record({15, "bob", "bobjob", "cpu", "CANCELLED", 2, 0, 0,
            {step("batch", "CANCELLED", 0, 15, b + 2, b + 60, 2)}}),
        record({18, "bob", "bobwait", "debug", "CANCELLED", 1, 0, 0, {}, b, 0, b + 60}),
        record({39, "bob", "bobs", "cpu", "CANCELLED", 1, 0, 0,
            {step("batch", "CANCELLED", 0, 15, b + 2, b + 60, 1)}}),
        record({106, "alice", "sacct_ok", "cpu", "COMPLETED", 2, 0, {},
            {step("batch", "COMPLETED", 0, 0, t + 2, t + 14, 2),
                step("0", "COMPLETED", 0, 0, t + 2, t + 2, 2, "hostname")},
            t, t + 2, t + 14}),
        record({107, "alice", "sacct_fail", "cpu", "FAILED", 1, 7, {},
            {step("batch", "FAILED", 7, 0, t + 16, t + 16, 1)}, t + 15, t + 16, t + 16}),
        record({108, "alice", "sacct_cancel", "cpu", "CANCELLED", 1, 0, 1001,
            {step("batch", "CANCELLED", 0, 15, t + 16, t + 18, 1)}, t + 15, t + 16, t + 18}),
        record({109, "bob", "bobok", "cpu", "COMPLETED", 1, 0, {},
            {step("batch", "COMPLETED", 0, 0, b + 2, b + 3, 1)}}),
        record({110, "bob", "bobfail", "cpu", "FAILED", 1, 1, {},
            {step("batch", "FAILED", 1, 0, b + 2, b + 3, 1)}}),
    };
}

// Answers "acct" like the controller: users (empty: all), job_ids, jobs not ended before since.
auto accounting(std::vector<Json> records)
{
    return [records = std::move(records)](const Json &request) -> std::optional<Json> {
        Json jobs = Json::array();
        for (const auto &job : records) {
            bool user = request["users"].size() == 0;
            for (const auto &u : request["users"].items()) {
                user = user || u == job["user"];
            }
            bool id = request["job_ids"].size() == 0;
            for (const auto &i : request["job_ids"].items()) {
                id = id || i == job["job_id"];
            }
            const std::int64_t end = job["end_time"].toInt();
            if (user && id && (end == 0 || end >= request["since"].toInt())) {
                jobs.push(job);
            }
        }
        Json reply = okReply();
        reply.set("jobs", std::move(jobs));
        return reply;
    };
}

Harness harness(const char *user = "alice", std::int64_t now = kNow + 30)
{
    Harness h(user);
    h.ctx.now = now;
    h.reply = accounting(referenceRecords());
    return h;
}

const std::string kHeader
    = "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n"
      "------------ ---------- ---------- ---------- ---------- ---------- -------- \n";

} // namespace

class SacctTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void defaultListsOwnJobsWithStepsSinceMidnight();
    void jobsOptionShowsAnyUsersJobWithItsSteps();
    void formatWidthsAndJustificationFollowPercentSpecs();
    void timestampsNodeListsAndWorkDirColumns();
    void parsable2ShowsFullValuesWithoutTrailingBar();
    void parsableEndsEveryFieldWithABar();
    void briefShowsIdStateAndExitCode();
    void exitStatusesOf128AndMoreLoseTheir128();
    void noHeaderAllocationsWithCustomFields();
    void namesAndUserSelectJobs();
    void statesWithoutStartTimeLookAtNowOnly();
    void statesWithAWindowListJobsEndedInIt();
    void unknownJobShowsOnlyTheHeader();
    void unknownUserIsAnError();
    void unknownFieldIsAnError();
    void helpFormatListsEveryField();
    void versionUsageAndHelpMatchSlurm();
    void unsupportedAndUnknownOptionsAreRefused();
    void arrayTasksShowAsJobUnderscoreTask();
    void totalCpuAndRssComeFromTheStepUsage();
    void fieldsNamedInTheRequestAreAllTheColumnsRead();
    void unitsClusterGroupAndStepFiguresAnswerAsSlurm();
};

void SacctTest::initTestCase()
{
    qputenv("TZ", "UTC");
    tzset();
}

void SacctTest::defaultListsOwnJobsWithStepsSinceMidnight()
{
    Harness h = harness("bob");
    const Result r = h.run<Sacct>({});
    COMPARE_TEXT(r.out,
        kHeader
            + "15               bobjob        cpu   students          2 CANCELLED+      0:0 \n"
              "15.batch          batch              students          2  CANCELLED     0:15 \n"
              "18              bobwait      debug   students          1 CANCELLED+      0:0 \n"
              "39                 bobs        cpu   students          1 CANCELLED+      0:0 \n"
              "39.batch          batch              students          1  CANCELLED     0:15 \n"
              "109               bobok        cpu   students          1  COMPLETED      0:0 \n"
              "109.batch         batch              students          1  COMPLETED      0:0 \n"
              "110             bobfail        cpu   students          1     FAILED      1:0 \n"
              "110.batch         batch              students          1     FAILED      1:0 \n");
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
    const Json &request = h.requests.back(); // after the ping for the cluster's clock
    QCOMPARE(request["users"], mc::proto::stringList({"bob"}));
    QCOMPARE(request["since"].toInt(), std::int64_t{1795219200}); // 2026-11-21T00:00:00
}

void SacctTest::jobsOptionShowsAnyUsersJobWithItsSteps()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"-j", "106"}).out,
        kHeader
            + "106            sacct_ok        cpu   students          2  COMPLETED      0:0 \n"
              "106.batch         batch              students          2  COMPLETED      0:0 \n"
              "106.0          hostname              students          2  COMPLETED      0:0 \n");
    QCOMPARE(h.requests.back()["users"].size(), std::size_t{0});
    QCOMPARE(h.requests.back()["since"].toInt(), std::int64_t{0});
}

void SacctTest::formatWidthsAndJustificationFollowPercentSpecs()
{
    Harness h = harness();
    COMPARE_TEXT(
        h.run<Sacct>({"-j", "106", "-o",
                         "JobID%20,JobName%-20,State%15,Elapsed,CPUTime,ReqMem,AllocTRES%40"})
            .out,
        "               JobID JobName                        State    Elapsed    CPUTime     "
        "ReqMem                                AllocTRES \n"
        "-------------------- -------------------- --------------- ---------- ---------- "
        "---------- ---------------------------------------- \n"
        "                 106 sacct_ok                   COMPLETED   00:00:12   00:00:24       "
        "300M          billing=2,cpu=2,mem=300M,node=1 \n"
        "           106.batch batch                      COMPLETED   00:00:12   00:00:24           "
        "                    cpu=2,mem=300M,node=1 \n"
        "               106.0 hostname                   COMPLETED   00:00:00   00:00:00           "
        "                    cpu=2,mem=300M,node=1 \n");
}

void SacctTest::timestampsNodeListsAndWorkDirColumns()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"-j", "106", "-o",
                                  "JobID,Submit,Start,End,Elapsed,Timelimit,NodeList,NCPUS,NNodes,"
                                  "Partition,Account,User,WorkDir%30"})
                     .out,
        "JobID                     Submit               Start                 End    Elapsed  "
        "Timelimit        NodeList      NCPUS   NNodes  Partition    Account      User             "
        "           WorkDir \n"
        "------------ ------------------- ------------------- ------------------- ---------- "
        "---------- --------------- ---------- -------- ---------- ---------- --------- "
        "------------------------------ \n"
        "106          2026-11-21T11:13:39 2026-11-21T11:13:41 2026-11-21T11:13:53   00:00:12 "
        "2-00:00:00          node01          2        1        cpu   students     alice            "
        "        /home/alice \n"
        "106.batch    2026-11-21T11:13:41 2026-11-21T11:13:41 2026-11-21T11:13:53   00:00:12       "
        "              node01          2        1              students                            "
        "              \n"
        "106.0        2026-11-21T11:13:41 2026-11-21T11:13:41 2026-11-21T11:13:41   00:00:00       "
        "              node01          2        1              students                            "
        "              \n");
}

void SacctTest::parsable2ShowsFullValuesWithoutTrailingBar()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"-j", "106,107,108", "-X", "--parsable2"}).out,
        "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode\n"
        "106|sacct_ok|cpu|students|2|COMPLETED|0:0\n"
        "107|sacct_fail|cpu|students|1|FAILED|7:0\n"
        "108|sacct_cancel|cpu|students|1|CANCELLED by 1001|0:0\n");
}

void SacctTest::parsableEndsEveryFieldWithABar()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"-j", "106", "--parsable"}).out,
        "JobID|JobName|Partition|Account|AllocCPUS|State|ExitCode|\n"
        "106|sacct_ok|cpu|students|2|COMPLETED|0:0|\n"
        "106.batch|batch||students|2|COMPLETED|0:0|\n"
        "106.0|hostname||students|2|COMPLETED|0:0|\n");
}

void SacctTest::briefShowsIdStateAndExitCode()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"-j", "106", "-b"}).out,
        "JobID             State ExitCode \n"
        "------------ ---------- -------- \n"
        "106           COMPLETED      0:0 \n"
        "106.batch     COMPLETED      0:0 \n"
        "106.0         COMPLETED      0:0 \n");
}

void SacctTest::exitStatusesOf128AndMoreLoseTheir128()
{
    // Slurm 22.05's sacct shows `exit 137` as 9:0 and `exit 200` as 72:0 (scontrol: 137:0).
    Harness h = harness();
    h.reply = accounting({record({120, "alice", "big", "cpu", "FAILED", 1, 137, {},
                              {step("batch", "FAILED", 137, 0, kNow, kNow + 1, 1),
                                  step("0", "FAILED", 200, 0, kNow, kNow + 1, 1)}}),
        record({121, "alice", "edge", "cpu", "FAILED", 1, 127})});
    COMPARE_TEXT(h.run<Sacct>({"-j", "120,121", "-n", "-o", "JobID,ExitCode"}).out,
        "120               9:0 \n"
        "120.batch         9:0 \n"
        "120.0            72:0 \n"
        "121             127:0 \n");
}

void SacctTest::noHeaderAllocationsWithCustomFields()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"-j", "106,107,108", "-n", "-X", "-o", "JobID,State,ExitCode"}).out,
        "106           COMPLETED      0:0 \n"
        "107              FAILED      7:0 \n"
        "108          CANCELLED+      0:0 \n");
}

void SacctTest::namesAndUserSelectJobs()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"--name=sacct_ok,sacct_fail", "-X"}).out,
        kHeader
            + "106            sacct_ok        cpu   students          2  COMPLETED      0:0 \n"
              "107          sacct_fail        cpu   students          1     FAILED      7:0 \n");
    COMPARE_TEXT(h.run<Sacct>({"-u", "bob", "-X"}).out,
        kHeader
            + "15               bobjob        cpu   students          2 CANCELLED+      0:0 \n"
              "18              bobwait      debug   students          1 CANCELLED+      0:0 \n"
              "39                 bobs        cpu   students          1 CANCELLED+      0:0 \n"
              "109               bobok        cpu   students          1  COMPLETED      0:0 \n"
              "110             bobfail        cpu   students          1     FAILED      1:0 \n");
}

void SacctTest::statesWithoutStartTimeLookAtNowOnly()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"-s", "CA,F", "-X"}).out, kHeader);
    COMPARE_TEXT(h.run<Sacct>({"-s", "CA,F", "-X", "-S", "now-3minutes"}).out, kHeader);
}

void SacctTest::statesWithAWindowListJobsEndedInIt()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"-s", "CA,F", "-X", "-S", "now-3minutes", "-E", "now"}).out,
        kHeader
            + "107          sacct_fail        cpu   students          1     FAILED      7:0 \n"
              "108          sacct_can+        cpu   students          1 CANCELLED+      0:0 \n");
}

void SacctTest::unknownJobShowsOnlyTheHeader()
{
    Harness h = harness();
    const Result r = h.run<Sacct>({"-j", "999999"});
    COMPARE_TEXT(r.out, kHeader);
    QCOMPARE(r.exitCode, 0);
}

void SacctTest::unknownUserIsAnError()
{
    Harness h = harness();
    const Result r = h.run<Sacct>({"-u", "nosuchuser"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err, "sacct: error: Invalid user id: nosuchuser\n");
    QCOMPARE(r.exitCode, 1);
}

void SacctTest::unknownFieldIsAnError()
{
    Harness h = harness();
    const Result r = h.run<Sacct>({"-o", "JobID,Bogus"});
    COMPARE_TEXT(r.err, "sacct: error: Invalid field requested: \"Bogus\"\n");
    QCOMPARE(r.exitCode, 1);
}

void SacctTest::helpFormatListsEveryField()
{
    Harness h = harness();
    const std::string expected
        = R"~(Account             AdminComment        AllocCPUS           AllocNodes         
AllocTRES           AssocID             AveCPU              AveCPUFreq         
AveDiskRead         AveDiskWrite        AvePages            AveRSS             
AveVMSize           BlockID             Cluster             Comment            
Constraints         ConsumedEnergy      ConsumedEnergyRaw   Container          
CPUTime             CPUTimeRAW          DBIndex             DerivedExitCode    
Elapsed             ElapsedRaw          Eligible            End                
ExitCode            Flags               GID                 Group              
JobID               JobIDRaw            JobName             Layout             
MaxDiskRead         MaxDiskReadNode     MaxDiskReadTask     MaxDiskWrite       
MaxDiskWriteNode    MaxDiskWriteTask    MaxPages            MaxPagesNode       
MaxPagesTask        MaxRSS              MaxRSSNode          MaxRSSTask         
MaxVMSize           MaxVMSizeNode       MaxVMSizeTask       McsLabel           
MinCPU              MinCPUNode          MinCPUTask          NCPUS              
NNodes              NodeList            NTasks              Partition          
Priority            QOS                 QOSRAW              Reason             
ReqCPUFreq          ReqCPUFreqGov       ReqCPUFreqMax       ReqCPUFreqMin      
ReqCPUS             ReqMem              ReqNodes            ReqTRES            
Reservation         ReservationId       Reserved            ResvCPU            
ResvCPURAW          Start               State               Submit             
SubmitLine          Suspended           SystemComment       SystemCPU          
Timelimit           TimelimitRaw        TotalCPU            TRESUsageInAve     
TRESUsageInMax      TRESUsageInMaxNode  TRESUsageInMaxTask  TRESUsageInMin     
TRESUsageInMinNode  TRESUsageInMinTask  TRESUsageInTot      TRESUsageOutAve    
TRESUsageOutMax     TRESUsageOutMaxNode TRESUsageOutMaxTask TRESUsageOutMin    
TRESUsageOutMinNode TRESUsageOutMinTask TRESUsageOutTot     UID                
User                UserCPU             WCKey               WCKeyID            
WorkDir            
)~";
    COMPARE_TEXT(h.run<Sacct>({"-e"}).out, expected);
    COMPARE_TEXT(h.run<Sacct>({"--helpformat"}).out, expected);
}

void SacctTest::versionUsageAndHelpMatchSlurm()
{
    Harness h = harness();
    COMPARE_TEXT(h.run<Sacct>({"--version"}).out, "slurm-wlm 22.05.8\n");
    COMPARE_TEXT(h.run<Sacct>({"--usage"}).out, "Usage: sacct [options]\n\tUse --help for help\n");
    const Result help = h.run<Sacct>({"--help"});
    QVERIFY(help.out.rfind(
                "sacct [<OPTION>]                                                            \n"
                "     Valid <OPTION> values are:                                              \n",
                0)
        == 0);
    QVERIFY(h.requests.empty());
}

void SacctTest::unsupportedAndUnknownOptionsAreRefused()
{
    Harness h = harness();
    const Result truncate = h.run<Sacct>({"-T"});
    COMPARE_TEXT(truncate.err, "sacct: error: --truncate is not supported by minicluster\n");
    QCOMPARE(truncate.exitCode, 1);
    // -l is Slurm's long field list (tests/differential: 54 columns, as real sacct -l).
    const Result longOutput = h.run<Sacct>({"-l", "-X"});
    QVERIFY(longOutput.out.rfind("JobID        JobIDRaw        JobName  Partition  MaxVMSize  "
                                 "MaxVMSizeNode  MaxVMSizeTask  AveVMSize     MaxRSS ",
                0)
        == 0);
    QVERIFY(longOutput.out.find("TRESUsageOutAve TRESUsageOutTot \n") != std::string::npos);
    const Result unknown = h.run<Sacct>({"--bogus"});
    COMPARE_TEXT(unknown.err, "sacct: unrecognized option '--bogus'\n");
    QCOMPARE(unknown.exitCode, 1);
}

// 06_arrays.txt: "sacct -X -j 43 -o JobID,JobIDRaw,JobName,State,ExitCode" (three of the ten
// tasks), with the contract's `step_id` for the steps.
void SacctTest::arrayTasksShowAsJobUnderscoreTask()
{
    std::vector<Json> records;
    for (const auto &[id, task] : std::vector<std::pair<int, int>>{{44, 1}, {45, 2}, {43, 10}}) {
        Json batch = step("batch", "COMPLETED", 0, 0, kNow, kNow + 4, 1);
        batch.set("step_id", "batch");
        Json job = record({id, "alice", "arr", "cpu", "COMPLETED", 1, 0, {}, {batch}});
        job.set("array_job_id", 43);
        job.set("array_task_id", task);
        records.push_back(job);
    }
    records.push_back(record({46, "alice", "plain", "cpu", "COMPLETED", 1}));
    Harness h = harness();
    // The controller filters by job id; the array's other tasks must come from it as well.
    h.reply = [all = records](const Json &) -> std::optional<Json> {
        Json jobs = Json::array();
        for (const auto &job : all) {
            jobs.push(job);
        }
        Json reply = okReply();
        reply.set("jobs", std::move(jobs));
        return reply;
    };
    Result r = h.run<Sacct>({"-X", "-j", "43", "-o", "JobID,JobIDRaw,JobName,State,ExitCode"});
    COMPARE_TEXT(r.out,
        "JobID        JobIDRaw        JobName      State ExitCode \n"
        "------------ ------------ ---------- ---------- -------- \n"
        "43_1         44                  arr  COMPLETED      0:0 \n"
        "43_2         45                  arr  COMPLETED      0:0 \n"
        "43_10        43                  arr  COMPLETED      0:0 \n");
    r = h.run<Sacct>({"-n", "-j", "43_2", "-o", "JobID"});
    COMPARE_TEXT(r.out, "43_2         \n43_2.batch   \n");
}

// TotalCPU (sum of the steps on the job row; Slurm's _elapsed_time format), MaxRSS and AveRSS
// (steps only; KiB, a larger unit only when it divides exactly, "0" when not measured, as in
// 08_time_mem_limits.txt) from the usage the acct reply carries.
void SacctTest::totalCpuAndRssComeFromTheStepUsage()
{
    Json batch = step("batch", "COMPLETED", 0, 0, kNow, kNow + 4, 1);
    batch.set("total_cpu_ms", 1234);
    batch.set("max_rss_kb", 3764);
    batch.set("ave_rss_kb", 2048);
    Json run = step("0", "COMPLETED", 0, 0, kNow, kNow + 4, 1, "stress");
    run.set("total_cpu_ms", 3600000 + 61000);
    run.set("max_rss_kb", 0);
    Json job = record({120, "alice", "usage", "cpu", "COMPLETED", 1, 0, {}, {batch, run}});
    Harness h = harness();
    h.reply = accounting({job});
    Result r = h.run<Sacct>({"-j", "120", "-o", "JobID,JobName,TotalCPU,MaxRSS,AveRSS"});
    COMPARE_TEXT(r.out,
        "JobID           JobName   TotalCPU     MaxRSS     AveRSS \n"
        "------------ ---------- ---------- ---------- ---------- \n"
        "120               usage   01:01:02                       \n"
        "120.batch         batch  00:01.234      3764K         2M \n"
        "120.0            stress   01:01:01          0          0 \n");
    run.set("total_cpu_ms", 2 * 86400000 + 5000);
    h.reply = accounting({record({121, "alice", "long", "cpu", "COMPLETED", 1, 0, {}, {run}})});
    r = h.run<Sacct>({"-n", "-P", "-j", "121", "-o", "JobID,TotalCPU"});
    COMPARE_TEXT(r.out, "121|02-00:00:05\n121.0|02-00:00:05\n");
    h.reply = accounting({record({122, "alice", "short", "cpu", "COMPLETED", 1, 0, {},
        {step("batch", "COMPLETED", 0, 0, kNow, kNow + 4, 1)}})});
    r = h.run<Sacct>({"-n", "-P", "-j", "122", "-o", "JobID,TotalCPU"});
    COMPARE_TEXT(r.out, "122|00:00:00\n122.batch|00:00:00\n");
}

void SacctTest::unitsClusterGroupAndStepFiguresAnswerAsSlurm()
{
    Json batch = step("batch", "COMPLETED", 0, 0, kNow, kNow + 4, 1);
    batch.set("total_cpu_ms", 61900);
    batch.set("max_rss_kb", 2048);
    batch.set("ave_rss_kb", 2048);
    batch.set("ntasks", 1);
    Json job = record({120, "alice", "usage", "cpu", "FAILED", 1, 3, {}, {batch}});
    job.set("reason", "NonZeroExitCode"); // squeue's; slurmdbd never stores why a job ended
    Harness h = harness();
    h.reply = withClusterName(accounting({job}));
    Result r = h.run<Sacct>({"-n", "-P", "-j", "120", "--units=k", "-o",
        "JobID,Cluster,Group,Reason,ReqMem,MaxRSS,AveCPU,MaxRSSNode,MaxRSSTask,ConsumedEnergy,"
        "QOSRAW,WCKeyID,ReqCPUFreq,Layout"});
    COMPARE_TEXT(r.out,
        "120|refcluster|alice|None|307200K||||||1|0|Unknown|\n"
        "120.batch|refcluster||||2048K|00:01:01|node01|0|0|||0|Unknown\n");
    r = h.run<Sacct>({"-n", "-X", "-j", "120", "--units=G", "-o", "ReqMem"});
    COMPARE_TEXT(r.out, "     0.29G \n");
    r = h.run<Sacct>({"--units=X"});
    COMPARE_TEXT(r.err,
        "sacct: error: Invalid unit type 'X'. Possible options are 'KMGTP'\n"
        "sacct: fatal: Invalid unit type\n");
    QCOMPARE(r.exitCode, 1);
}

// sacct names the job members its columns and its selection read (`fields`); a controller that
// honours them must give the same output as one that sends whole objects.
void SacctTest::fieldsNamedInTheRequestAreAllTheColumnsRead()
{
    auto projecting
        = [inner = accounting(referenceRecords())](const Json &request) -> std::optional<Json> {
        auto reply = inner(request);
        const auto fields = request["fields"].toStringList();
        if (!reply || fields.empty()) {
            return reply;
        }
        Json jobs = Json::array();
        for (const auto &job : (*reply)["jobs"].items()) {
            Json slim = Json::object();
            for (const auto &key : fields) {
                if (job.contains(key)) {
                    slim.set(key, job[key]);
                }
            }
            jobs.push(std::move(slim));
        }
        reply->set("jobs", std::move(jobs));
        return reply;
    };
    const std::vector<std::vector<std::string>> commands{{}, {"-X"}, {"-b"}, {"-a"},
        {"-a", "-o", "JobID,JobIDRaw,JobName,User,State,ExitCode,Elapsed,Start,End,Submit"},
        {"-a", "-o", "NodeList,AllocCPUS,Partition,Account,DerivedExitCode,TotalCPU,MaxRSS"},
        {"-j", "108", "-o", "JobID,State"}, {"-a", "-s", "CA", "-S", "00:00"}};
    for (const auto &args : commands) {
        Harness whole = harness();
        Harness slim = harness();
        slim.reply = projecting;
        const Result expected = whole.run<Sacct>(args);
        const Result actual = slim.run<Sacct>(args);
        QVERIFY(slim.requests.back()["fields"].size() > 0);
        COMPARE_TEXT(actual.out, expected.out);
        COMPARE_TEXT(actual.err, expected.err);
    }
    // A column without a known set of members: no `fields`, whole objects.
    Harness h = harness();
    h.run<Sacct>({"-o", "JobID,WorkDir"});
    QVERIFY(!h.requests.back().contains("fields"));
}

QTEST_APPLESS_MAIN(SacctTest)
#include "sacct_test.moc"
