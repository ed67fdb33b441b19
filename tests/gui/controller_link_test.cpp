#include "fake_controller.h"
#include "mc/gui/controller_link.h"
#include "test_jobs.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using mc::gui::ControllerLink;
using mc::gui::test::FakeController;
using mc::gui::test::kNow;
using mc::gui::test::pendingJob;
using mc::gui::test::runningJob;
using mc::proto::Json;

namespace {

constexpr int kTimeoutMs = 5000;

Json snapshotReply()
{
    return Json::object()
        .set("ok", true)
        .set("jobs", Json::array().push(pendingJob(1)).push(runningJob(2, {"cn01"})))
        .set("nodes", Json::array().push(Json::object().set("name", "cn01")))
        .set("now", kNow);
}

Json jobEvent(const Json &job)
{
    return Json::object().set("event", "job").set("job", job);
}

} // namespace

class ControllerLinkTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeController> m_controller;
    std::unique_ptr<ControllerLink> m_link;

    QString socketPath() const { return m_dir->filePath(QStringLiteral("ctld.sock")); }

    // Accepts the link's connection, checks that it subscribes, and answers `reply`.
    [[nodiscard]] bool acceptAndAnswer(const Json &reply)
    {
        if (!m_controller->accept()) {
            qWarning("the link did not connect");
            return false;
        }
        const auto request = m_controller->readLine();
        const auto message = request ? Json::parse(*request) : std::nullopt;
        if (!message || (*message)["op"].toString() != "subscribe") {
            qWarning("expected a subscribe request, got: %s", request ? request->c_str() : "none");
            return false;
        }
        return m_controller->send(reply);
    }

    // Brings the link to the connected state with snapshotReply().
    [[nodiscard]] bool subscribe()
    {
        if (!m_controller->listen()) {
            return false;
        }
        QSignalSpy connected(m_link.get(), &ControllerLink::connectedChanged);
        m_link->start();
        return acceptAndAnswer(snapshotReply()) && connected.wait(kTimeoutMs)
            && m_link->isConnected();
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_controller = std::make_unique<FakeController>(socketPath().toStdString());
        m_link = std::make_unique<ControllerLink>(socketPath());
    }

    void cleanup()
    {
        m_link.reset();
        m_controller.reset();
        m_dir.reset();
    }

    void subscribesAndEmitsTheSnapshotAfterConnecting()
    {
        QVERIFY(m_controller->listen());
        QSignalSpy connected(m_link.get(), &ControllerLink::connectedChanged);
        QSignalSpy snapshots(m_link.get(), &ControllerLink::snapshotReceived);
        m_link->start();
        QVERIFY(acceptAndAnswer(snapshotReply()));

        QVERIFY(snapshots.wait(kTimeoutMs));
        QCOMPARE(connected.count(), 1);
        QCOMPARE(connected.at(0).at(0).toBool(), true);
        const auto jobs = snapshots.at(0).at(0).value<QList<mc::record::JobObject>>();
        const auto nodes = snapshots.at(0).at(1).value<QList<Json>>();
        QCOMPARE(jobs.size(), 2);
        QCOMPARE(jobs.at(1).jobId, 2);
        QCOMPARE(nodes.size(), 1);
        QCOMPARE(snapshots.at(0).at(2).toLongLong(), kNow);
        QCOMPARE(m_link->statusText(), QStringLiteral("Connected to the cluster"));
    }

    void eventsAfterTheSnapshotBecomeJobAndNodeSignals()
    {
        QVERIFY(subscribe());
        QSignalSpy jobs(m_link.get(), &ControllerLink::jobChanged);
        QSignalSpy nodes(m_link.get(), &ControllerLink::nodeChanged);

        QVERIFY(m_controller->send(jobEvent(runningJob(1, {"cn02"}))));
        QVERIFY(m_controller->send(
            Json::object().set("event", "node").set("node", Json::object().set("name", "cn02"))));

        QVERIFY(nodes.wait(kTimeoutMs));
        QCOMPARE(jobs.count(), 1);
        QCOMPARE(jobs.at(0).at(0).value<mc::record::JobObject>().state, std::string("RUNNING"));
        QCOMPARE(nodes.at(0).at(0).value<Json>()["name"].toString(), std::string("cn02"));
    }

    void partialLineWaitsForItsNewline()
    {
        QVERIFY(subscribe());
        QSignalSpy jobs(m_link.get(), &ControllerLink::jobChanged);
        const std::string line = jobEvent(pendingJob(7)).dump() + '\n';
        const auto half = line.size() / 2;

        QVERIFY(m_controller->sendRaw(line.substr(0, half)));
        QVERIFY(!jobs.wait(100));
        QVERIFY(m_controller->sendRaw(line.substr(half)));

        QVERIFY(jobs.wait(kTimeoutMs));
        QCOMPARE(jobs.count(), 1);
        QCOMPARE(jobs.at(0).at(0).value<mc::record::JobObject>().jobId, 7);
    }

    void missingControllerIsReportedAndRetriedUntilItAppears()
    {
        QSignalSpy connected(m_link.get(), &ControllerLink::connectedChanged);
        m_link->start();
        QVERIFY(!m_link->isConnected());
        QVERIFY(m_link->statusText().startsWith(QStringLiteral("Not connected")));
        QVERIFY(m_link->statusText().contains(socketPath()));
        QCOMPARE(m_link->retryInterval(), ControllerLink::kDefaultRetryInterval);

        QVERIFY(m_controller->listen());
        QVERIFY(acceptAndAnswer(snapshotReply()));
        QVERIFY(connected.wait(kTimeoutMs));
        QVERIFY(m_link->isConnected());
    }

    void controllerGoingAwayIsReportedAndTheLinkReconnects()
    {
        QVERIFY(subscribe());
        QSignalSpy connected(m_link.get(), &ControllerLink::connectedChanged);

        m_controller->dropClient();
        QVERIFY(connected.wait(kTimeoutMs));
        QCOMPARE(connected.at(0).at(0).toBool(), false);
        QVERIFY(m_link->statusText().startsWith(QStringLiteral("Lost the connection")));

        QVERIFY(acceptAndAnswer(snapshotReply()));
        QVERIFY(connected.wait(kTimeoutMs));
        QCOMPARE(connected.at(1).at(0).toBool(), true);
    }

    void refusedSubscriptionIsReportedWithTheControllersError()
    {
        QVERIFY(m_controller->listen());
        QSignalSpy status(m_link.get(), &ControllerLink::statusChanged);
        QSignalSpy connected(m_link.get(), &ControllerLink::connectedChanged);
        m_link->start();
        QVERIFY(acceptAndAnswer(
            Json::object().set("ok", false).set("error", "Access/permission denied")));

        QTRY_VERIFY_WITH_TIMEOUT(
            m_link->statusText().contains(u"Access/permission denied"), kTimeoutMs);
        QCOMPARE(connected.count(), 0);
        // And it tries again.
        QVERIFY(acceptAndAnswer(snapshotReply()));
        QVERIFY(connected.wait(kTimeoutMs));
    }

    void malformedMessageDropsTheConnection()
    {
        QVERIFY(subscribe());
        QSignalSpy connected(m_link.get(), &ControllerLink::connectedChanged);
        QVERIFY(m_controller->sendRaw("this is not json\n"));
        QVERIFY(connected.wait(kTimeoutMs));
        QCOMPARE(connected.at(0).at(0).toBool(), false);
        QVERIFY(m_link->statusText().contains(u"malformed"));
    }

    void asksTheClocksRateAfterTheSnapshotAndFollowsClockEvents()
    {
        QVERIFY(subscribe());
        QSignalSpy clock(m_link.get(), &ControllerLink::clockChanged);
        const auto request = m_controller->readLine();
        QVERIFY(request);
        QCOMPARE((*Json::parse(*request))["op"].toString(), std::string("clock"));
        QVERIFY(m_controller->send(
            Json::object().set("ok", true).set("now", kNow).set("speed", 60.0).set("offset", 0)));
        QVERIFY(clock.wait(kTimeoutMs));
        QCOMPARE(clock.at(0).at(0).toLongLong(), kNow);
        QCOMPARE(clock.at(0).at(1).toDouble(), 60.0);
        // An instructor fast-forwards a day.
        QVERIFY(m_controller->send(
            Json::object().set("event", "clock").set("now", kNow + 86400).set("speed", 60.0)));
        QVERIFY(clock.wait(kTimeoutMs));
        QCOMPARE(clock.at(1).at(0).toLongLong(), kNow + 86400);
    }

    void stopClosesTheConnection()
    {
        QVERIFY(subscribe());
        QSignalSpy connected(m_link.get(), &ControllerLink::connectedChanged);
        m_link->stop();
        QCOMPARE(connected.count(), 1);
        QVERIFY(!m_link->isConnected());
        // After the snapshot the link asked for the clock's rate; then the stream ends.
        const auto clock = m_controller->readLine();
        QVERIFY(clock);
        QCOMPARE((*Json::parse(*clock))["op"].toString(), std::string("clock"));
        QVERIFY(!m_controller->readLine());
    }

    void burstOfEventsIsDeliveredInOrderAndOnlyThenTheHangupIsReported()
    {
        QVERIFY(subscribe());
        QSignalSpy jobs(m_link.get(), &ControllerLink::jobChanged);
        QSignalSpy connected(m_link.get(), &ControllerLink::connectedChanged);
        std::string burst;
        constexpr int kEvents = 3000;
        for (int id = 1; id <= kEvents; ++id) {
            burst += jobEvent(pendingJob(id)).dump() + "\n";
        }
        QVERIFY(m_controller->sendRaw(burst));
        m_controller->dropClient();
        QTRY_COMPARE_WITH_TIMEOUT(connected.count(), 1, kTimeoutMs);
        // Every event sent before the hangup arrived, in order, before the link went down.
        QCOMPARE(jobs.count(), kEvents);
        for (int i = 0; i < kEvents; ++i) {
            QCOMPARE(jobs.at(i).at(0).value<mc::record::JobObject>().jobId, std::int64_t{i + 1});
        }
        QCOMPARE(connected.first().at(0).toBool(), false);
    }
};

QTEST_GUILESS_MAIN(ControllerLinkTest)
#include "controller_link_test.moc"
