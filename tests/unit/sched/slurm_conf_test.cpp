#include "mc/sched/slurm_conf.h"

#include <QtTest>

using mc::sched::ClusterConfig;
using mc::sched::ParsedConfig;
using mc::sched::PartitionState;

namespace {

// etc/slurm.conf of the reference Slurm 22.05 cluster (shared/refslurm), verbatim.
constexpr const char *kReferenceConf
    = R"(# Reference single-host Slurm 22.05 cluster ("refcluster") for the teaching sandbox.
# Debian's slurmd is built with --enable-multiple-slurmd, so four slurmd
# processes (one per emulated node) run on this host, each on its own port.
# Installed as /etc/slurm/slurm.conf (symlink) by ../setup.sh.
ClusterName=refcluster
SlurmctldHost=localhost
SlurmctldPort=6817
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
# no mail transport on this host; /bin/true silences 'Configured MailProg is invalid'
MailProg=/bin/true
ReturnToService=2

# --- runtime files (standard system paths only) ---
SlurmctldPidFile=/run/refslurm/slurmctld.pid
SlurmdPidFile=/run/refslurm/slurmd-%n.pid
SlurmctldLogFile=/var/log/refslurm/slurmctld.log
SlurmdLogFile=/var/log/refslurm/slurmd-%n.log
StateSaveLocation=/var/spool/refslurm/ctld
SlurmdSpoolDir=/var/spool/refslurm/slurmd/%n
SlurmctldDebug=info
SlurmdDebug=info

# --- process tracking / limits ---
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
JobAcctGatherType=jobacct_gather/cgroup
JobAcctGatherFrequency=task=5
# The emulated nodes claim more CPUs/memory than this 2-core host has.
SlurmdParameters=config_overrides

# --- scheduling ---
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=500

# --- accounting ---
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStoragePort=6819
JobCompType=jobcomp/none

# --- timers (defaults made explicit) ---
InactiveLimit=0
KillWait=30
MinJobAge=300
SlurmctldTimeout=120
SlurmdTimeout=300
Waittime=0

# --- emulated nodes: all on this host, distinguished by port ---
NodeName=node[01-04] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[17001-17004] CPUs=4 Boards=1 SocketsPerBoard=1 CoresPerSocket=4 ThreadsPerCore=1 RealMemory=4000 State=UNKNOWN

PartitionName=debug Nodes=node[01-02] Default=YES MaxTime=00:30:00 DefaultTime=00:10:00 State=UP
PartitionName=cpu   Nodes=node[01-04] Default=NO  MaxTime=2-00:00:00 State=UP
)";

QStringList toQStringList(const std::vector<std::string> &items)
{
    QStringList list;
    for (const auto &item : items) {
        list << QString::fromStdString(item);
    }
    return list;
}

// "line: message" for each problem, to compare in one go.
QStringList problemsOf(const ParsedConfig &parsed)
{
    QStringList list;
    for (const auto &problem : parsed.problems) {
        list << QString::number(problem.line) + QStringLiteral(": ")
                + QString::fromStdString(problem.message);
    }
    return list;
}

ParsedConfig parse(const QString &text)
{
    return mc::sched::parseSlurmConf(text.toStdString());
}

} // namespace

class SlurmConfTest : public QObject {
    Q_OBJECT

private slots:
    void readsTheReferenceClusterWithoutProblems();
    void reportsUnknownKeysAndBadValues_data();
    void reportsUnknownKeysAndBadValues();
    void acceptsKeysCaseInsensitively();
    void readsNodeResources();
    void derivesCpusFromSocketsCoresAndThreads_data();
    void derivesCpusFromSocketsCoresAndThreads();
    void nodeDefaultsApplyToLaterLines();
    void readsPartitionLimitsAndFlags();
    void partitionDefaultsApplyToLaterLines();
    void nodesAllMeansEveryConfiguredNode();
    void lastDefaultPartitionWins();
    void findsNodesAndPartitionsByName();
    void joinsContinuedLinesAndStripsComments();
    void slurmctldHostWinsOverControlMachine();
    void defMemPerNodeExcludesDefMemPerCpu();
    void readsSchedulingPriorityAndPreemptionKeys();
    void readsCalcPeriodAndCommentStorageAndSaysPriorityFlagsAreIgnored();
    void readsTimingKeysAndSchedulerParameters();
};

