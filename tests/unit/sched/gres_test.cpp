#include "mc/sched/gres.h"

#include <QtTest>

using mc::sched::GpuRequest;
using mc::sched::NodeGpus;

class GresTest : public QObject {
    Q_OBJECT

private slots:
    void readsANodesGpusAndTheirType_data();
    void readsANodesGpusAndTheirType();
    void readsGpuOptionsAsSlurmDoes_data();
    void readsGpuOptionsAsSlurmDoes();
    void picksTheLowestFreeGpusAndNeverATakenOne();
    void writesIndicesInSlurmsForms();
    void spreadsGpusOverNodesAsConsTresDoes();
};

void GresTest::readsANodesGpusAndTheirType_data()
{
    QTest::addColumn<QString>("gres");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("type");
    QTest::newRow("untyped") << "gpu:2" << true << 2 << "";
    QTest::newRow("typed") << "gpu:a100:4" << true << 4 << "a100";
    QTest::newRow("one") << "gpu" << true << 1 << "";
    QTest::newRow("type, count one") << "gpu:v100" << true << 1 << "v100";
    QTest::newRow("sockets") << "gpu:h100:2(S:0-1)" << true << 2 << "h100";
    QTest::newRow("others ignored") << "mps:100,gpu:a40:1" << true << 1 << "a40";
    QTest::newRow("two entries") << "gpu:a100:1,gpu:a100:2" << true << 3 << "a100";
    QTest::newRow("no gpu") << "mps:100" << true << 0 << "";
    QTest::newRow("bad count") << "gpu:2x" << false << 0 << "";
    QTest::newRow("empty name") << ":2" << false << 0 << "";
    QTest::newRow("too many parts") << "gpu:a:b:2" << false << 0 << "";
}

void GresTest::readsANodesGpusAndTheirType()
{
    QFETCH(QString, gres);
    QFETCH(bool, valid);
    QFETCH(int, count);
    QFETCH(QString, type);
    const auto parsed = mc::sched::parseNodeGpus(gres.toStdString());
    QCOMPARE(parsed.has_value(), valid);
    if (parsed) {
        QCOMPARE(parsed->count, count);
        QCOMPARE(QString::fromStdString(parsed->type), type);
    }
}

void GresTest::readsGpuOptionsAsSlurmDoes_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<bool>("known");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("type");
    QTest::newRow("--gres count") << "gres"
                                  << "gpu:2" << true << true << 2 << "";
    QTest::newRow("--gres typed") << "gres"
                                  << "gpu:a100:1" << true << true << 1 << "a100";
    QTest::newRow("--gres name alone") << "gres"
                                       << "gpu" << true << true << 1 << "";
    QTest::newRow("--gres type alone") << "gres"
                                       << "gpu:a100" << true << true << 1 << "a100";
    QTest::newRow("--gres gres/ prefix") << "gres"
                                         << "gres/gpu:1" << true << true << 1 << "";
    QTest::newRow("--gres other GRES") << "gres"
                                       << "foo:1" << true << false << 0 << "";
    QTest::newRow("--gres bad count") << "gres"
                                      << "gpu:a100:x" << false << false << 0 << "";
    QTest::newRow("--gres too many parts") << "gres"
                                           << "gpu:a100:1:2" << false << false << 0 << "";
    QTest::newRow("--gres zero") << "gres"
                                 << "gpu:0" << true << true << 0 << "";
    QTest::newRow("--gpus count") << "gpus"
                                  << "2" << true << true << 2 << "";
    QTest::newRow("--gpus typed") << "gpus"
                                  << "a100:2" << true << true << 2 << "a100";
    QTest::newRow("--gpus word") << "gpus"
                                 << "x" << false << false << 0 << "";
    QTest::newRow("--gpus bad count") << "gpus"
                                      << "a100:x" << false << false << 0 << "";
    QTest::newRow("--gpus empty type") << "gpus"
                                       << ":2" << false << false << 0 << "";
    QTest::newRow("--gpus negative") << "gpus"
                                     << "-1" << false << false << 0 << "";
}

