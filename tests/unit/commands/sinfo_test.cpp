#include "command_harness.h"
#include "mc/cmd/sinfo.h"
#include "reference_cluster.h"

#include <QtTest>

#include <ctime>

using namespace mc::cmd::test;
using mc::cmd::Sinfo;

#define COMPARE_TEXT(actual, expected)                                                             \
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(expected))

namespace {

// 2026-11-21T11:08:51 UTC, when 01_sinfo.txt was recorded.
constexpr std::int64_t kT0 = 1795259331;

// node01 half busy, node03 full, node04 drained: the middle of 01_sinfo.txt.
std::vector<NodeState> busyCluster()
{
    return {{"node01", "mixed", 2, 256}, {"node02"}, {"node03", "allocated", 4, 1000},
        {"node04", "drained", 0, 0, "disk replacement"}};
}

Result runSinfo(Json reply, std::vector<std::string> args, std::vector<std::string> env = {})
{
    Harness h;
    h.ctx.now = kT0;
    for (auto &e : env) {
        h.ctx.environment.push_back(e);
    }
    serveCluster(h, std::move(reply));
    return h.run<Sinfo>(std::move(args));
}

} // namespace

class SinfoTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void defaultListsEachPartitionWithItsNodesByState();
    void nodeCentricListsEveryNodeOncePerPartition();
    void nodeCentricLongStartsWithTheDate();
    void summarizeCountsNodesAllocatedIdleOtherTotal();
    void longShowsJobSizeRootOversubscribeAndGroups();
    void partitionAndFormatOptionsSelectAndShape();
    void formatWithoutPartitionMergesPartitionsNodes();
    void busyClusterSplitsRowsByStateDrainedFirst();
    void listReasonsShowsDrainedNodesWithWhoAndWhen();
    void nodeCentricFormatShowsCpuCountsPerNode();
    void drainingAndNotRespondingNodesGetTheirOwnStates();
    void downPartitionShowsDownAvailability();
    void unknownPartitionPrintsOnlyTheHeader();
    void unknownNodePrintsNotApplicableRows();
    void statesFilterKeepsMatchingNodes();
    void capitalFormatAndEnvironmentFormatAreHonoured();
    void invalidFormatLetterAndStateAreErrors();
    void unsupportedOptionIsRefused();
    void clustersNamesTheOneCluster();
    void versionHelpAndUsageMatchSlurm();
    void unreachableControllerIsALoadError();
};

void SinfoTest::initTestCase()
{
    qputenv("TZ", "UTC");
    tzset();
}

void SinfoTest::defaultListsEachPartitionWithItsNodesByState()
{
    Result r = runSinfo(clusterReply(), {});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
        "debug*       up      30:00      2   idle node[01-02]\n"
        "cpu          up 2-00:00:00      4   idle node[01-04]\n");
    COMPARE_TEXT(r.err, "");
    QCOMPARE(r.exitCode, 0);
}

void SinfoTest::nodeCentricListsEveryNodeOncePerPartition()
{
    Result r = runSinfo(clusterReply(), {"-N"});
    COMPARE_TEXT(r.out,
        "NODELIST   NODES PARTITION STATE \n"
        "node01         1    debug* idle  \n"
        "node01         1       cpu idle  \n"
        "node02         1    debug* idle  \n"
        "node02         1       cpu idle  \n"
        "node03         1       cpu idle  \n"
        "node04         1       cpu idle  \n");
}

void SinfoTest::nodeCentricLongStartsWithTheDate()
{
    Result r = runSinfo(clusterReply(), {"-N", "-l"});
    COMPARE_TEXT(r.out,
        "Sat Nov 21 11:08:51 2026\n"
        "NODELIST   NODES PARTITION       STATE CPUS    S:C:T MEMORY TMP_DISK WEIGHT AVAIL_FE "
        "REASON              \n"
        "node01         1    debug*        idle 4       1:4:1   4000        0      1   (null) "
        "none                \n"
        "node01         1       cpu        idle 4       1:4:1   4000        0      1   (null) "
        "none                \n"
        "node02         1    debug*        idle 4       1:4:1   4000        0      1   (null) "
        "none                \n"
        "node02         1       cpu        idle 4       1:4:1   4000        0      1   (null) "
        "none                \n"
        "node03         1       cpu        idle 4       1:4:1   4000        0      1   (null) "
        "none                \n"
        "node04         1       cpu        idle 4       1:4:1   4000        0      1   (null) "
        "none                \n");
}