void SlurmConfTest::readsTheReferenceClusterWithoutProblems()
{
    const auto parsed = mc::sched::parseSlurmConf(kReferenceConf);
    QCOMPARE(problemsOf(parsed), QStringList{});
    const ClusterConfig &config = parsed.config;
    QCOMPARE(QString::fromStdString(config.clusterName), QStringLiteral("refcluster"));
    QCOMPARE(QString::fromStdString(config.controlMachine), QStringLiteral("localhost"));
    QCOMPARE(config.defMemPerCpu, std::optional<mc::sched::MiB>(500));
    QVERIFY(!config.defMemPerNode.has_value());
    QCOMPARE(config.killWait, mc::sched::Seconds{30});
    // What `minicluster up` names as accepted without effect: Slurm's keys minicluster does
    // not act on, not those it reads elsewhere (SlurmUser, SelectType, MessageTimeout...).
    QStringList notImplemented;
    for (const auto &key : parsed.notImplemented) {
        notImplemented << QString::fromStdString(key);
    }
    QVERIFY2(notImplemented.startsWith(QStringLiteral("SlurmctldPort")),
        qPrintable(notImplemented.join(u',')));
    for (const char *key : {"SlurmdUser", "AuthType", "ProctrackType", "AccountingStorageType"}) {
        QVERIFY2(notImplemented.contains(QLatin1String(key)), key);
    }
    for (const char *key : {"SlurmUser", "SelectType", "SchedulerType", "DefMemPerCPU", "KillWait",
             "ClusterName", "InactiveLimit", "BatchStartTimeout", "MessageTimeout"}) {
        QVERIFY2(!notImplemented.contains(QLatin1String(key)), key);
    }

    QCOMPARE(config.nodes.size(), std::size_t{4});
    for (const auto &node : config.nodes) {
        QCOMPARE(node.cpus, 4);
        QCOMPARE(node.realMemory, mc::sched::MiB{4000});
        QCOMPARE(node.gpus, 0);
        QCOMPARE(node.weight, 1);
    }
    QCOMPARE(QString::fromStdString(config.nodes.back().name), QStringLiteral("node04"));

    QCOMPARE(config.partitions.size(), std::size_t{2});
    const auto *debug = config.defaultPartition();
    QVERIFY(debug != nullptr);
    QCOMPARE(QString::fromStdString(debug->name), QStringLiteral("debug"));
    QCOMPARE(toQStringList(debug->nodes), (QStringList{"node01", "node02"}));
    QCOMPARE(debug->maxTime, mc::sched::Seconds{30 * 60});
    QCOMPARE(debug->defaultTime, std::optional<mc::sched::Seconds>(10 * 60));
    QCOMPARE(debug->state, PartitionState::Up);

    const auto *cpu = config.partition("cpu");
    QVERIFY(cpu != nullptr);
    QVERIFY(!cpu->isDefault);
    QCOMPARE(cpu->nodes.size(), std::size_t{4});
    QCOMPARE(cpu->maxTime, mc::sched::Seconds{2 * 86400});
    QVERIFY(!cpu->defaultTime.has_value());
    QCOMPARE(cpu->priorityTier, 1);
    QVERIFY(!cpu->exclusive);
    QVERIFY(!cpu->maxNodes.has_value());
    QVERIFY(cpu->allowAccounts.empty());
}

