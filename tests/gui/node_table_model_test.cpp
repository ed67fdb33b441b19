// The nodes model without a display: node objects fill rows, job objects say who holds them.

#include "mc/gui/node_table_model.h"
#include "test_jobs.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using mc::gui::NodeTableModel;
using mc::gui::test::decoded;
using mc::gui::test::decodedAll;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;
using Column = NodeTableModel::Column;

namespace {

Json node(const std::string &name, int cpus, int allocCpus, const std::string &state = "mixed")
{
    return Json::object()
        .set("name", name)
        .set("state", state)
        .set("cpus", cpus)
        .set("alloc_cpus", allocCpus)
        .set("memory", 4000)
        .set("alloc_memory", 1000)
        .set("gpus", 1)
        .set("partitions", Json::array().push("cpu").push("debug"));
}

QString cell(const NodeTableModel &model, int row, Column column)
{
    return model.index(row, NodeTableModel::columnIndex(column)).data().toString();
}

} // namespace

class NodeTableModelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void snapshotFillsOneRowPerNodeAsSinfoNamesThem()
    {
        NodeTableModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.reset({node("cn01", 4, 4, "allocated"), node("cn02", 4, 0, "idle")}, {});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("NODELIST"));
        QCOMPARE(cell(model, 0, Column::Name), QStringLiteral("cn01"));
        QCOMPARE(cell(model, 0, Column::State), QStringLiteral("alloc"));
        QCOMPARE(cell(model, 1, Column::State), QStringLiteral("idle"));
        QCOMPARE(cell(model, 0, Column::Cpus), QStringLiteral("4/4"));
        QCOMPARE(cell(model, 0, Column::Memory), QStringLiteral("1000/4000"));
        QCOMPARE(cell(model, 0, Column::Partitions), QStringLiteral("cpu,debug"));
        QCOMPARE(cell(model, 0, Column::Gpus), QStringLiteral("1"));
    }

    void compactStatesAreSinfos()
    {
        QCOMPARE(NodeTableModel::compactState(QStringLiteral("mixed")), QStringLiteral("mix"));
        QCOMPARE(NodeTableModel::compactState(QStringLiteral("drained")), QStringLiteral("drain"));
        QCOMPARE(NodeTableModel::compactState(QStringLiteral("down")), QStringLiteral("down"));
        QCOMPARE(NodeTableModel::compactState(QStringLiteral("weird")), QStringLiteral("weird"));
    }

    void runningJobsFillTheCpuSlotsOfTheirNodes()
    {
        NodeTableModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // Jobs first, as a snapshot may list them: they wait for their nodes.
        model.reset({node("cn01", 4, 3), node("cn02", 4, 2)},
            decodedAll({runningJob(7, {"cn01", "cn02"}).set("num_cpus", 4),
                runningJob(8, {"cn01"}).set("num_cpus", 1), pendingJob(9)}));
        QCOMPARE(cell(model, 0, Column::Jobs), QStringLiteral("7,8"));
        QCOMPARE(cell(model, 1, Column::Jobs), QStringLiteral("7"));
        const QVariantList cpuSlots = model.index(0, 0).data(NodeTableModel::CpuSlotsRole).toList();
        QCOMPARE(cpuSlots, (QVariantList{qint64{7}, qint64{7}, qint64{8}, qint64{0}}));
        QCOMPARE(model.holdersAt(0).first().user, QStringLiteral("alice"));
        QCOMPARE(model.holdersAt(0).first().cpus, 2);
    }

    void aJobLeavingItsNodesFreesThem()
    {
        NodeTableModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.reset({node("cn01", 4, 2)}, decodedAll({runningJob(7, {"cn01"}).set("num_cpus", 2)}));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.updateJob(decoded(runningJob(7, {"cn01"}).set("num_cpus", 2)));
        QCOMPARE(changed.count(), 0); // the same job again changes nothing
        model.updateJob(decoded(
            mc::gui::test::job(7, "COMPLETED", "CD").set("nodes", Json::array().push("cn01"))));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(cell(model, 0, Column::Jobs), QString());
    }

    void nodeEventsUpdateTheirRowOnly()
    {
        NodeTableModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.reset({node("cn01", 4, 0, "idle"), node("cn02", 4, 0, "idle")}, {});
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.updateNode(node("cn02", 4, 4, "allocated"));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.first().at(0).toModelIndex().row(), 1);
        QCOMPARE(cell(model, 1, Column::State), QStringLiteral("alloc"));
        model.updateNode(node("cn03", 2, 0, "down"));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.rowOfNode(QStringLiteral("cn03")), 2);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void memoryAndGpusAreFilledByTheJobsHoldingThem()
    {
        NodeTableModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.reset({node("gpu01", 4, 3).set("gpus", 2).set("alloc_memory", 3500)},
            decodedAll({runningJob(7, {"gpu01"})
                            .set("num_cpus", 2)
                            .set("min_memory", 1000)
                            .set("mem_per_cpu", true)
                            .set("gres", "gpu:1"),
                runningJob(8, {"gpu01"})
                    .set("num_cpus", 1)
                    .set("min_memory", 1000)
                    .set("gpus", 1)}));
        const QModelIndex gpus = model.index(0, NodeTableModel::columnIndex(Column::Gpus));
        QCOMPARE(
            gpus.data(NodeTableModel::GpuSlotsRole).toList(), QVariantList({qint64{7}, qint64{8}}));
        const QVariantList memory = gpus.data(NodeTableModel::MemoryBlocksRole).toList();
        // Job 7 holds 2 CPUs × 1000 MiB, job 8 1000 MiB, the rest is someone else's.
        QCOMPARE(memory.size(), 3);
        QCOMPARE(memory[0].toList(), QVariantList({qint64{7}, qint64{2000}}));
        QCOMPARE(memory[1].toList(), QVariantList({qint64{8}, qint64{1000}}));
        QCOMPARE(memory[2].toList(), QVariantList({qint64{-1}, qint64{500}}));
        QCOMPARE(gpus.data(NodeTableModel::MemoryTotalRole).toLongLong(), 4000);
        QCOMPARE(model.holdersAt(0).first().gpus, 1);
        QCOMPARE(model.holdersAt(0).first().memoryMb, 2000);
    }
};

QTEST_GUILESS_MAIN(NodeTableModelTest)
#include "node_table_model_test.moc"