void SinfoTest::summarizeCountsNodesAllocatedIdleOtherTotal()
{
    Result r = runSinfo(clusterReply(), {"-s"});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST\n"
        "debug*       up      30:00          0/2/0/2 node[01-02]\n"
        "cpu          up 2-00:00:00          0/4/0/4 node[01-04]\n");
    r = runSinfo(clusterReply(busyCluster()), {"--summarize"});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT   NODES(A/I/O/T) NODELIST\n"
        "debug*       up      30:00          1/1/0/2 node[01-02]\n"
        "cpu          up 2-00:00:00          2/1/1/4 node[01-04]\n");
}

void SinfoTest::longShowsJobSizeRootOversubscribeAndGroups()
{
    Result r = runSinfo(clusterReply(), {"-l"});
    COMPARE_TEXT(r.out,
        "Sat Nov 21 11:08:51 2026\n"
        "PARTITION AVAIL  TIMELIMIT   JOB_SIZE ROOT OVERSUBS     GROUPS  NODES       STATE "
        "NODELIST\n"
        "debug*       up      30:00 1-infinite   no       NO        all      2        idle "
        "node[01-02]\n"
        "cpu          up 2-00:00:00 1-infinite   no       NO        all      4        idle "
        "node[01-04]\n");
}

void SinfoTest::partitionAndFormatOptionsSelectAndShape()
{
    Result r = runSinfo(clusterReply(), {"-p", "cpu"});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
        "cpu          up 2-00:00:00      4   idle node[01-04]\n");
    r = runSinfo(clusterReply(), {"-o", "%P %a %l %D %t %N"});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL TIMELIMIT NODES STATE NODELIST\n"
        "debug* up 30:00 2 idle node[01-02]\n"
        "cpu up 2-00:00:00 4 idle node[01-04]\n");
    r = runSinfo(clusterReply(), {"-h", "--format=%R:%L:%c:%m"});
    COMPARE_TEXT(r.out, "debug:10:00:4:4000\ncpu:n/a:4:4000\n");
}

// Real Slurm 22.05 (tests/differential, sinfo-views): without %P or %R the rows are not split
// by partition, and a node in two partitions counts once.
void SinfoTest::formatWithoutPartitionMergesPartitionsNodes()
{
    Result r = runSinfo(clusterReply(), {"-o", "%D %t %N"});
    COMPARE_TEXT(r.out, "NODES STATE NODELIST\n4 idle node[01-04]\n");
    r = runSinfo(clusterReply(), {"-O", "Nodes,Time"});
    COMPARE_TEXT(r.out,
        "NODES               TIMELIMIT           \n"
        "2                   30:00               \n"
        "4                   2-00:00:00          \n");
}

void SinfoTest::busyClusterSplitsRowsByStateDrainedFirst()
{
    Result r = runSinfo(clusterReply(busyCluster()), {});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
        "debug*       up      30:00      1    mix node01\n"
        "debug*       up      30:00      1   idle node02\n"
        "cpu          up 2-00:00:00      1  drain node04\n"
        "cpu          up 2-00:00:00      1    mix node01\n"
        "cpu          up 2-00:00:00      1  alloc node03\n"
        "cpu          up 2-00:00:00      1   idle node02\n");
}

void SinfoTest::listReasonsShowsDrainedNodesWithWhoAndWhen()
{
    Result r = runSinfo(clusterReply(), {"-R"});
    COMPARE_TEXT(r.out, "REASON               USER      TIMESTAMP           NODELIST\n");
    r = runSinfo(clusterReply(busyCluster()), {"-R"});
    COMPARE_TEXT(r.out,
        "REASON               USER      TIMESTAMP           NODELIST\n"
        "disk replacement     root      2026-11-21T11:08:51 node04\n");
    r = runSinfo(clusterReply(busyCluster()), {"-R", "-l", "-h"});
    COMPARE_TEXT(r.out, "disk replacement     root(0)      2026-11-21T11:08:51 drain  node04\n");
}

void SinfoTest::nodeCentricFormatShowsCpuCountsPerNode()
{
    Result r = runSinfo(clusterReply(busyCluster()), {"-N", "-o", "%N %T %C %m %e %O"});
    COMPARE_TEXT(r.out,
        "NODELIST STATE CPUS(A/I/O/T) MEMORY FREE_MEM CPU_LOAD\n"
        "node01 mixed 2/2/0/4 4000 3744 2.00\n"
        "node01 mixed 2/2/0/4 4000 3744 2.00\n"
        "node02 idle 0/4/0/4 4000 4000 0.00\n"
        "node02 idle 0/4/0/4 4000 4000 0.00\n"
        "node03 allocated 4/0/0/4 4000 3000 4.00\n"
        "node04 drained 0/0/4/4 4000 4000 0.00\n");
}