void SlurmConfTest::reportsUnknownKeysAndBadValues_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("problems");
    QTest::newRow("unknown global key") << "Foo=bar" << QStringList{"1: unknown key Foo="};
    QTest::newRow("defunct key") << "SchedulerAuth=x"
                                 << QStringList{"1: unknown key SchedulerAuth="};
    QTest::newRow("unknown node key")
        << "NodeName=n1 Bogus=1 CPUs=2" << QStringList{"1: unknown key Bogus="};
    QTest::newRow("unknown partition key")
        << "NodeName=n1\nPartitionName=p Nodes=n1 Frob=2" << QStringList{"2: unknown key Frob="};
    QTest::newRow("bad number") << "NodeName=n1 CPUs=four"
                                << QStringList{"1: bad value for CPUs=four"};
    QTest::newRow("negative number")
        << "KillWait=-5" << QStringList{"1: bad value for KillWait=-5"};
    QTest::newRow("bad gres") << "NodeName=n1 Gres=gpu:2x"
                              << QStringList{"1: bad value for Gres=gpu:2x"};
    QTest::newRow("bad node list")
        << "NodeName=n[1-" << QStringList{"1: bad value for NodeName=n[1-"};
    QTest::newRow("NodeName=ALL is reserved")
        << "NodeName=ALL" << QStringList{"1: bad value for NodeName=ALL"};
    QTest::newRow("bad time") << "PartitionName=p MaxTime=forever"
                              << QStringList{"1: bad value for MaxTime=forever"};
    QTest::newRow("bad state") << "PartitionName=p State=SLEEPING"
                               << QStringList{"1: bad value for State=SLEEPING"};
    QTest::newRow("bad boolean") << "PartitionName=p Default=maybe"
                                 << QStringList{"1: bad value for Default=maybe"};
    QTest::newRow("bad oversubscribe") << "PartitionName=p OverSubscribe=SOMETIMES"
                                       << QStringList{"1: bad value for OverSubscribe=SOMETIMES"};
    QTest::newRow("unknown node in a partition") << "NodeName=n1\nPartitionName=p Nodes=n[1-2]"
                                                 << QStringList{"2: unknown node n2 in Nodes="};
    QTest::newRow("duplicate node")
        << "NodeName=n[1-2]\nNodeName=n2" << QStringList{"2: duplicate node name n2"};
    QTest::newRow("duplicate partition")
        << "PartitionName=p\nPartitionName=p" << QStringList{"2: duplicate partition name p"};
    QTest::newRow("one global key per line")
        << "ClusterName=a KillWait=5" << QStringList{"1: parse error at \"KillWait=5\""};
    QTest::newRow("not a key=value line")
        << "\nhello world" << QStringList{"2: parse error at \"hello world\""};
    QTest::newRow("empty value") << "ClusterName="
                                 << QStringList{"1: parse error at \"ClusterName=\""};
    QTest::newRow("include") << "Include /etc/slurm/nodes.conf"
                             << QStringList{"1: Include is not supported"};
    QTest::newRow("bad controller") << "SlurmctldHost=ctl(10.0.0.1"
                                    << QStringList{"1: bad value for SlurmctldHost=ctl(10.0.0.1"};
}

void SlurmConfTest::reportsUnknownKeysAndBadValues()
{
    QFETCH(QString, text);
    QFETCH(QStringList, problems);
    QCOMPARE(problemsOf(parse(text)), problems);
}

void SlurmConfTest::acceptsKeysCaseInsensitively()
{
    const auto parsed = parse("clustername=Teaching\nKILLWAIT=10\nnodename=n1 cpus=2\n"
                              "partitionname=p nodes=n1 default=yes\nwaittime=0");
    QCOMPARE(problemsOf(parsed), QStringList{});
    QCOMPARE(QString::fromStdString(parsed.config.clusterName), QStringLiteral("teaching"));
    QCOMPARE(parsed.config.killWait, mc::sched::Seconds{10});
    QCOMPARE(parsed.config.nodes.at(0).cpus, 2);
    QVERIFY(parsed.config.defaultPartition() != nullptr);
}

void SlurmConfTest::readsNodeResources()
{
    const auto parsed = parse("NodeName=gpu[01-02] CPUs=8 RealMemory=64000 Gres=gpu:a100:4 "
                              "Features=avx2,ib Weight=10 State=UNKNOWN\n"
                              "NodeName=mixed Gres=gpu:2(S:0-1),gpu:v100:1,mps:100 Feature=x\n"
                              "NodeName=plain");
    QCOMPARE(problemsOf(parsed), QStringList{});
    const auto *gpu = parsed.config.node("gpu02");
    QVERIFY(gpu != nullptr);
    QCOMPARE(gpu->cpus, 8);
    QCOMPARE(gpu->realMemory, mc::sched::MiB{64000});
    QCOMPARE(gpu->gpus, 4);
    QCOMPARE(QString::fromStdString(gpu->gpuType), QStringLiteral("a100"));
    QCOMPARE(toQStringList(gpu->features), (QStringList{"avx2", "ib"}));
    QCOMPARE(gpu->weight, 10);
    QCOMPARE(parsed.config.node("mixed")->gpus, 3);
    QCOMPARE(toQStringList(parsed.config.node("mixed")->features), QStringList{"x"});
    const auto *plain = parsed.config.node("plain");
    QCOMPARE(plain->cpus, 1);
    QCOMPARE(plain->realMemory, mc::sched::MiB{1});
    QCOMPARE(plain->gpus, 0);
    QCOMPARE(plain->weight, 1);
}

