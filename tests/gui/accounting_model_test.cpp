// The history model without a display: sacct's data with seff's efficiency figures.

#include "mc/gui/accounting_model.h"
#include "test_jobs.h"

#include <QAbstractItemModelTester>
#include <QTest>

using mc::gui::AccountingModel;
using mc::gui::test::decoded;
using mc::gui::test::kNow;
using mc::proto::Json;
using Column = AccountingModel::Column;

namespace {

Json step(const std::string &id, std::int64_t cpuMs, std::int64_t maxRssKb)
{
    return Json::object().set("step_id", id).set("total_cpu_ms", cpuMs).set("max_rss_kb", maxRssKb);
}

// A 4-CPU job that ran 100 s after waiting 30 s, asking 2000 MiB per node.
Json finished(std::int64_t id)
{
    return Json::object()
        .set("job_id", id)
        .set("name", "train")
        .set("user", "alice")
        .set("partition", "cpu")
        .set("state", "COMPLETED")
        .set("submit_time", kNow - 130)
        .set("start_time", kNow - 100)
        .set("end_time", kNow)
        .set("num_cpus", 4)
        .set("num_nodes", 1)
        .set("min_memory", 2000)
        .set("mem_per_cpu", false)
        .set("steps",
            Json::array().push(step("batch", 150'000, 512'000)).push(step("0", 50'000, 1'024'000)));
}

} // namespace

class AccountingModelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void efficienciesAreComputedAsSeffDoes()
    {
        const auto r = AccountingModel::recordOf(decoded(finished(1)), kNow);
        QCOMPARE(r.waitSeconds, 30);
        QCOMPARE(r.elapsedSeconds, 100);
        // CPU: TotalCPU of all steps (200 s) over Elapsed × CPUs (400 core-seconds).
        QVERIFY(r.cpuEfficiency);
        QCOMPARE(*r.cpuEfficiency, 50.0);
        // Memory: the largest step MaxRSS (1000 MiB) over the request (2000 MiB per node).
        QVERIFY(r.memoryEfficiency);
        QCOMPARE(*r.memoryEfficiency, 50.0);
    }

    void perCpuMemoryRequestCountsEveryCpu()
    {
        const auto r = AccountingModel::recordOf(
            decoded(finished(2).set("min_memory", 500).set("mem_per_cpu", true)), kNow);
        QCOMPARE(r.requestedMemoryMb, 2000);
        QCOMPARE(*r.memoryEfficiency, 50.0);
    }

    void jobThatNeverRanHasNoFigures()
    {
        const auto r = AccountingModel::recordOf(decoded(finished(3)
                                                             .set("state", "CANCELLED")
                                                             .set("start_time", std::int64_t{0})
                                                             .set("steps", Json::array())),
            kNow);
        QCOMPARE(r.waitSeconds, -1);
        QVERIFY(!r.cpuEfficiency);
        QVERIFY(!r.memoryEfficiency);
    }

    void runningJobHasNoEfficiencyYet()
    {
        const auto r = AccountingModel::recordOf(
            decoded(finished(4).set("state", "RUNNING").set("end_time", std::int64_t{0})),
            kNow + 50);
        QCOMPARE(r.elapsedSeconds, 150);
        QVERIFY(!r.cpuEfficiency);
        QVERIFY(!r.memoryEfficiency);
    }

    void tableShowsOneRowPerJobWithSeffWords()
    {
        AccountingModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReply(Json::object()
                           .set("ok", true)
                           .set("jobs",
                               Json::array()
                                   .push(finished(1))
                                   .push(finished(2).set("start_time", std::int64_t{0}))),
            kNow);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.headerData(AccountingModel::columnIndex(Column::CpuEff), Qt::Horizontal)
                     .toString(),
            QStringLiteral("CPU Efficiency"));
        const auto text = [&model](int row, Column column) {
            return model.index(row, AccountingModel::columnIndex(column)).data().toString();
        };
        QCOMPARE(text(0, Column::CpuEff), QStringLiteral("50.00%"));
        QCOMPARE(text(0, Column::Wait), QStringLiteral("00:00:30"));
        QCOMPARE(text(0, Column::Elapsed), QStringLiteral("00:01:40"));
        QCOMPARE(text(1, Column::CpuEff), QStringLiteral("—"));
        QVERIFY(!model.index(1, AccountingModel::columnIndex(Column::MemEff))
                     .data(AccountingModel::ValueRole)
                     .isValid());
        model.setReply(Json::object().set("ok", true).set("jobs", Json::array()), kNow);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(AccountingModelTest)
#include "accounting_model_test.moc"