void SinfoTest::drainingAndNotRespondingNodesGetTheirOwnStates()
{
    auto nodes = busyCluster();
    nodes[2] = {"node03", "draining", 4, 1000, "kernel update"};
    Result r = runSinfo(clusterReply(nodes), {"-p", "cpu"});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
        "cpu          up 2-00:00:00      1   drng node03\n"
        "cpu          up 2-00:00:00      1  drain node04\n"
        "cpu          up 2-00:00:00      1    mix node01\n"
        "cpu          up 2-00:00:00      1   idle node02\n");
    nodes = {{"node01"}, {"node02"}, {"node03", "idle", 0, 0, "", false},
        {"node04", "idle", 0, 0, "", false}};
    r = runSinfo(clusterReply(nodes), {});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
        "debug*       up      30:00      2   idle node[01-02]\n"
        "cpu          up 2-00:00:00      2  idle* node[03-04]\n"
        "cpu          up 2-00:00:00      2   idle node[01-02]\n");
    r = runSinfo(clusterReply(nodes), {"-d", "-h", "-o", "%N"});
    COMPARE_TEXT(r.out, "node[03-04]\n");
}

void SinfoTest::downPartitionShowsDownAvailability()
{
    Json reply = clusterReply({{"node01", "allocated", 4, 1000}, {"node02", "allocated", 4, 1000},
        {"node03", "mixed", 1, 500}, {"node04", "drained", 0, 0, "disk replacement"}});
    Json parts = Json::array();
    parts.push(partitionJson("debug", true, 1800, {"node01", "node02"}));
    Json cpu = partitionJson("cpu", false, 172800, {"node01", "node02", "node03", "node04"});
    cpu.set("state", "down");
    parts.push(cpu);
    reply.set("partitions", parts);
    Result r = runSinfo(reply, {});
    // 04_pending_reasons.txt
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
        "debug*       up      30:00      2  alloc node[01-02]\n"
        "cpu        down 2-00:00:00      1  drain node04\n"
        "cpu        down 2-00:00:00      1    mix node03\n"
        "cpu        down 2-00:00:00      2  alloc node[01-02]\n");
}

void SinfoTest::unknownPartitionPrintsOnlyTheHeader()
{
    Result r = runSinfo(clusterReply(), {"-p", "nosuch"});
    COMPARE_TEXT(r.out, "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n");
    QCOMPARE(r.exitCode, 0);
}

void SinfoTest::unknownNodePrintsNotApplicableRows()
{
    Result r = runSinfo(clusterReply(), {"-n", "node99"});
    COMPARE_TEXT(r.out,
        "PARTITION AVAIL  TIMELIMIT  NODES  STATE NODELIST\n"
        "debug*       up      30:00      0    n/a \n"
        "cpu          up 2-00:00:00      0    n/a \n");
}

void SinfoTest::statesFilterKeepsMatchingNodes()
{
    // A partition with no node in those states keeps an n/a line (real Slurm 22.05.8, checked
    // with node04 drained on ../shared/refslurm; tests/differential sinfo-views/state-alloc).
    Result r = runSinfo(clusterReply(busyCluster()), {"-t", "drain,alloc", "-h"});
    COMPARE_TEXT(r.out,
        "debug*       up      30:00      0    n/a \n"
        "cpu          up 2-00:00:00      1  drain node04\n"
        "cpu          up 2-00:00:00      1  alloc node03\n");
    r = runSinfo(clusterReply(busyCluster()), {"--states=idle", "-N", "-h", "-o", "%N %P"});
    COMPARE_TEXT(r.out, "node02 debug*\nnode02 cpu\n");
}

void SinfoTest::capitalFormatAndEnvironmentFormatAreHonoured()
{
    Result r = runSinfo(clusterReply(), {"-O", "PartitionName:8,NodeAIOT:.9,StateLong"});
    COMPARE_TEXT(r.out,
        "PARTITIONODES(A/ISTATE               \n"
        "debug     0/2/0/2idle                \n"
        "cpu       0/4/0/4idle                \n");
    r = runSinfo(clusterReply(), {}, {"SINFO_FORMAT=%R %D"});
    COMPARE_TEXT(r.out, "PARTITION NODES\ndebug 2\ncpu 4\n");
    r = runSinfo(clusterReply(), {"-o", "%.3D|%5R|"}, {"SINFO_FORMAT=%R %D"});
    COMPARE_TEXT(r.out, "NOD|PARTI|\n  2|debug|\n  4|cpu  |\n");
}