void SlurmConfTest::derivesCpusFromSocketsCoresAndThreads_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<int>("cpus");
    QTest::addColumn<QStringList>("problems");
    QTest::newRow("sockets x cores x threads")
        << "NodeName=n1 Sockets=2 CoresPerSocket=4 ThreadsPerCore=2" << 16 << QStringList{};
    QTest::newRow("boards x sockets per board")
        << "NodeName=n1 Boards=2 SocketsPerBoard=2 CoresPerSocket=8" << 32 << QStringList{};
    QTest::newRow("CPUs given and consistent")
        << "NodeName=n1 CPUs=8 CoresPerSocket=4" << 8 << QStringList{};
    QTest::newRow("CPUs may count cores only")
        << "NodeName=n1 CPUs=8 Sockets=2 CoresPerSocket=4 ThreadsPerCore=2" << 8 << QStringList{};
    QTest::newRow("Procs is the old name") << "NodeName=n1 Procs=6" << 6 << QStringList{};
    QTest::newRow("CPUs matching no product are reset")
        << "NodeName=n1 CPUs=6 Sockets=1 CoresPerSocket=4" << 4
        << QStringList{"1: CPUs=6 match no Sockets, Sockets*CoresPerSocket or "
                       "Sockets*CoresPerSocket*ThreadsPerCore, reset to 4"};
    QTest::newRow("zero CPUs become one")
        << "NodeName=n1 CPUs=0" << 1 << QStringList{"1: CPUs=0 is invalid, reset to 1"};
}

void SlurmConfTest::derivesCpusFromSocketsCoresAndThreads()
{
    QFETCH(QString, line);
    QFETCH(int, cpus);
    QFETCH(QStringList, problems);
    const auto parsed = parse(line);
    QCOMPARE(problemsOf(parsed), problems);
    QCOMPARE(parsed.config.nodes.at(0).cpus, cpus);
}

void SlurmConfTest::nodeDefaultsApplyToLaterLines()
{
    const auto parsed = parse("NodeName=DEFAULT CPUs=4 RealMemory=8000 Features=avx\n"
                              "NodeName=cn[01-02]\n"
                              "NodeName=big RealMemory=16000 Feature=bigmem\n"
                              "NodeName=DEFAULT CPUs=2\n"
                              "NodeName=small");
    QCOMPARE(problemsOf(parsed), QStringList{});
    const auto &config = parsed.config;
    QCOMPARE(config.node("cn02")->cpus, 4);
    QCOMPARE(config.node("cn02")->realMemory, mc::sched::MiB{8000});
    QCOMPARE(toQStringList(config.node("cn02")->features), QStringList{"avx"});
    QCOMPARE(config.node("big")->cpus, 4);
    QCOMPARE(config.node("big")->realMemory, mc::sched::MiB{16000});
    QCOMPARE(toQStringList(config.node("big")->features), QStringList{"bigmem"});
    QCOMPARE(config.node("small")->cpus, 2);
    QCOMPARE(config.node("small")->realMemory, mc::sched::MiB{8000});
}

