#include "command_harness.h"
#include "mc/cmd/scontrol.h"
#include "reference_cluster.h"

#include <QtTest>

#include <ctime>

using namespace mc::cmd::test;
using mc::cmd::Scontrol;

// Line by line, so that a failure names the first line that differs.
#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual).split(u'\n'),                                          \
        QString::fromStdString(expected).split(u'\n'))

namespace {

// 2026-11-21T11:13:59 UTC, when job 111 of 12_scontrol.txt was submitted.
constexpr std::int64_t kT0 = 1795259639;
constexpr std::int64_t kBootTime = kT0 - 239; // 2026-11-21T11:10:00, when the controller started

Json job111()
{
    Json j = Json::object();
    j.set("job_id", 111);
    j.set("name", "showme");
    j.set("user", "alice");
    j.set("uid", 1001);
    j.set("gid", 1001);
    j.set("priority", std::int64_t{4294901670});
    j.set("nice", 0);
    j.set("account", "students");
    j.set("qos", "normal");
    j.set("state", "RUNNING");
    j.set("reason", "None");
    j.set("submit_time", kT0);
    j.set("eligible_time", kT0);
    j.set("start_time", kT0 + 1);
    j.set("end_time", std::int64_t{0});
    j.set("time_limit", 1200);
    j.set("partition", "cpu");
    j.set("submit_host", "localhost");
    j.set("submit_sid", 19011);
    j.set("nodes", mc::proto::stringList({"node01"}));
    j.set("batch_host", "node01");
    j.set("num_nodes", 1);
    j.set("num_cpus", 2);
    j.set("num_tasks", 2);
    j.set("cpus_per_task", 1);
    j.set("min_memory", 256);
    j.set("mem_per_cpu", false);
    j.set("exit_code", 0);
    j.set("exit_signal", 0);
    j.set("work_dir", "/home/alice");
    j.set("std_out", "out-%j.log");
    j.set("std_err", "");
    j.set("std_in", "/dev/null");
    j.set("command", "");
    return j;
}

Json job112()
{
    Json j = job111();
    j.set("job_id", 112);
    j.set("name", "pend");
    j.set("priority", std::int64_t{4294901669});
    j.set("state", "PENDING");
    j.set("reason", "BeginTime");
    j.set("submit_time", kT0 + 1);
    j.set("eligible_time", kT0 + 1 + 3600);
    j.set("start_time", kT0 + 1 + 3600);
    j.set("time_limit", 300);
    j.set("submit_sid", 19055);
    // sbatch --mail-type=END,FAIL: Slurm shows who and what after Power= (no mailer needed).
    j.set("mail_type", "END,FAIL");
    j.set("mail_user", "alice");
    j.set("nodes", Json::array());
    j.set("batch_host", "");
    j.set("num_cpus", 1);
    j.set("num_tasks", 1);
    j.set("min_memory", 500);
    j.set("mem_per_cpu", true);
    j.set("std_out", "");
    return j;
}

// A controller with jobs 111 and 112 (at `now`) and the reference cluster.
void serveAll(Harness &h, std::int64_t now)
{
    serveCluster(
        h, clusterReply({{"node01", "mixed", 2, 256}, {"node02"}, {"node03"}, {"node04"}}));
    auto cluster = h.reply;
    h.reply = [cluster, now](const Json &request) -> std::optional<Json> {
        const std::string op = request["op"].toString();
        if (op == "jobs") {
            Json reply = okReply();
            reply.set("now", now);
            Json jobs = Json::array();
            for (const Json &job : {job111(), job112()}) {
                bool wanted = request["job_ids"].size() == 0;
                for (const auto &id : request["job_ids"].items()) {
                    wanted = wanted || id.toInt() == job["job_id"].toInt();
                }
                if (wanted) {
                    jobs.push(job);
                }
            }
            reply.set("jobs", std::move(jobs));
            return reply;
        }
        if (op == "ping") {
            Json reply = okReply();
            reply.set("cluster_name", "refcluster");
            reply.set("now", now);
            reply.set("boot_time", kBootTime);
            reply.set("next_job_id", 113);
            return reply;
        }
        return cluster(request);
    };
}

Result runScontrol(
    std::vector<std::string> args, std::int64_t now = kT0 + 2, std::string user = "alice")
{
    Harness h(std::move(user));
    h.ctx.now = now;
    serveAll(h, now);
    return h.run<Scontrol>(std::move(args));
}

// The line of `text` that starts with `prefix` (after the indent), or "" when none does.
std::string lineStarting(const std::string &text, const std::string &prefix)
{
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        std::string line = text.substr(start, end - start);
        const std::size_t first = line.find_first_not_of(' ');
        if (first != std::string::npos && line.substr(first).rfind(prefix, 0) == 0) {
            return line;
        }
        start = end + 1;
    }
    return {};
}

} // namespace

class ScontrolTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void showJobPrintsSlurmsRecordForARunningJob();
    void showJobPrintsExpectedTimesForAPendingJob();
    void oneLinerPutsTheRecordOnOneLine();
    void doubleDetailsAddsTheAllocationLines();
    void unknownJobIsALoadError();
    void showNodeGivesCpuMemoryAndStateOfEachNode();
    void drainedNodeShowsItsReasonWithWhoAndWhen();
    void unknownNodeIsNotFound();
    void showPartitionPrintsEveryPartitionOrTheOneNamed();
    void showConfigListsEverySlurmKeyInSlurmsOrder();
    void hostnamesExpandsAndHostlistCompresses();
    void pingReportsTheControllerUpOrDown();
    void pipedCommandsRunEachAfterThePromptAndItsEcho();
    void changingCommandsAreNotSupported();
    void entitiesTheClusterLacksAnswerAsSlurm();
    void badHostlistRangeIsNamedAndExitsZero();
    void listpidsOnTheLoginNodeFindsNoStep();
    void writeBatchScriptWritesTheQueuedScript();
    void unknownKeywordAndEntityAreErrors();
    void versionAndUsageMatchSlurm();
};

void ScontrolTest::initTestCase()
{
    qputenv("TZ", "UTC");
    tzset();
}

void ScontrolTest::showJobPrintsSlurmsRecordForARunningJob()
{
    Result r = runScontrol({"show", "job", "111"});
    COMPARE_TEXT(r.out,
        "JobId=111 JobName=showme\n"
        "   UserId=alice(1001) GroupId=alice(1001) MCS_label=N/A\n"
        "   Priority=4294901670 Nice=0 Account=students QOS=normal\n"
        "   JobState=RUNNING Reason=None Dependency=(null)\n"
        "   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n"
        "   RunTime=00:00:01 TimeLimit=00:20:00 TimeMin=N/A\n"
        "   SubmitTime=2026-11-21T11:13:59 EligibleTime=2026-11-21T11:13:59\n"
        "   AccrueTime=2026-11-21T11:13:59\n"
        "   StartTime=2026-11-21T11:14:00 EndTime=2026-11-21T11:34:00 Deadline=N/A\n"
        "   SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-11-21T11:14:00 Scheduler=Main\n"
        "   Partition=cpu AllocNode:Sid=localhost:19011\n"
        "   ReqNodeList=(null) ExcNodeList=(null)\n"
        "   NodeList=node01\n"
        "   BatchHost=node01\n"
        "   NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
        "   TRES=cpu=2,mem=256M,node=1,billing=2\n"
        "   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*\n"
        "   MinCPUsNode=1 MinMemoryNode=256M MinTmpDiskNode=0\n"
        "   Features=(null) DelayBoot=00:00:00\n"
        "   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)\n"
        "   Command=(null)\n"
        "   WorkDir=/home/alice\n"
        "   StdErr=/home/alice/out-111.log\n"
        "   StdIn=/dev/null\n"
        "   StdOut=/home/alice/out-111.log\n"
        "   Power=\n"
        "   \n"
        "\n");
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
}

