#include "mc/proto/client.h"
#include "mc/proto/connection.h"
#include "mc/proto/event_loop.h"
#include "mc/proto/line_buffer.h"
#include "mc/proto/socket.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <memory>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace mc::proto;

class TransportTest : public QObject {
    Q_OBJECT

private slots:
    void lineBufferSplitsMessagesAcrossChunks();
    void clientGetsOneReplyPerRequestThroughTheLoop();
    void connectingToAMissingSocketSaysWhy();
    void socketIsPrivateToItsOwner();
    void silentControllerTimesOutWithSlurmsWords();
    void messageTimeoutComesFromSlurmConf();
};

// A listener that accepts and never answers (a stopped controller's kernel still accepts):
// the call gives up after its timeout, with Slurm's words.
void TransportTest::silentControllerTimesOutWithSlurmsWords()
{
    QTemporaryDir dir;
    std::string path = dir.path().toStdString() + "/s.sock";
    std::string error;
    int listenFd = listenUnix(path, error);
    QVERIFY2(listenFd >= 0, error.c_str());
    Client client;
    QVERIFY2(client.connect(path, error), error.c_str());
    client.setTimeout(300);
    Json ping = Json::object();
    ping.set("op", "ping");
    QElapsedTimer timer;
    timer.start();
    auto reply = client.call(ping, error);
    QVERIFY(!reply);
    QVERIFY(client.timedOut());
    QCOMPARE(error, std::string("Socket timed out on send/recv operation"));
    QVERIFY(timer.elapsed() >= 300);
    QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
    ::close(listenFd);
}

void TransportTest::messageTimeoutComesFromSlurmConf()
{
    QTemporaryDir dir;
    const std::string conf = dir.path().toStdString() + "/slurm.conf";
    QCOMPARE(messageTimeout(conf), 10); // no file: Slurm's default
    {
        std::FILE *f = std::fopen(conf.c_str(), "w");
        std::fputs("ClusterName=t\n# MessageTimeout=99\nMessageTimeout = 3 # seconds\n", f);
        std::fclose(f);
    }
    QCOMPARE(messageTimeout(conf), 3);
}

void TransportTest::lineBufferSplitsMessagesAcrossChunks()
{
    LineBuffer buffer;
    buffer.append("{\"a\":1}\n{\"b\"");
    QCOMPARE(buffer.nextLine().value_or("none"), std::string("{\"a\":1}"));
    QVERIFY(!buffer.nextLine().has_value());
    buffer.append(":2}\n");
    QCOMPARE(buffer.nextLine().value_or("none"), std::string("{\"b\":2}"));
    QCOMPARE(buffer.pending(), 0u);
}

void TransportTest::clientGetsOneReplyPerRequestThroughTheLoop()
{
    QTemporaryDir dir;
    std::string path = dir.path().toStdString() + "/s.sock";
    std::string error;
    int listenFd = listenUnix(path, error);
    QVERIFY2(listenFd >= 0, error.c_str());

    EventLoop loop;
    std::unique_ptr<Connection> conn;
    loop.watch(listenFd, POLLIN, [&](short) {
        int fd = ::accept4(listenFd, nullptr, nullptr, SOCK_CLOEXEC);
        conn = std::make_unique<Connection>(loop, fd);
        conn->onMessage = [&](const Json &m) {
            Json reply = Json::object();
            reply.set("ok", true);
            reply.set("echo", m["n"].toInt() * 2);
            // Replies larger than the client's read chunk (64 KiB) arrive in many pieces.
            reply.set("pad", std::string(static_cast<std::size_t>(m["n"].toInt()) * 100000, 'p'));
            conn->send(reply);
        };
        conn->onClosed = [&] {
            loop.quit();
        };
    });

    std::vector<std::int64_t> answers;
    std::vector<std::size_t> padding;
    std::thread client([&] {
        Client c;
        std::string err;
        if (!c.connect(path, err)) {
            return;
        }
        for (int i = 1; i <= 3; ++i) {
            Json request = Json::object();
            request.set("n", i);
            auto reply = c.call(request, err);
            answers.push_back(reply ? (*reply)["echo"].toInt() : -1);
            padding.push_back(reply ? (*reply)["pad"].toString().size() : 0);
        }
    });
    loop.run();
    client.join();
    ::close(listenFd);
    QCOMPARE(answers, (std::vector<std::int64_t>{2, 4, 6}));
    QCOMPARE(padding, (std::vector<std::size_t>{100000, 200000, 300000}));
}

void TransportTest::connectingToAMissingSocketSaysWhy()
{
    Client c;
    std::string error;
    QVERIFY(!c.connect("/nonexistent/dir/ctld.sock", error));
    QCOMPARE(QString::fromStdString(error), QStringLiteral("No such file or directory"));
}

void TransportTest::socketIsPrivateToItsOwner()
{
    QTemporaryDir dir;
    std::string path = dir.path().toStdString() + "/p.sock";
    std::string error;
    int fd = listenUnix(path, error);
    QVERIFY(fd >= 0);
    QFileInfo info(QString::fromStdString(path));
    QCOMPARE(info.permissions()
            & (QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther
                | QFileDevice::WriteOther),
        QFileDevice::Permissions());
    ::close(fd);
}

QTEST_GUILESS_MAIN(TransportTest)
#include "transport_test.moc"
