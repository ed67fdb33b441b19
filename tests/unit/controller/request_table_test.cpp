// The request table: every op has a handler, an op outside it gets the controller's error, and
// a state-changing request is followed by a scheduling pass at once through the real Server
// (its socket and event loop; this test runs no tick).
#include "mc/ctl/server.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"
#include "mc/proto/socket.h"
// After the event loop: the fixture's Qt headers make `signals`, a parameter name there, a macro.
#include "controller_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <set>

using namespace mc;
using proto::Json;
using namespace mc::test;

class RequestTableTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void everyOpOfTheTableHasAHandlerThatAnswersIt();
    void unknownOpGetsTheControllersError();
    void stateChangingRequestsAreScheduledWithoutTheTick();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<acct::JobStore> m_store;
    RecordingGateway m_gateway;
    std::unique_ptr<ctl::Controller> m_ctl;
};

void RequestTableTest::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    std::string error;
    m_ctl = openController(*m_dir, m_store, m_gateway, kTwoNodeConf, kTwoUsers, error);
    QVERIFY2(error.empty(), error.c_str());
}

void RequestTableTest::cleanup()
{
    m_ctl.reset();
    m_store.reset();
}

void RequestTableTest::everyOpOfTheTableHasAHandlerThatAnswersIt()
{
    std::set<std::string_view> seen;
    QVERIFY(ctl::Controller::requests().size() >= 21);
    for (const auto &entry : ctl::Controller::requests()) {
        QVERIFY2(seen.insert(entry.op).second, std::string(entry.op).c_str()); // listed once
        QVERIFY(entry.handle != nullptr);
        QVERIFY(entry.changes != nullptr);
        QCOMPARE(ctl::Controller::findRequest(entry.op), &entry);
        // A bare request reaches its handler: whatever it answers, it is not "Unknown".
        Json reply = m_ctl->handleRequest(request(std::string(entry.op).c_str()), 100);
        QVERIFY2(reply.isObject(), std::string(entry.op).c_str());
        QVERIFY2(reply["error"].toString().find("Unknown request") == std::string::npos,
            std::string(entry.op).c_str());
    }
    // The requests that change the queue or the nodes, and the ones that only read.
    for (const char *op : {"submit", "cancel", "hold", "release", "requeue", "update",
             "node_update", "alloc_release"}) {
        QVERIFY2(ctl::Controller::findRequest(op)->changes(request(op)), op);
    }
    for (const char *op : {"ping", "jobs", "acct", "cluster", "priorities", "shares", "config",
             "steps", "step_usage", "step_signal"}) {
        QVERIFY2(!ctl::Controller::findRequest(op)->changes(request(op)), op);
    }
    const auto *clock = ctl::Controller::findRequest("clock");
    QVERIFY(!clock->changes(request("clock")));
    QVERIFY(clock->changes(request("clock", fields({{"advance", 60}}))));
    // The Server's own requests are not the controller's.
    QVERIFY(!ctl::Controller::findRequest("subscribe"));
    QVERIFY(!ctl::Controller::findRequest("node_register"));
}

void RequestTableTest::unknownOpGetsTheControllersError()
{
    Json reply = m_ctl->handleRequest(request("frobnicate"), 100);
    QCOMPARE(reply["ok"].toBool(true), false);
    QCOMPARE(reply["error"].toString(), std::string("Unknown request: frobnicate"));
    reply = m_ctl->handleRequest(Json::object(), 100);
    QCOMPARE(reply["error"].toString(), std::string("Unknown request: "));
}

void RequestTableTest::stateChangingRequestsAreScheduledWithoutTheTick()
{
    proto::EventLoop loop;
    ctl::Server server(loop, *m_ctl);
    std::string error;
    const std::string path = m_dir->path().toStdString() + "/ctld.sock";
    QVERIFY2(server.listen(path, error), error.c_str());
    int fd = proto::connectUnix(path, error);
    QVERIFY2(fd >= 0, error.c_str());
    proto::makeNonBlocking(fd);
    proto::Connection client(loop, fd);

    // Each request is followed by a ping: its reply comes after the loop round that handled
    // the request, so a pass the request asked for has run by then.
    const std::vector<Json> script = {request("ping"), submitRequest("alice", 1), request("ping"),
        request("jobs"), request("ping"), request("clock"), request("ping"),
        request("clock", fields({{"advance", 0}})), request("ping"), request("frobnicate"),
        request("ping"), request("hold", fields({{"job_ids", ids({1})}})), request("ping")};
    std::vector<Json> replies;
    std::vector<std::size_t> passes; // the controller's passes when each reply arrived
    client.onMessage = [&](const Json &reply) {
        replies.push_back(reply);
        passes.push_back(m_ctl->passes());
        if (replies.size() < script.size()) {
            client.send(script[replies.size()]);
        } else {
            loop.quit();
        }
    };
    client.onClosed = [&] {
        loop.quit();
    };
    // Not a timed assertion: only a way out if the server never answers.
    loop.addTimer(std::chrono::seconds(60), [&] { loop.quit(); });
    client.send(script[0]);
    loop.run();

    QCOMPARE(replies.size(), script.size());
    const std::size_t before = passes[0];
    QCOMPARE(replies[1]["ok"].toBool(), true); // submit
    QCOMPARE(passes[2], before + 1); // a pass at once, without the tick
    QCOMPARE(passes[4], before + 1); // jobs: read only
    QCOMPARE(passes[6], before + 1); // clock asked, not changed
    QCOMPARE(passes[8], before + 2); // clock moved
    QCOMPARE(replies[9]["error"].toString(), std::string("Unknown request: frobnicate"));
    QVERIFY(replies[9]["now"].isNumber()); // every reply carries the cluster clock
    QCOMPARE(passes[10], before + 2);
    QCOMPARE(passes[12], before + 3); // hold
}

QTEST_APPLESS_MAIN(RequestTableTest)
#include "request_table_test.moc"