void ScontrolTest::showJobPrintsExpectedTimesForAPendingJob()
{
    Result r = runScontrol({"show", "job", "112"}, kT0 + 1);
    COMPARE_TEXT(r.out,
        "JobId=112 JobName=pend\n"
        "   UserId=alice(1001) GroupId=alice(1001) MCS_label=N/A\n"
        "   Priority=4294901669 Nice=0 Account=students QOS=normal\n"
        "   JobState=PENDING Reason=BeginTime Dependency=(null)\n"
        "   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n"
        "   RunTime=00:00:00 TimeLimit=00:05:00 TimeMin=N/A\n"
        "   SubmitTime=2026-11-21T11:14:00 EligibleTime=2026-11-21T12:14:00\n"
        "   AccrueTime=Unknown\n"
        "   StartTime=2026-11-21T12:14:00 EndTime=2026-11-21T12:19:00 Deadline=N/A\n"
        "   SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-11-21T11:14:00 Scheduler=Main\n"
        "   Partition=cpu AllocNode:Sid=localhost:19055\n"
        "   ReqNodeList=(null) ExcNodeList=(null)\n"
        "   NodeList=\n"
        "   NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
        "   TRES=cpu=1,mem=500M,node=1,billing=1\n"
        "   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*\n"
        "   MinCPUsNode=1 MinMemoryCPU=500M MinTmpDiskNode=0\n"
        "   Features=(null) DelayBoot=00:00:00\n"
        "   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)\n"
        "   Command=(null)\n"
        "   WorkDir=/home/alice\n"
        "   StdErr=/home/alice/slurm-112.out\n"
        "   StdIn=/dev/null\n"
        "   StdOut=/home/alice/slurm-112.out\n"
        "   Power=\n"
        "   MailUser=alice MailType=END,FAIL\n"
        "   \n"
        "\n");
}

void ScontrolTest::oneLinerPutsTheRecordOnOneLine()
{
    Result r = runScontrol({"-o", "show", "job", "111"}, kT0 + 3);
    COMPARE_TEXT(r.out,
        "JobId=111 JobName=showme UserId=alice(1001) GroupId=alice(1001) MCS_label=N/A "
        "Priority=4294901670 Nice=0 Account=students QOS=normal JobState=RUNNING Reason=None "
        "Dependency=(null) Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0 RunTime=00:00:02 "
        "TimeLimit=00:20:00 TimeMin=N/A SubmitTime=2026-11-21T11:13:59 "
        "EligibleTime=2026-11-21T11:13:59 AccrueTime=2026-11-21T11:13:59 "
        "StartTime=2026-11-21T11:14:00 EndTime=2026-11-21T11:34:00 Deadline=N/A SuspendTime=None "
        "SecsPreSuspend=0 LastSchedEval=2026-11-21T11:14:00 Scheduler=Main Partition=cpu "
        "AllocNode:Sid=localhost:19011 ReqNodeList=(null) ExcNodeList=(null) NodeList=node01 "
        "BatchHost=node01 NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:* "
        "TRES=cpu=2,mem=256M,node=1,billing=2 Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=* "
        "MinCPUsNode=1 MinMemoryNode=256M MinTmpDiskNode=0 Features=(null) DelayBoot=00:00:00 "
        "OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null) Command=(null) "
        "WorkDir=/home/alice StdErr=/home/alice/out-111.log StdIn=/dev/null "
        "StdOut=/home/alice/out-111.log Power= \n");
}