// Real Slurm 22.05 (tests/differential, sinfo-views): an unknown letter prints as typed, its
// complaint has no "sinfo: error: " and the exit stays 0; an unknown -O name is a "job" format
// error (Slurm's word); an unknown state lists the valid ones.
void SinfoTest::invalidFormatLetterAndStateAreErrors()
{
    Result r = runSinfo(clusterReply(), {"-o", "%P %k"});
    COMPARE_TEXT(r.out, "PARTITION %k\ndebug* %k\ncpu %k\n");
    COMPARE_TEXT(r.err, "Invalid node format specification: k\n");
    QCOMPARE(r.exitCode, 0);
    r = runSinfo(clusterReply(), {"-O", "Bogus"});
    COMPARE_TEXT(r.err, "sinfo: error: Invalid job format specification: Bogus\n");
    QCOMPARE(r.exitCode, 0);
    r = runSinfo(clusterReply(), {"-t", "sleepy"});
    QVERIFY(r.err.rfind("sinfo: error: Bad state string: \"sleepy\"\n"
                        "sinfo: error: valid states: unknown,down,idle,allocated,",
                0)
        == 0);
    QCOMPARE(r.exitCode, 1);
}

void SinfoTest::unsupportedOptionIsRefused()
{
    Result r = runSinfo(clusterReply(), {"-i", "5"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err, "sinfo: error: --iterate is not supported by minicluster\n");
    QCOMPARE(r.exitCode, 1);
    // A bad period is Slurm's own error first.
    r = runSinfo(clusterReply(), {"-i", "abc"});
    COMPARE_TEXT(r.err, "sinfo: error: Error: invalid entry for --iterate=abc\n");
    QCOMPARE(r.exitCode, 1);
}

void SinfoTest::clustersNamesTheOneCluster()
{
    Harness h;
    h.ctx.now = kT0;
    h.reply = withClusterName([](const Json &) { return std::optional<Json>(clusterReply()); });
    h.ctx.readSlurmConf = [] {
        return std::optional<std::string>(kReferenceSlurmConf);
    };
    Result r = h.run<Sinfo>({"-M", "refcluster", "-h", "-o", "%P"});
    COMPARE_TEXT(r.out, "CLUSTER: refcluster\ndebug*\ncpu\n");
    r = h.run<Sinfo>({"--clusters=nosuch"});
    COMPARE_TEXT(r.out, "");
    COMPARE_TEXT(r.err,
        "sinfo: error: No cluster 'nosuch' known by database.\n"
        "sinfo: error: 'nosuch' can't be reached now, or it is an invalid entry for --cluster.  "
        "Use 'sacctmgr list clusters' to see available clusters.\n");
    QCOMPARE(r.exitCode, 1);
}

void SinfoTest::versionHelpAndUsageMatchSlurm()
{
    Result r = runSinfo(clusterReply(), {"-V"});
    COMPARE_TEXT(r.out, "slurm-wlm 22.05.8\n");
    r = runSinfo(clusterReply(), {"--usage"});
    COMPARE_TEXT(r.out,
        "Usage: sinfo [-abdelNRrsTv] [-i seconds] [-t states] [-p partition] [-n nodes]\n"
        "             [-S fields] [-o format] [-O Format] [--federation] [--local]\n");
    r = runSinfo(clusterReply(), {"--help"});
    QVERIFY(r.out.rfind("Usage: sinfo [OPTIONS]\n  -a, --all ", 0) == 0);
    QCOMPARE(std::count(r.out.begin(), r.out.end(), '\n'), 35);
    r = runSinfo(clusterReply(), {"--bogus"});
    COMPARE_TEXT(
        r.err, "sinfo: unrecognized option '--bogus'\nTry \"sinfo --help\" for more information\n");
    QCOMPARE(r.exitCode, 1);
}

void SinfoTest::unreachableControllerIsALoadError()
{
    Harness h;
    Result r = h.run<Sinfo>({});
    COMPARE_TEXT(
        r.err, "slurm_load_partitions: Unable to contact slurm controller (connect failure)\n");
    QCOMPARE(r.exitCode, 1);
}

QTEST_APPLESS_MAIN(SinfoTest)
#include "sinfo_test.moc"