void SlurmConfTest::readsPartitionLimitsAndFlags()
{
    const auto parsed = parse("NodeName=cn[01-04]\n"
                              "PartitionName=gpu Nodes=cn[01-02] MaxTime=UNLIMITED "
                              "DefaultTime=1:00:00 State=DRAIN PriorityTier=5 "
                              "OverSubscribe=EXCLUSIVE MaxNodes=2 AllowAccounts=Def-Prof,ml\n"
                              "PartitionName=long Nodes=cn03,cn04 MaxTime=7-0 State=INACTIVE "
                              "MaxNodes=UNLIMITED AllowAccounts=ALL Shared=NO\n"
                              "PartitionName=off Nodes=\"cn01 cn04\" State=DOWN Priority=3");
    QCOMPARE(problemsOf(parsed), QStringList{});
    const auto *gpu = parsed.config.partition("gpu");
    QCOMPARE(gpu->maxTime, mc::sched::kInfinite);
    QCOMPARE(gpu->defaultTime, std::optional<mc::sched::Seconds>(3600));
    QCOMPARE(gpu->state, PartitionState::Drain);
    QCOMPARE(gpu->priorityTier, 5);
    QVERIFY(gpu->exclusive);
    QCOMPARE(gpu->maxNodes, std::optional<int>(2));
    QCOMPARE(toQStringList(gpu->allowAccounts), (QStringList{"def-prof", "ml"}));
    const auto *longPart = parsed.config.partition("long");
    QCOMPARE(longPart->maxTime, mc::sched::Seconds{7 * 86400});
    QCOMPARE(longPart->state, PartitionState::Inactive);
    QVERIFY(!longPart->maxNodes.has_value());
    QVERIFY(longPart->allowAccounts.empty());
    QVERIFY(!longPart->exclusive);
    const auto *off = parsed.config.partition("off");
    QCOMPARE(toQStringList(off->nodes), (QStringList{"cn01", "cn04"}));
    QCOMPARE(off->state, PartitionState::Down);
    QCOMPARE(off->priorityTier, 3);
}

void SlurmConfTest::partitionDefaultsApplyToLaterLines()
{
    const auto parsed = parse("NodeName=n1\nPartitionName=DEFAULT MaxTime=30 State=DOWN\n"
                              "PartitionName=a Nodes=n1\nPartitionName=b Nodes=n1 State=UP");
    QCOMPARE(problemsOf(parsed), QStringList{});
    QCOMPARE(parsed.config.partition("a")->maxTime, mc::sched::Seconds{1800});
    QCOMPARE(parsed.config.partition("a")->state, PartitionState::Down);
    QCOMPARE(parsed.config.partition("b")->state, PartitionState::Up);
    QCOMPARE(parsed.config.partitions.size(), std::size_t{2});
}

void SlurmConfTest::nodesAllMeansEveryConfiguredNode()
{
    const auto parsed = parse("NodeName=a1\nPartitionName=p Nodes=ALL\nNodeName=b[1-2]");
    QCOMPARE(problemsOf(parsed), QStringList{});
    QCOMPARE(toQStringList(parsed.config.partition("p")->nodes), (QStringList{"a1", "b1", "b2"}));
}

void SlurmConfTest::lastDefaultPartitionWins()
{
    const auto parsed = parse("PartitionName=a Default=YES\nPartitionName=b Default=YES\n"
                              "PartitionName=c Default=NO");
    QCOMPARE(QString::fromStdString(parsed.config.defaultPartition()->name), QStringLiteral("b"));
    QVERIFY(!parsed.config.partition("a")->isDefault);
    QVERIFY(parse("PartitionName=a").config.defaultPartition() == nullptr);
}

void SlurmConfTest::findsNodesAndPartitionsByName()
{
    const auto parsed = parse("NodeName=n[1-2]\nPartitionName=p Nodes=n1");
    QCOMPARE(QString::fromStdString(parsed.config.node("n2")->name), QStringLiteral("n2"));
    QVERIFY(parsed.config.node("n3") == nullptr);
    QVERIFY(parsed.config.node("N2") == nullptr);
    QCOMPARE(QString::fromStdString(parsed.config.partition("p")->name), QStringLiteral("p"));
    QVERIFY(parsed.config.partition("q") == nullptr);
    QVERIFY(ClusterConfig{}.defaultPartition() == nullptr);
}

void SlurmConfTest::joinsContinuedLinesAndStripsComments()
{
    const auto parsed = parse("NodeName=n1 \\\n  CPUs=2 # two\n"
                              "# NodeName=ignored\n"
                              "ClusterName=a\\#b   \n"
                              "Foo=1");
    QCOMPARE(problemsOf(parsed), QStringList{"5: unknown key Foo="});
    QCOMPARE(parsed.config.nodes.at(0).cpus, 2);
    QCOMPARE(parsed.config.nodes.size(), std::size_t{1});
    QCOMPARE(QString::fromStdString(parsed.config.clusterName), QStringLiteral("a#b"));
}