void ScontrolTest::doubleDetailsAddsTheAllocationLines()
{
    Result r = runScontrol({"show", "jobid", "-dd", "111"}, kT0 + 3);
    COMPARE_TEXT(r.out,
        "JobId=111 JobName=showme\n"
        "   UserId=alice(1001) GroupId=alice(1001) MCS_label=N/A\n"
        "   Priority=4294901670 Nice=0 Account=students QOS=normal\n"
        "   JobState=RUNNING Reason=None Dependency=(null)\n"
        "   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0\n"
        "   DerivedExitCode=0:0\n"
        "   RunTime=00:00:02 TimeLimit=00:20:00 TimeMin=N/A\n"
        "   SubmitTime=2026-11-21T11:13:59 EligibleTime=2026-11-21T11:13:59\n"
        "   AccrueTime=2026-11-21T11:13:59\n"
        "   StartTime=2026-11-21T11:14:00 EndTime=2026-11-21T11:34:00 Deadline=N/A\n"
        "   SuspendTime=None SecsPreSuspend=0 LastSchedEval=2026-11-21T11:14:00 Scheduler=Main\n"
        "   Partition=cpu AllocNode:Sid=localhost:19011\n"
        "   ReqNodeList=(null) ExcNodeList=(null)\n"
        "   NodeList=node01\n"
        "   BatchHost=node01\n"
        "   NumNodes=1 NumCPUs=2 NumTasks=2 CPUs/Task=1 ReqB:S:C:T=0:0:*:*\n"
        "   TRES=cpu=2,mem=256M,node=1,billing=2\n"
        "   Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*\n"
        "   JOB_GRES=(null)\n"
        "     Nodes=node01 CPU_IDs=0-1 Mem=256 GRES=\n"
        "   MinCPUsNode=1 MinMemoryNode=256M MinTmpDiskNode=0\n"
        "   Features=(null) DelayBoot=00:00:00\n"
        "   OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)\n"
        "   Command=(null)\n"
        "   WorkDir=/home/alice\n"
        "   StdErr=/home/alice/out-111.log\n"
        "   StdIn=/dev/null\n"
        "   StdOut=/home/alice/out-111.log\n"
        "   Power=\n"
        "   \n"
        "\n");
}

void ScontrolTest::unknownJobIsALoadError()
{
    Result r = runScontrol({"show", "job", "999"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err, "slurm_load_jobs error: Invalid job id specified\n");
    QCOMPARE(r.exitCode, 1);
    for (const char *malformed : {"abc", "12abc", "1,2"}) { // refused before asking
        r = runScontrol({"show", "job", malformed});
        COMPARE_TEXT(r.err, "scontrol_print_job error: Invalid job id specified\n");
        QCOMPARE(r.exitCode, 1);
    }
    Harness h;
    r = h.run<Scontrol>({"show", "job"});
    COMPARE_TEXT(
        r.err, "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolTest::showNodeGivesCpuMemoryAndStateOfEachNode()
{
    Result r = runScontrol({"show", "node"});
    QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), 4 * 18);
    r = runScontrol({"show", "node", "node01"});
    QVERIFY(r.out.rfind("NodeName=node01 Arch=", 0) == 0);
    COMPARE_TEXT(lineStarting(r.out, "CPUAlloc"), "   CPUAlloc=2 CPUEfctv=4 CPUTot=4 CPULoad=2.00");
    COMPARE_TEXT(lineStarting(r.out, "RealMemory"),
        "   RealMemory=4000 AllocMem=256 FreeMem=3744 Sockets=1 Boards=1");
    COMPARE_TEXT(lineStarting(r.out, "State"),
        "   State=MIXED ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A");
    COMPARE_TEXT(lineStarting(r.out, "Partitions"), "   Partitions=debug,cpu ");
    COMPARE_TEXT(lineStarting(r.out, "CfgTRES"), "   CfgTRES=cpu=4,mem=4000M,billing=4");
    COMPARE_TEXT(lineStarting(r.out, "AllocTRES"), "   AllocTRES=cpu=2,mem=256M");
    r = runScontrol({"-o", "show", "node", "node02"});
    QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), 1);
    QVERIFY(r.out.find("CoresPerSocket=4  CPUAlloc=0 ") != std::string::npos);
    QVERIFY(r.out.find(" State=IDLE ") != std::string::npos);
    QVERIFY(r.out.find(" AllocTRES= CapWatts=n/a") != std::string::npos);
}

