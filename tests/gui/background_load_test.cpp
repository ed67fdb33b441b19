// Background users: the SWF parser, and the generator's submissions on a real socket.

#include "fake_controller.h"
#include "mc/gui/background_load.h"
#include "mc/gui/request_client.h"
#include "mc/sim/swf.h"

#include <QTemporaryDir>
#include <QTest>

#include <random>

using mc::gui::BackgroundLoad;
using mc::gui::parseSwf;
using mc::gui::RequestClient;
using mc::gui::test::FakeController;
using mc::proto::Json;

class BackgroundLoadTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void swfLinesBecomeJobsInSubmitOrder()
    {
        const QString text = QStringLiteral("; Version: 2.2\n"
                                            ";  a comment\n"
                                            "2 120 5 600 4 -1 -1 4 900 -1 1 7 1 -1 1 -1 -1 -1\n"
                                            "1  60 0 300 1 -1 -1 -1 -1 -1 1 3 1 -1 1 -1 -1 -1\n"
                                            "3 10\n"
                                            "4 200 0 -1 1 -1 -1 1 60 -1 0 3 1 -1 1 -1 -1 -1\n");
        int skipped = 0;
        const auto jobs = parseSwf(text, &skipped);
        QCOMPARE(skipped, 2); // too few fields; a negative run time
        QCOMPARE(jobs.size(), std::size_t{2});
        QCOMPARE(jobs[0].submit, 60);
        QCOMPARE(jobs[0].runTime, 300);
        QCOMPARE(jobs[0].processors, 1); // requested unknown: the allocated count
        QCOMPARE(jobs[0].requestedTime, -1);
        QCOMPARE(jobs[0].userId, 3);
        QCOMPARE(jobs[1].processors, 4);
        QCOMPARE(jobs[1].requestedTime, 900);
    }

    // The app and the simulator once read SWF apart: the app split on blanks only (a
    // tab-separated archive gave no job), took a line of 12 fields, and read "300.00" as 0.
    // Both now read with the simulator's reader and agree on every line.
    void swfIsReadAsTheSimulatorReadsIt()
    {
        const QString text
            = QStringLiteral("1\t60\t0\t300\t2\t-1\t-1\t2\t600\t2048\t1\t3\t1\t-1\t1\t-1\t-1\t-1\n"
                             "2 90 0 300.00 1 -1 -1 -1 -1 -1 1 4 1 -1 1 -1 -1 -1\n"
                             "3 100 0 300 1 -1 -1 1 60 -1 1 5\n");
        int skipped = 0;
        const auto jobs = parseSwf(text, &skipped);
        const auto trace = mc::sim::parseSwf(text.toStdString());
        QCOMPARE(skipped, 1); // the 12-field line
        QCOMPARE(trace.problems.size(), std::size_t{1});
        QCOMPARE(jobs.size(), trace.jobs.size());
        QCOMPARE(jobs.size(), std::size_t{2});
        QCOMPARE(jobs[0].submit, 60);
        QCOMPARE(jobs[0].processors, 2);
        QCOMPARE(jobs[0].requestedTime, 600);
        QCOMPARE(jobs[0].memoryKbPerProcessor, 2048);
        QCOMPARE(jobs[1].runTime, 300);
        QCOMPARE(jobs[1].userId, 4);
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            QCOMPARE(jobs[i].runTime, static_cast<qint64>(trace.jobs[i].runTime));
            QCOMPARE(jobs[i].userId, trace.jobs[i].user);
        }
    }

    void submitRequestIsAPlainSleepJobAsTheClassmate()
    {
        const Json request = BackgroundLoad::submitRequest(
            QStringLiteral("bob"), QStringLiteral("train"), 2, 300, 600);
        QCOMPARE(request["op"].toString(), std::string("submit"));
        const Json &job = request["job"];
        QCOMPARE(job["user"].toString(), std::string("bob"));
        QCOMPARE(job["cpus_per_task"].toInt(), 2);
        QCOMPARE(job["time_limit"].toInt(), 600);
        QCOMPARE(job["std_out"].toString(), std::string("/dev/null"));
        QVERIFY(job["script"].toString().find("sleep 300\n") != std::string::npos);
    }

    void generatorSubmitsAsClassmatesAndCountsRefusals()
    {
        QTemporaryDir dir;
        const QString socket = dir.filePath(QStringLiteral("ctld.sock"));
        FakeController controller(socket.toStdString());
        QVERIFY(controller.listen());
        RequestClient client(socket);
        BackgroundLoad load(&client);
        load.startGenerator({QStringLiteral("bob"), QStringLiteral("carol")}, 600, 4, 1);
        QVERIFY(load.isRunning());
        const auto first
            = controller.answerRequest(Json::object().set("ok", true).set("job_id", 1));
        QVERIFY(first);
        const std::string user = (*first)["job"]["user"].toString();
        QVERIFY(user == "bob" || user == "carol");
        QVERIFY((*first)["job"]["cpus_per_task"].toInt() <= 4);
        QTRY_COMPARE(load.submitted(), 1);
        const auto second = controller.answerRequest(
            Json::object().set("ok", false).set("error", "Invalid account"));
        QVERIFY(second);
        QTRY_COMPARE(load.refused(), 1);
        QCOMPARE(load.lastError(), QStringLiteral("Invalid account"));
        load.stop();
        QVERIFY(!load.isRunning());
    }

    void generatedJobsFitTheirPartitionsLimitsGpuNodesIncluded()
    {
        // The default cluster's shape: a 4-CPU partition, a 16-CPU one, a GPU one with a
        // one-hour MaxTime; a partition that is down gets nothing.
        const auto node = [](const char *name, int cpus, int memory, int gpus) {
            return Json::object()
                .set("name", name)
                .set("cpus", cpus)
                .set("memory", memory)
                .set("gpus", gpus);
        };
        const auto partition = [](const char *name, std::vector<std::string> nodes,
                                   std::int64_t maxTime, const char *state = "up") {
            return Json::object()
                .set("name", name)
                .set("nodes", mc::proto::stringList(nodes))
                .set("max_time", maxTime)
                .set("state", state);
        };
        const Json reply = Json::object()
                               .set("ok", true)
                               .set("nodes",
                                   Json::array()
                                       .push(node("cn01", 4, 8000, 0))
                                       .push(node("big01", 16, 64000, 0))
                                       .push(node("gpu01", 8, 32000, 2)))
                               .set("partitions",
                                   Json::array()
                                       .push(partition("small", {"cn01"}, -1))
                                       .push(partition("big", {"big01"}, 86400))
                                       .push(partition("gpu", {"gpu01"}, 3600))
                                       .push(partition("maint", {"cn01"}, -1, "down")));
        const auto limits = mc::gui::partitionLimits(reply);
        QCOMPARE(limits.size(), std::size_t{3});
        QCOMPARE(limits[0].name, QStringLiteral("small"));
        QCOMPARE(limits[0].cpus, 4);
        QCOMPARE(limits[2].gpus, 2);
        QCOMPARE(limits[2].maxTime, 3600);
        std::mt19937 random(7);
        for (const auto &where : limits) {
            bool gpuAsked = false;
            for (int i = 0; i < 500; ++i) {
                const auto shape = BackgroundLoad::drawShape(where, random);
                QCOMPARE(shape.partition, where.name);
                QVERIFY(shape.cpus >= 1 && shape.cpus <= where.cpus);
                QVERIFY(shape.memory > 0 && shape.memory <= where.memory);
                QVERIFY(shape.gpus <= where.gpus);
                QVERIFY(where.maxTime < 0 || shape.limit <= where.maxTime);
                QVERIFY(shape.sleepSeconds <= shape.limit);
                gpuAsked = gpuAsked || shape.gpus > 0;
            }
            QCOMPARE(gpuAsked, where.gpus > 0); // GPU nodes get GPU jobs, the others none
        }
        BackgroundLoad::Shape gpuJob = BackgroundLoad::drawShape(limits[2], random);
        const Json request
            = BackgroundLoad::submitRequest(QStringLiteral("bob"), QStringLiteral("train"), gpuJob);
        QCOMPARE(request["job"]["partition"].toString(), std::string("gpu"));
        QCOMPARE(request["job"]["gpus_per_node"].toInt(), gpuJob.gpus);
        QCOMPARE(request["job"]["mem_per_node"].toInt(), gpuJob.memory);
    }
};

QTEST_GUILESS_MAIN(BackgroundLoadTest)
#include "background_load_test.moc"