void SlurmConfTest::slurmctldHostWinsOverControlMachine()
{
    const auto parsed = parse("ControlMachine=old\nSlurmctldHost=ctl(10.0.0.1)\n"
                              "SlurmctldHost=backup");
    QCOMPARE(problemsOf(parsed), QStringList{});
    QCOMPARE(QString::fromStdString(parsed.config.controlMachine), QStringLiteral("ctl"));
    QCOMPARE(QString::fromStdString(parse("ControlMachine=old").config.controlMachine),
        QStringLiteral("old"));
    QCOMPARE(QString::fromStdString(parse("").config.controlMachine), QStringLiteral("localhost"));
}

void SlurmConfTest::defMemPerNodeExcludesDefMemPerCpu()
{
    const auto parsed = parse("DefMemPerCPU=1000\nDefMemPerNode=2K");
    QCOMPARE(problemsOf(parsed),
        QStringList{"1: DefMemPerCPU ignored, since it's mutually exclusive with "
                    "DefMemPerNode"});
    QVERIFY(!parsed.config.defMemPerCpu.has_value());
    QCOMPARE(parsed.config.defMemPerNode, std::optional<mc::sched::MiB>(2048));
}

void SlurmConfTest::readsSchedulingPriorityAndPreemptionKeys()
{
    const ParsedConfig parsed = mc::sched::parseSlurmConf(
        "SchedulerType=sched/builtin\nPriorityType=priority/multifactor\n"
        "PriorityWeightAge=1000\nPriorityWeightFairshare=2000\nPriorityWeightJobSize=3\n"
        "PriorityWeightPartition=4\nPriorityWeightQOS=5\nPriorityMaxAge=1-0\n"
        "PriorityDecayHalfLife=0\nPriorityFavorSmall=YES\n"
        "PreemptType=preempt/partition_prio\nPreemptMode=REQUEUE\n"
        "NodeName=cn01 CPUs=4\n"
        "PartitionName=p Nodes=cn01 MinNodes=1 PreemptMode=CANCEL GraceTime=120\n"
        "PartitionName=q Nodes=cn01 PreemptMode=bogus\n");
    const ClusterConfig &c = parsed.config;
    QCOMPARE(c.scheduler, mc::sched::SchedulerKind::Builtin);
    QCOMPARE(c.priority.kind, mc::sched::PriorityKind::Multifactor);
    QCOMPARE(c.priority.weightAge, 1000);
    QCOMPARE(c.priority.weightFairshare, 2000);
    QCOMPARE(c.priority.weightQos, 5);
    QCOMPARE(c.priority.maxAge, 86400);
    QCOMPARE(c.priority.decayHalfLife, 0);
    QVERIFY(c.priority.favorSmall);
    QVERIFY(c.preemptPartitionPrio);
    QCOMPARE(c.preemptMode, mc::sched::PreemptMode::Requeue);
    QCOMPARE(c.partitions[0].preemptMode, std::optional(mc::sched::PreemptMode::Cancel));
    QCOMPARE(c.partitions[0].graceTime, 120);
    QCOMPARE(parsed.problems.size(), std::size_t(1)); // PreemptMode=bogus
    QVERIFY(parsed.problems[0].message.find("PreemptMode") != std::string::npos);
}

void SlurmConfTest::readsCalcPeriodAndCommentStorageAndSaysPriorityFlagsAreIgnored()
{
    const ParsedConfig defaults = mc::sched::parseSlurmConf("NodeName=cn01 CPUs=4\n");
    QCOMPARE(defaults.config.priority.calcPeriod, 300); // Slurm's default: 5 minutes
    QVERIFY(!defaults.config.storeJobComment);
    const ParsedConfig parsed
        = mc::sched::parseSlurmConf("PriorityCalcPeriod=2\n"
                                    "AccountingStoreFlags=job_script,job_comment\n"
                                    "PriorityFlags=FAIR_TREE\n"
                                    "NodeName=cn01 CPUs=4\n");
    QCOMPARE(parsed.config.priority.calcPeriod, 120); // minutes, as time_str2mins() reads it
    QVERIFY(parsed.config.storeJobComment);
    QCOMPARE(parsed.problems.size(), std::size_t(1));
    QCOMPARE(parsed.problems[0].line, 3);
    QVERIFY(
        parsed.problems[0].message.find("PriorityFlags=FAIR_TREE is accepted but ignored") == 0);
    QVERIFY(mc::sched::parseSlurmConf("AccountingStoreJobComment=YES\n").config.storeJobComment);
    QCOMPARE(mc::sched::parseSlurmConf("PriorityCalcPeriod=0\n").problems.size(), std::size_t(1));
    // LaunchParameters: a list, of which use_interactive_step changes what salloc does.
    QVERIFY(!defaults.config.useInteractiveStep);
    const ParsedConfig launch
        = mc::sched::parseSlurmConf("LaunchParameters=enable_nss_slurm,Use_Interactive_Step\n");
    QVERIFY(launch.config.useInteractiveStep);
    QVERIFY(launch.problems.empty());
}

