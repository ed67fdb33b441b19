// The timeline's data without a display: past, running and planned blocks per node.

#include "mc/gui/timeline_model.h"
#include "test_jobs.h"

#include <QSignalSpy>
#include <QTest>

using mc::gui::TimelineModel;
using mc::gui::test::decoded;
using mc::gui::test::decodedAll;
using mc::gui::test::kNow;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;
using Kind = TimelineModel::Kind;

namespace {

Json node(const std::string &name)
{
    return Json::object().set("name", name);
}

Json finishedJob(std::int64_t id, const std::string &nodeName, std::int64_t start, std::int64_t end)
{
    return runningJob(id, {nodeName}, start)
        .set("state", "COMPLETED")
        .set("state_short", "CD")
        .set("end_time", end);
}

} // namespace

class TimelineModelTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void finishedAndRunningJobsAreBlocksOnTheirNodes()
    {
        TimelineModel model;
        model.setNow(kNow);
        model.reset(decodedAll({finishedJob(1, "cn01", kNow - 3600, kNow - 1800),
                        runningJob(2, {"cn01", "cn02"}, kNow - 600).set("time_limit", 3600)}),
            {node("cn01"), node("cn02")});
        QCOMPARE(model.nodeNames(), QStringList({"cn01", "cn02"}));
        const auto cn01 = model.blocksOn(QStringLiteral("cn01"));
        QCOMPARE(cn01.size(), 2);
        QCOMPARE(cn01[0].jobId, 1);
        QCOMPARE(cn01[0].kind, Kind::Past);
        QCOMPARE(cn01[0].begin, kNow - 3600);
        QCOMPARE(cn01[0].end, kNow - 1800);
        // A running block reaches its time limit: the latest the job may end.
        QCOMPARE(cn01[1].kind, Kind::Running);
        QCOMPARE(cn01[1].begin, kNow - 600);
        QCOMPARE(cn01[1].end, kNow - 600 + 3600);
        QCOMPARE(model.blocksOn(QStringLiteral("cn02")).size(), 1);
        QCOMPARE(model.span().first, qint64{kNow - 3600});
        QCOMPARE(model.span().second, qint64{kNow + 3000});
    }

    void backfilledJobsAreMarkedAsTheControllerSays()
    {
        TimelineModel model;
        model.setNow(kNow);
        model.reset(decodedAll({runningJob(1, {"cn01"}, kNow - 60).set("backfilled", true),
                        runningJob(2, {"cn02"}, kNow - 60).set("backfilled", false),
                        runningJob(3, {"cn03"}, kNow - 60)}),
            {node("cn01"), node("cn02"), node("cn03")});
        QVERIFY(model.blocksOn(QStringLiteral("cn01")).first().backfilled);
        QVERIFY(!model.blocksOn(QStringLiteral("cn02")).first().backfilled);
        QVERIFY(!model.blocksOn(QStringLiteral("cn03")).first().backfilled);
        // Still marked once it has finished.
        model.updateJob(decoded(finishedJob(1, "cn01", kNow - 60, kNow).set("backfilled", true)));
        QCOMPARE(model.blocksOn(QStringLiteral("cn01")).first().kind, Kind::Past);
        QVERIFY(model.blocksOn(QStringLiteral("cn01")).first().backfilled);
    }

    void runningBlockNeverEndsBeforeNow()
    {
        TimelineModel model;
        model.setNow(kNow);
        model.updateJob(decoded(runningJob(3, {"cn01"}, kNow - 7200).set("time_limit", 60)));
        QCOMPARE(model.blocksOn(QStringLiteral("cn01")).first().end, kNow);
    }

    void planEventPlacesPendingJobsWherePlanned()
    {
        TimelineModel model;
        model.setNow(kNow);
        model.reset(decodedAll({pendingJob(4).set("time_limit", 1800),
                        pendingJob(5).set("time_limit", 600)}),
            {node("cn01"), node("cn02"), node("cn03")});
        QSignalSpy changed(&model, &TimelineModel::changed);
        model.applyPlan(Json::array()
                            .push(Json::object()
                                      .set("job_id", 4)
                                      .set("planned_start", kNow + 900)
                                      .set("nodes", Json::array().push("cn02")))
                            .push(Json::object()
                                      .set("job_id", 5)
                                      .set("planned_start", kNow + 60)
                                      .set("nodes", "cn[01,03]")));
        QCOMPARE(changed.count(), 1);
        const auto cn02 = model.blocksOn(QStringLiteral("cn02"));
        QCOMPARE(cn02.size(), 1);
        QCOMPARE(cn02[0].kind, Kind::Planned);
        QCOMPARE(cn02[0].begin, kNow + 900);
        QCOMPARE(cn02[0].end, kNow + 900 + 1800);
        // A hostlist expression is expanded, as the commands write it.
        QCOMPARE(model.blocksOn(QStringLiteral("cn01")).first().jobId, 5);
        QCOMPARE(model.blocksOn(QStringLiteral("cn03")).first().jobId, 5);
    }

    void plannedStartWithoutNodesIsListedApartNotGuessed()
    {
        TimelineModel model;
        model.setNow(kNow);
        model.reset(
            decodedAll({pendingJob(6).set("planned_start", kNow + 300).set("time_limit", 600)}),
            {node("cn01")});
        QVERIFY(model.blocksOn(QStringLiteral("cn01")).isEmpty());
        const auto unplaced = model.blocksOn(TimelineModel::unplacedRow());
        QCOMPARE(unplaced.size(), 1);
        QCOMPARE(unplaced[0].begin, kNow + 300);
    }

    void startedJobLeavesThePlan()
    {
        TimelineModel model;
        model.setNow(kNow);
        model.reset(decodedAll({pendingJob(7).set("planned_start", kNow + 300)}), {node("cn01")});
        model.applyPlan(Json::array().push(Json::object()
                                               .set("job_id", 7)
                                               .set("planned_start", kNow + 300)
                                               .set("nodes", Json::array().push("cn01"))));
        QCOMPARE(model.blocksOn(QStringLiteral("cn01")).first().kind, Kind::Planned);
        model.updateJob(decoded(runningJob(7, {"cn01"}, kNow).set("time_limit", 600)));
        const auto blocks = model.blocksOn(QStringLiteral("cn01"));
        QCOMPARE(blocks.size(), 1);
        QCOMPARE(blocks[0].kind, Kind::Running);
    }

    void oldestFinishedJobsAreDroppedBeyondTheLimit()
    {
        TimelineModel model;
        model.setNow(kNow);
        for (int id = 1; id <= TimelineModel::kMaxPastJobs + 10; ++id) {
            model.updateJob(decoded(finishedJob(id, "cn01", kNow - 100, kNow - 50)));
        }
        QCOMPARE(model.jobCount(), TimelineModel::kMaxPastJobs);
        QCOMPARE(model.blocksOn(QStringLiteral("cn01")).first().jobId, 11);
    }

    void jobsSharingANodeAtOnceGetTheirOwnLanes()
    {
        using Block = TimelineModel::Block;
        const auto block = [](qint64 id, qint64 begin, qint64 end) {
            Block b;
            b.jobId = id;
            b.begin = begin;
            b.end = end;
            return b;
        };
        const QList<Block> blocks{block(1, 0, 100), block(2, 10, 50), block(3, 50, 80),
            block(4, 60, 70), block(5, 100, 120)};
        int lanes = 0;
        // 1 runs throughout; 2 beside it; 3 takes 2's lane when 2 ends; 4 needs a third; 5
        // starts when 1 ends and takes the first lane again.
        QCOMPARE(TimelineModel::assignLanes(blocks, &lanes), QList<int>({0, 1, 1, 2, 0}));
        QCOMPARE(lanes, 3);
        QCOMPARE(TimelineModel::assignLanes({}, &lanes), QList<int>());
        QCOMPARE(lanes, 1);
    }

    void laneCountOfARowIsAssignLanesCountUpToTheCap()
    {
        TimelineModel model;
        model.setNow(kNow);
        // On cn01: 1 finished, then 2 and 3 running side by side with 4 planned after 2's
        // limit (3 lanes where 2 and 3 overlap); cn02 has one job, cn03 none.
        model.reset(decodedAll({finishedJob(1, "cn01", kNow - 3600, kNow - 1800),
                        runningJob(2, {"cn01"}, kNow - 600).set("time_limit", 1200),
                        runningJob(3, {"cn01", "cn02"}, kNow - 300).set("time_limit", 3600),
                        runningJob(5, {"cn01"}, kNow - 100).set("time_limit", 600),
                        pendingJob(4).set("time_limit", 600)}),
            {node("cn01"), node("cn02"), node("cn03")});
        model.applyPlan(Json::array().push(Json::object()
                                               .set("job_id", 4)
                                               .set("planned_start", kNow + 600)
                                               .set("nodes", Json::array().push("cn01"))));
        for (const char *name : {"cn01", "cn02", "cn03"}) {
            int lanes = 0;
            TimelineModel::assignLanes(model.blocksOn(QString::fromLatin1(name)), &lanes);
            QCOMPARE(model.laneCountOn(QString::fromLatin1(name), 10), lanes);
        }
        QCOMPARE(model.laneCountOn(QStringLiteral("cn01"), 10), 3);
        QCOMPARE(model.laneCountOn(QStringLiteral("cn01"), 2), 2);
        QCOMPARE(model.laneCountOn(QStringLiteral("cn02"), 10), 1);
        QCOMPARE(model.laneCountOn(QStringLiteral("cn03"), 10), 1);
        QVERIFY(model.hasBlocksOn(QStringLiteral("cn02")));
        QVERIFY(!model.hasBlocksOn(QStringLiteral("cn03")));
        QVERIFY(!model.hasBlocksOn(TimelineModel::unplacedRow()));
        // Time moves the lanes: at now + 700, job 2 is past its limit... and still running,
        // so its block reaches now and overlaps the planned job 4 (whose start follows now).
        model.setNow(kNow + 700);
        int lanes = 0;
        TimelineModel::assignLanes(model.blocksOn(QStringLiteral("cn01")), &lanes);
        QCOMPARE(model.laneCountOn(QStringLiteral("cn01"), 10), lanes);
    }

    void jobCancelledWhilePendingIsNotDrawn()
    {
        TimelineModel model;
        model.updateJob(decoded(pendingJob(8).set("state", "CANCELLED").set("end_time", kNow)));
        QVERIFY(model.blocksOn(QStringLiteral("cn01")).isEmpty());
        QVERIFY(model.blocksOn(TimelineModel::unplacedRow()).isEmpty());
    }

    void aSnapshotWithoutARunningJobLeavesNoGhost()
    {
        // A reset cluster's first snapshot: the jobs of the previous class are gone.
        TimelineModel model;
        model.setNow(kNow);
        model.reset(decodedAll({runningJob(20, {"cn01"}, kNow - 60).set("time_limit", 600),
                        pendingJob(21).set("planned_start", kNow + 300)}),
            {node("cn01")});
        QCOMPARE(model.blocksOn(QStringLiteral("cn01")).size(), 1);
        model.reset({}, {node("cn01")});
        QVERIFY(model.blocksOn(QStringLiteral("cn01")).isEmpty());
        QVERIFY(model.blocksOn(TimelineModel::unplacedRow()).isEmpty());
        // A finished job stays on a reconnection; clearJobs() (the reset) takes it too.
        model.updateJob(decoded(finishedJob(22, "cn01", kNow - 600, kNow - 300)));
        model.reset({}, {node("cn01")});
        QCOMPARE(model.blocksOn(QStringLiteral("cn01")).size(), 1);
        model.clearJobs();
        QVERIFY(model.blocksOn(QStringLiteral("cn01")).isEmpty());
        QCOMPARE(model.nodeNames(), QStringList{QStringLiteral("cn01")});
    }
};

QTEST_GUILESS_MAIN(TimelineModelTest)
#include "timeline_model_test.moc"