void ScontrolTest::drainedNodeShowsItsReasonWithWhoAndWhen()
{
    Harness h;
    serveCluster(h,
        clusterReply({{"node01"}, {"node02"}, {"node03", "draining", 4, 100, "kernel update"},
            {"node04", "drained", 0, 0, "disk replacement"}}));
    Result r = h.run<Scontrol>({"show", "node", "node[03-04]"});
    QVERIFY(r.out.find("   State=ALLOCATED+DRAIN ") != std::string::npos);
    QVERIFY(r.out.find("   State=IDLE+DRAIN ") != std::string::npos);
    QVERIFY(
        r.out.find("   Reason=disk replacement [root@2026-11-21T11:08:51]\n") != std::string::npos);
}

void ScontrolTest::unknownNodeIsNotFound()
{
    Result r = runScontrol({"show", "node", "node99"});
    COMPARE_TEXT(r.out, "Node node99 not found\n"); // on stdout (12_scontrol.txt)
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolTest::showPartitionPrintsEveryPartitionOrTheOneNamed()
{
    Result r = runScontrol({"show", "partition"});
    COMPARE_TEXT(r.out,
        "PartitionName=debug\n"
        "   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL\n"
        "   AllocNodes=ALL Default=YES QoS=N/A\n"
        "   DefaultTime=00:10:00 DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO\n"
        "   MaxNodes=UNLIMITED MaxTime=00:30:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED\n"
        "   Nodes=node[01-02]\n"
        "   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO\n"
        "   OverTimeLimit=NONE PreemptMode=OFF\n"
        "   State=UP TotalCPUs=8 TotalNodes=2 SelectTypeParameters=NONE\n"
        "   JobDefaults=(null)\n"
        "   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n"
        "   TRES=cpu=8,mem=8000M,node=2,billing=8\n"
        "\n"
        "PartitionName=cpu\n"
        "   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL\n"
        "   AllocNodes=ALL Default=NO QoS=N/A\n"
        "   DefaultTime=NONE DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO\n"
        "   MaxNodes=UNLIMITED MaxTime=2-00:00:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED\n"
        "   Nodes=node[01-04]\n"
        "   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO\n"
        "   OverTimeLimit=NONE PreemptMode=OFF\n"
        "   State=UP TotalCPUs=16 TotalNodes=4 SelectTypeParameters=NONE\n"
        "   JobDefaults=(null)\n"
        "   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n"
        "   TRES=cpu=16,mem=16000M,node=4,billing=16\n"
        "\n");
    r = runScontrol({"show", "partition", "debug"});
    COMPARE_TEXT(r.out,
        "PartitionName=debug\n"
        "   AllowGroups=ALL AllowAccounts=ALL AllowQos=ALL\n"
        "   AllocNodes=ALL Default=YES QoS=N/A\n"
        "   DefaultTime=00:10:00 DisableRootJobs=NO ExclusiveUser=NO GraceTime=0 Hidden=NO\n"
        "   MaxNodes=UNLIMITED MaxTime=00:30:00 MinNodes=0 LLN=NO MaxCPUsPerNode=UNLIMITED\n"
        "   Nodes=node[01-02]\n"
        "   PriorityJobFactor=1 PriorityTier=1 RootOnly=NO ReqResv=NO OverSubscribe=NO\n"
        "   OverTimeLimit=NONE PreemptMode=OFF\n"
        "   State=UP TotalCPUs=8 TotalNodes=2 SelectTypeParameters=NONE\n"
        "   JobDefaults=(null)\n"
        "   DefMemPerNode=UNLIMITED MaxMemPerNode=UNLIMITED\n"
        "   TRES=cpu=8,mem=8000M,node=2,billing=8\n"
        "\n");
    r = runScontrol({"show", "partition", "nosuch"});
    COMPARE_TEXT(r.out, "Partition nosuch not found\n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolTest::showConfigListsEverySlurmKeyInSlurmsOrder()
{
    Result r = runScontrol({"show", "config"});
    QVERIFY(r.out.rfind("Configuration data as of 2026-11-21T11:14:01\n", 0) == 0);
    QVERIFY(r.out.find("ClusterName             = refcluster\n") != std::string::npos);
    QVERIFY(r.out.find("DefMemPerCPU            = 500\n") != std::string::npos);
    // Slurm's defaults for what slurm.conf leaves out (Toil reads these two).
    QVERIFY(r.out.find("SchedulerTimeSlice      = 30 sec\n") != std::string::npos);
    QVERIFY(r.out.find("AcctGatherNodeFreq      = 0 sec\n") != std::string::npos);
    QVERIFY(r.out.find("AccountingStorageBackupHost = (null)\n") < r.out.find("ClusterName"));
    QVERIFY(r.out.find("SlurmctldHost[0]        = vm(vm)\n") != std::string::npos);
    QVERIFY(r.out.find("NodeName") == std::string::npos);
    QVERIFY(r.out.find("\nCgroup Support Configuration:\n") != std::string::npos);
    QVERIFY(r.out.find("\nSlurmctld(primary) at vm is UP\n") != std::string::npos);
    // 216 keys in Slurm 22.05 with this slurm.conf: BOOT_TIME and NEXT_JOB_ID from the
    // controller's ping.
    QVERIFY(r.out.find("BOOT_TIME               = 2026-11-21T11:10:00\n") != std::string::npos);
    QVERIFY(r.out.find("NEXT_JOB_ID             = 113\n") != std::string::npos);
    QVERIFY(r.out.find("BOOT_TIME") < r.out.find("BurstBufferType"));
    std::size_t keys = 0;
    for (std::size_t at = r.out.find(" = "); at != std::string::npos;
         at = r.out.find(" = ", at + 1)) {
        ++keys;
    }
    QCOMPARE(keys, std::size_t{193 + 19});
    r = runScontrol({"show", "config", "defmempercpu"});
    COMPARE_TEXT(r.out, "DefMemPerCPU            = 500\n");
}

void ScontrolTest::hostnamesExpandsAndHostlistCompresses()
{
    Result r = runScontrol({"show", "hostnames", "node[01-04]"});
    COMPARE_TEXT(r.out, "node01\nnode02\nnode03\nnode04\n");
    r = runScontrol({"show", "hostlist", "node01,node02,node03"});
    COMPARE_TEXT(r.out, "node[01-03]\n");
    r = runScontrol({"show", "hostlistsorted", "node03,node01,node02"});
    COMPARE_TEXT(r.out, "node[01-03]\n");
    Harness h;
    h.ctx.environment.push_back("SLURM_JOB_NODELIST=cn[1-2]");
    r = h.run<Scontrol>({"show", "hostnames"});
    COMPARE_TEXT(r.out, "cn1\ncn2\n");
}

void ScontrolTest::entitiesTheClusterLacksAnswerAsSlurm()
{
    Result r = runScontrol({"show", "reservations"});
    COMPARE_TEXT(r.out, "No reservations in the system\n");
    QCOMPARE(r.exitCode, 0);
    r = runScontrol({"show", "reservation", "maint"});
    COMPARE_TEXT(r.out, "Reservation maint not found\n");
    QCOMPARE(r.exitCode, 1);
    r = runScontrol({"-Q", "show", "reservation", "maint"});
    COMPARE_TEXT(r.out, "");
    QCOMPARE(r.exitCode, 1);
    r = runScontrol({"show", "licenses"});
    COMPARE_TEXT(r.out, "No licenses configured in Slurm.\n");
    r = runScontrol({"show", "frontend", "fe1"});
    COMPARE_TEXT(r.out, "Node fe1 not found\n");
    QCOMPARE(r.exitCode, 1);
    r = runScontrol({"show", "topology"});
    COMPARE_TEXT(r.err, "scontrol: error: No topology information available\n");
    QCOMPARE(r.exitCode, 0);
    r = runScontrol({"show", "burstbuffer"});
    COMPARE_TEXT(r.out + r.err, "");
    QCOMPARE(r.exitCode, 0);
    r = runScontrol({"show", "daemons"});
    COMPARE_TEXT(r.err, "scontrol: error: show daemons is not supported by minicluster\n");
    // The association manager's user records: the site's users and root, by name.
    Harness h;
    h.ctx.readSiteConf = [] {
        return std::optional<std::string>("User=bob UID=1002 DefaultAccount=students\n"
                                          "User=alice UID=1001 DefaultAccount=students\n");
    };
    r = h.run<Scontrol>({"show", "assoc_mgr", "flags=users"});
    COMPARE_TEXT(r.out,
        "Current Association Manager state\n\nUser Records\n\n"
        "UserName=alice(1001) DefAccount=students DefWckey= AdminLevel=None\n"
        "UserName=bob(1002) DefAccount=students DefWckey= AdminLevel=None\n"
        "UserName=root(0) DefAccount=root DefWckey= AdminLevel=Administrator\n");
    r = h.run<Scontrol>({"show", "assoc_mgr", "users=bob", "flags=users"});
    COMPARE_TEXT(r.out,
        "Current Association Manager state\n\nUser Records\n\n"
        "UserName=bob(1002) DefAccount=students DefWckey= AdminLevel=None\n");
    r = h.run<Scontrol>({"show", "assoc_mgr"});
    COMPARE_TEXT(r.err,
        "scontrol: error: show assoc_mgr without flags=users is not supported by minicluster\n");
}

void ScontrolTest::badHostlistRangeIsNamedAndExitsZero()
{
    Result r = runScontrol({"show", "hostnames", "node[03-01]"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err,
        "scontrol: error: _parse_single_range: Invalid range: `03-01'\n"
        "Invalid hostlist: node[03-01]\n");
    QCOMPARE(r.exitCode, 0);
    r = runScontrol({"show", "hostnames", "node[1,a-b]"});
    QVERIFY(r.err.find("Invalid range: `a-b'") != std::string::npos);
}

void ScontrolTest::listpidsOnTheLoginNodeFindsNoStep()
{
    Result r = runScontrol({"listpids", "112"});
    COMPARE_TEXT(r.out, "PID      JOBID    STEPID   LOCALID GLOBALID\n");
    COMPARE_TEXT(r.err, "JobId=112 does not exist on node (null).\n");
    QCOMPARE(r.exitCode, 1);
    r = runScontrol({"listpids", "112.0"});
    COMPARE_TEXT(r.err, "StepId=112.0 does not exist on node (null).\n");
    r = runScontrol({"listpids"});
    COMPARE_TEXT(r.err, "No job steps exist on this node.\n");
    r = runScontrol({"listpids", "abc"});
    COMPARE_TEXT(r.err, "\"abc\" does not look like a jobid\n");
}

void ScontrolTest::writeBatchScriptWritesTheQueuedScript()
{
    Harness h;
    h.reply = [](const Json &request) -> std::optional<Json> {
        Json reply = okReply();
        Json scripts = Json::array();
        Json entry = Json::object();
        entry.set("job_id", 112);
        entry.set("user", "alice");
        entry.set("script", "#!/bin/sh\ntrue\n");
        if (request["job_ids"].items().front().toInt() == 112) {
            scripts.push(entry);
        }
        reply.set("scripts", std::move(scripts));
        return reply;
    };
    Result r = h.run<Scontrol>({"write", "batch_script", "112", "-"});
    COMPARE_TEXT(r.out, "#!/bin/sh\ntrue\n");
    QCOMPARE(h.requests.back()["op"].toString(), std::string("job_scripts"));
    QVERIFY(h.requests.back()["live"].toBool()); // the controller's copy, not accounting's
    const QTemporaryDir dir;
    h.ctx.cwd = dir.path().toStdString();
    r = h.run<Scontrol>({"write", "batch_script", "112"});
    COMPARE_TEXT(r.out, "batch script for job 112 written to slurm-112.sh\n");
    QFile file(dir.filePath("slurm-112.sh"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("#!/bin/sh\ntrue\n"));
    r = h.run<Scontrol>({"write", "batch_script", "999"});
    COMPARE_TEXT(r.err, "job script retrieval failed: Invalid job id specified\n");
    QCOMPARE(r.exitCode, 0); // as Slurm's scontrol
}

void ScontrolTest::pingReportsTheControllerUpOrDown()
{
    Result r = runScontrol({"ping"});
    COMPARE_TEXT(r.out, "Slurmctld(primary) at vm is UP\n");
    QCOMPARE(r.exitCode, 0);
    Harness h;
    r = h.run<Scontrol>({"ping"}); // no slurm.conf: SlurmctldHost's localhost, named as the host
    COMPARE_TEXT(r.out, "Slurmctld(primary) at vm is DOWN\n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolTest::changingCommandsAreNotSupported()
{
    for (const char *command : {"reboot", "notify"}) {
        Result r = runScontrol({command, "112"});
        COMPARE_TEXT(r.err,
            std::string("scontrol: error: ") + command + " is not supported by minicluster\n");
        QCOMPARE(r.exitCode, 1);
    }
    // An operator's command: a user is refused with Slurm's words, job by job.
    Result r = runScontrol({"top", "112,113"});
    COMPARE_TEXT(
        r.err, "Access/permission denied for job 112\nAccess/permission denied for job 113\n");
    QCOMPARE(r.exitCode, 1);
    Harness root("root");
    r = root.run<Scontrol>({"top", "112"});
    COMPARE_TEXT(r.err, "scontrol: error: top is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
    r = runScontrol({}); // at a terminal
    COMPARE_TEXT(r.err, "scontrol: error: Interactive mode is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolTest::pipedCommandsRunEachAfterThePromptAndItsEcho()
{
    Harness h;
    h.ctx.now = kT0 + 2;
    serveAll(h, kT0 + 2);
    h.ctx.stdinIsTerminal = false;
    std::string input = "show job 999\n\nversion\n";
    h.ctx.readStdin = [&input] {
        return input;
    };
    Result r = h.run<Scontrol>({});
    COMPARE_TEXT(r.out,
        "scontrol: show job 999\nscontrol: \nscontrol: version\nslurm-wlm 22.05.8\nscontrol: \n");
    COMPARE_TEXT(r.err, "slurm_load_jobs error: Invalid job id specified\n");
    QCOMPARE(r.exitCode, 0); // the last command's
    input = "show job 999\nquit\nversion\n";
    r = h.run<Scontrol>({});
    COMPARE_TEXT(r.out, "scontrol: show job 999\nscontrol: quit\n");
    QCOMPARE(r.exitCode, 1);
    input.clear();
    r = h.run<Scontrol>({});
    COMPARE_TEXT(r.out, "scontrol: \n");
    QCOMPARE(r.exitCode, 0);
}

void ScontrolTest::unknownKeywordAndEntityAreErrors()
{
    Result r = runScontrol({"frobnicate"});
    COMPARE_TEXT(r.err, "invalid keyword: frobnicate\n");
    QCOMPARE(r.exitCode, 1);
    r = runScontrol({"show", "gizmo"});
    COMPARE_TEXT(r.err, "invalid entity:gizmo for keyword:show \n");
    QCOMPARE(r.exitCode, 1);
}

void ScontrolTest::versionAndUsageMatchSlurm()
{
    Result r = runScontrol({"--version"});
    COMPARE_TEXT(r.out, "slurm-wlm 22.05.8\n");
    r = runScontrol({"--usage"});
    QVERIFY(r.out.rfind("scontrol [<OPTION>] [<COMMAND>]", 0) == 0);
    QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), 137);
}

QTEST_APPLESS_MAIN(ScontrolTest)
#include "scontrol_test.moc"