void GresTest::readsGpuOptionsAsSlurmDoes()
{
    QFETCH(QString, option);
    QFETCH(QString, value);
    QFETCH(bool, valid);
    QFETCH(bool, known);
    QFETCH(int, count);
    QFETCH(QString, type);
    const std::string text = value.toStdString();
    const std::optional<GpuRequest> parsed = option == QLatin1String("gres")
        ? mc::sched::parseGresOption(text)
        : mc::sched::parseGpuCount(text);
    QCOMPARE(parsed.has_value(), valid);
    if (parsed) {
        QCOMPARE(parsed->known, known);
        if (known) {
            QCOMPARE(parsed->count, count);
            QCOMPARE(QString::fromStdString(parsed->type), type);
        }
    }
}

void GresTest::picksTheLowestFreeGpusAndNeverATakenOne()
{
    using Ids = std::vector<int>;
    QCOMPARE(mc::sched::pickGpus(2, {}, 1), std::optional<Ids>(Ids{0}));
    QCOMPARE(mc::sched::pickGpus(2, {0}, 1), std::optional<Ids>(Ids{1}));
    QCOMPARE(mc::sched::pickGpus(4, {1, 2}, 2), std::optional<Ids>(Ids{0, 3}));
    QVERIFY(!mc::sched::pickGpus(2, {1}, 2).has_value()); // one free, two wanted
    QVERIFY(!mc::sched::pickGpus(0, {}, 1).has_value()); // a node without GPUs
    QCOMPARE(mc::sched::pickGpus(2, {0, 1}, 0), std::optional<Ids>(Ids{}));
    // Every GPU of a node, handed out one job at a time, is handed out once.
    std::vector<int> taken;
    for (int job = 0; job < 8; ++job) {
        auto ids = mc::sched::pickGpus(8, taken, 1);
        QVERIFY(ids.has_value());
        QVERIFY(std::find(taken.begin(), taken.end(), ids->front()) == taken.end());
        taken.push_back(ids->front());
    }
    QVERIFY(!mc::sched::pickGpus(8, taken, 1).has_value());
}

void GresTest::writesIndicesInSlurmsForms()
{
    QCOMPARE(mc::sched::gpuIndexRanges({0, 1}), std::string("0-1"));
    QCOMPARE(mc::sched::gpuIndexRanges({3, 0, 1}), std::string("0-1,3"));
    QCOMPARE(mc::sched::gpuIndexRanges({2}), std::string("2"));
    QCOMPARE(mc::sched::gpuIndexList({0, 1, 3}), std::string("0,1,3"));
    QCOMPARE(mc::sched::gpuCountText("a100", 2), std::string("a100:2"));
    QCOMPARE(mc::sched::gpuCountText("", 2), std::string("2"));
}

void GresTest::spreadsGpusOverNodesAsConsTresDoes()
{
    using Counts = std::vector<int>;
    QCOMPARE(mc::sched::spreadGpus(3, 2, 2), (Counts{2, 1}));
    QCOMPARE(mc::sched::spreadGpus(5, 3, 4), (Counts{3, 1, 1})); // first come, not balanced
    QCOMPARE(mc::sched::spreadGpus(4, 2, 2), (Counts{2, 2}));
    QCOMPARE(mc::sched::spreadGpus(3, 3, 2), (Counts{1, 1, 1}));
    QVERIFY(mc::sched::spreadGpus(5, 2, 2).empty()); // more than the nodes hold
    QVERIFY(mc::sched::spreadGpus(1, 2, 2).empty()); // a GPU for every node, at least
    QVERIFY(mc::sched::spreadGpus(2, 2, 0).empty()); // nodes without GPUs
}

QTEST_APPLESS_MAIN(GresTest)
#include "gres_test.moc"