void SlurmConfTest::readsTimingKeysAndSchedulerParameters()
{
    const ClusterConfig defaults = mc::sched::parseSlurmConf("NodeName=cn01 CPUs=4\n").config;
    QCOMPARE(defaults.minJobAge, 300); // Slurm 22.05's defaults
    QCOMPARE(defaults.killWait, 30);
    QCOMPARE(defaults.overTimeLimit, std::optional<mc::sched::Seconds>(0));
    QCOMPARE(defaults.inactiveLimit, 0);
    QCOMPARE(defaults.batchStartTimeout, 10);
    QVERIFY(!defaults.killInvalidDepend);
    const ParsedConfig parsed = mc::sched::parseSlurmConf("MinJobAge=0\n"
                                                          "KillWait=5\n"
                                                          "OverTimeLimit=3\n"
                                                          "SchedulerParameters=bf_continue,"
                                                          "Kill_Invalid_Depend\n"
                                                          "InactiveLimit=0\n"
                                                          "BatchStartTimeout=10\n");
    QVERIFY(parsed.problems.empty());
    QCOMPARE(parsed.config.minJobAge, 0);
    QCOMPARE(parsed.config.killWait, 5);
    QCOMPARE(parsed.config.overTimeLimit, std::optional<mc::sched::Seconds>(180)); // minutes
    QVERIFY(parsed.config.killInvalidDepend);
    QCOMPARE(parsed.config.schedulerParameters, std::string("bf_continue,Kill_Invalid_Depend"));
    QVERIFY(!mc::sched::parseSlurmConf("OverTimeLimit=UNLIMITED\n").config.overTimeLimit);
    QVERIFY(
        !mc::sched::parseSlurmConf("SchedulerParameters=bf_continue\n").config.killInvalidDepend);
    // InactiveLimit, BatchStartTimeout and MessageTimeout are honoured (controller_inactive.cpp):
    // read without a word, and none of them is named as accepted without effect.
    const ParsedConfig liveness
        = mc::sched::parseSlurmConf("InactiveLimit=120\nBatchStartTimeout=30\nMessageTimeout=20\n");
    QCOMPARE(problemsOf(liveness), QStringList{});
    QCOMPARE(liveness.config.inactiveLimit, 120);
    QCOMPARE(liveness.config.batchStartTimeout, 30);
    QCOMPARE(liveness.config.messageTimeout, 20);
    QCOMPARE(liveness.notImplemented, std::vector<std::string>{});
    QCOMPARE(defaults.messageTimeout, 10);
    QCOMPARE(problemsOf(mc::sched::parseSlurmConf("InactiveLimit=65536\n")).size(), 1);
    // A requeued job waits the launch credential's lifetime + 1 s.
    QCOMPARE(defaults.requeueDelay, 121);
    QCOMPARE(mc::sched::parseSlurmConf("AuthInfo=socket=/run/munge.sock,cred_expire=30\n")
                 .config.requeueDelay,
        31);
    QCOMPARE(mc::sched::parseSlurmConf("AuthInfo=cred_expire=4\n").problems.size(), std::size_t(1));
    QCOMPARE(mc::sched::parseSlurmConf("MinJobAge=soon\n").problems.at(0).message,
        std::string("bad value for MinJobAge=soon"));
}

QTEST_APPLESS_MAIN(SlurmConfTest)
#include "slurm_conf_test.moc"
