#include "mc/sched/gres_conf.h"

#include <QtTest>

using mc::sched::ClusterConfig;
using mc::sched::GresConf;
using mc::sched::parseGresConf;

class GresConfTest : public QObject {
    Q_OBJECT

private slots:
    void readsRecordsAsOnRealClusters();
    void reportsWhatSlurmdRefusesOrIgnores();
    void drainsANodeThatReportsFewerGpusThanConfigured();
    void drainsANodeWhoseTypeDoesNotMatch();
    void givesAnUntypedNodeItsGresConfType();
    void leavesNodesItDoesNotNameAndIgnoresExcess();
};

namespace {

// gpu01: Gres=gpu:a100:2, gpu02: Gres=gpu:2 (untyped), cn01: no GPUs.
ClusterConfig cluster()
{
    ClusterConfig config;
    config.nodes.push_back({"gpu01", 8, 16000, 2, "a100", {}, 1, ""});
    config.nodes.push_back({"gpu02", 8, 16000, 2, "", {}, 1, ""});
    config.nodes.push_back({"cn01", 4, 8000, 0, "", {}, 1, ""});
    return config;
}

const mc::sched::NodeConfig &node(const ClusterConfig &config, const char *name)
{
    return *config.node(name);
}

} // namespace

void GresConfTest::readsRecordsAsOnRealClusters()
{
    const GresConf conf = parseGresConf("# the GPU nodes' devices\n"
                                        "AutoDetect=off\n"
                                        "NodeName=gpu[01-02] Name=gpu Type=a100 \\\n"
                                        "    File=/dev/nvidia[0-1] Cores=0-3\n"
                                        "Name=gpu Count=1k\n"
                                        "NodeName=gpu03 Name=GPU Count=3\n");
    QVERIFY(conf.problems.empty());
    QCOMPARE(conf.records.size(), std::size_t{3});
    const auto &first = conf.records[0];
    QCOMPARE(first.line, 3);
    QCOMPARE(first.nodes, (std::vector<std::string>{"gpu01", "gpu02"}));
    QCOMPARE(first.type, std::string("a100"));
    QCOMPARE(first.files, (std::vector<std::string>{"/dev/nvidia0", "/dev/nvidia1"}));
    QCOMPARE(first.count, 2);
    QVERIFY(conf.records[1].nodes.empty());
    QCOMPARE(conf.records[1].count, 1024);
    QCOMPARE(conf.records[2].name, std::string("gpu"));
    QCOMPARE(mc::sched::gresConfGpus(conf, "gpu03").count, 1024 + 3);
    QCOMPARE(mc::sched::gresConfGpus(conf, "gpu01").type, std::string("a100"));
}

void GresConfTest::reportsWhatSlurmdRefusesOrIgnores()
{
    const GresConf other = parseGresConf("Name=mps Count=100\nName=gpu File=/dev/nvidia0\n");
    QVERIFY(!other.fatal);
    QCOMPARE(other.problems.size(), std::size_t{1});
    QCOMPARE(other.problems[0].line, 1);
    QCOMPARE(
        other.problems[0].message, std::string("Ignoring gres.conf record, invalid name: mps"));
    QCOMPARE(other.records.size(), std::size_t{1});

    const GresConf mismatch = parseGresConf("Name=gpu File=/dev/nvidia[0-3] Count=2\n");
    QVERIFY(mismatch.fatal);
    QCOMPARE(mismatch.problems[0].message,
        std::string("Invalid GRES record for gpu, count does not match File value"));

    const GresConf unknown = parseGresConf("Name=gpu Colour=green\n");
    QVERIFY(unknown.fatal);
    QCOMPARE(unknown.problems[0].message, std::string("Parsing error at unrecognized key: Colour"));

    const GresConf nvml = parseGresConf("AutoDetect=nvml\nName=gpu Count=2\n");
    QVERIFY(!nvml.fatal);
    QCOMPARE(nvml.problems.size(), std::size_t{1});
    QVERIFY(nvml.problems[0].message.find("not supported by minicluster") != std::string::npos);

    // A fatal file changes nothing: the nodes keep slurm.conf's GPUs, none is drained.
    ClusterConfig config = cluster();
    mc::sched::applyGresConf(config, mismatch);
    QVERIFY(node(config, "gpu01").gresInvalid.empty());
}

void GresConfTest::drainsANodeThatReportsFewerGpusThanConfigured()
{
    ClusterConfig config = cluster();
    mc::sched::applyGresConf(
        config, parseGresConf("NodeName=gpu01 Name=gpu Type=a100 File=/dev/nvidia0\n"));
    QCOMPARE(node(config, "gpu01").gresInvalid,
        std::string("gres/gpu count reported lower than configured (1 < 2)"));
    QVERIFY(node(config, "gpu02").gresInvalid.empty());
}

void GresConfTest::drainsANodeWhoseTypeDoesNotMatch()
{
    ClusterConfig config = cluster();
    mc::sched::applyGresConf(
        config, parseGresConf("NodeName=gpu01 Name=gpu Type=v100 File=/dev/nvidia[0-1]\n"));
    QCOMPARE(node(config, "gpu01").gresInvalid, std::string("gpu:a100 count too low (0 < 2)"));
    QCOMPARE(node(config, "gpu01").gpuType, std::string("a100"));
}

void GresConfTest::givesAnUntypedNodeItsGresConfType()
{
    ClusterConfig config = cluster();
    mc::sched::applyGresConf(
        config, parseGresConf("NodeName=gpu[01-02] Name=gpu Type=a100 File=/dev/nvidia[0-1]\n"));
    QVERIFY(node(config, "gpu01").gresInvalid.empty());
    QVERIFY(node(config, "gpu02").gresInvalid.empty());
    QCOMPARE(node(config, "gpu02").gpuType, std::string("a100"));
    QCOMPARE(node(config, "gpu02").gpus, 2);
}

void GresConfTest::leavesNodesItDoesNotNameAndIgnoresExcess()
{
    ClusterConfig config = cluster();
    mc::sched::applyGresConf(
        config, parseGresConf("NodeName=gpu02 Name=gpu Type=t4 File=/dev/nvidia[0-3]\n"));
    QVERIFY(node(config, "gpu01").gresInvalid.empty()); // not named: slurm.conf's Gres= holds
    QCOMPARE(node(config, "gpu01").gpuType, std::string("a100"));
    QVERIFY(node(config, "gpu02").gresInvalid.empty()); // 4 found, 2 configured: 2 used
    QCOMPARE(node(config, "gpu02").gpus, 2);
    QCOMPARE(node(config, "gpu02").gpuType, std::string("t4"));
    QVERIFY(node(config, "cn01").gresInvalid.empty());
    QCOMPARE(node(config, "cn01").gpus, 0);
}

QTEST_APPLESS_MAIN(GresConfTest)
#include "gres_conf_test.moc"
