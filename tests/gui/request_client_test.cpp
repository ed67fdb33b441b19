// One-off requests on their own connection: replies, refusals in words, no controller.

#include "fake_controller.h"
#include "mc/gui/request_client.h"

#include <QTemporaryDir>
#include <QTest>

#include <optional>

using mc::gui::RequestClient;
using mc::gui::test::FakeController;
using mc::proto::Json;

class RequestClientTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void replyReachesTheCallback()
    {
        QTemporaryDir dir;
        const QString socket = dir.filePath(QStringLiteral("ctld.sock"));
        FakeController controller(socket.toStdString());
        QVERIFY(controller.listen());
        RequestClient client(socket);
        std::optional<Json> reply;
        client.send(Json::object().set("op", "ping"), &client,
            [&reply](const Json &answer) { reply = answer; });
        QCOMPARE(client.pendingCount(), 1);
        const auto request
            = controller.answerRequest(Json::object().set("ok", true).set("cluster_name", "mini"));
        QVERIFY(request);
        QCOMPARE((*request)["op"].toString(), std::string("ping"));
        QTRY_VERIFY(reply.has_value());
        QCOMPARE((*reply)["cluster_name"].toString(), std::string("mini"));
        QCOMPARE(client.pendingCount(), 0);
    }

    void unknownOpIsSaidInPlainWords()
    {
        const Json request = Json::object().set("op", "clock");
        const Json reply = Json::object().set("ok", false).set("error", "Unknown request: clock");
        QCOMPARE(RequestClient::describeFailure(request, reply),
            QStringLiteral("The cluster controller does not support “clock” yet."));
        QCOMPARE(RequestClient::describeFailure(
                     request, Json::object().set("ok", false).set("error", "Invalid user id")),
            QStringLiteral("Invalid user id"));
    }

    void missingControllerGivesAFailureReplyLater()
    {
        QTemporaryDir dir;
        RequestClient client(dir.filePath(QStringLiteral("none.sock")));
        std::optional<Json> reply;
        client.send(Json::object().set("op", "acct"), &client,
            [&reply](const Json &answer) { reply = answer; });
        QVERIFY(!reply); // never inside send()
        QTRY_VERIFY(reply.has_value());
        QVERIFY(!(*reply)["ok"].toBool());
        QVERIFY(QString::fromStdString((*reply)["error"].toString())
                    .startsWith(QStringLiteral("The cluster controller is not running")));
    }

    void callbackIsSkippedWhenItsContextIsGone()
    {
        QTemporaryDir dir;
        RequestClient client(dir.filePath(QStringLiteral("none.sock")));
        bool called = false;
        auto *context = new QObject;
        client.send(
            Json::object().set("op", "acct"), context, [&called](const Json &) { called = true; });
        delete context;
        QTRY_COMPARE(client.pendingCount(), 0);
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(RequestClientTest)
#include "request_client_test.moc"
