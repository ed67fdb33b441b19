// Instructor scenarios: planning is pure and seeded (the same text gives the same actions), the
// shipped scenarios parse, and the fairshare contest gives bob usage before carol arrives.
#include "mc/launch/scenario.h"

#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>

class ScenarioTest : public QObject {
    Q_OBJECT

private slots:
    void scenariosReplayTheSameWayFromTheirSeed()
    {
        const char *text
            = "title: T\nseed: 5\n"
              "jobs 10 users=bob,carol cpus=1-4 mem=100-900 time=10-20 run=30-900 every=1-5\n"
              "at 0 as bob sbatch --wrap=\"sleep 1\"\nat 7 node cn02 down \"psu\"\n";
        auto a = mc::launch::parseScenario(text, "x");
        auto b = mc::launch::parseScenario(text, "x");
        QVERIFY(a.problems.empty());
        QCOMPARE(a.scenario.actions.size(), std::size_t{12});
        for (std::size_t i = 0; i < a.scenario.actions.size(); ++i) {
            QCOMPARE(a.scenario.actions[i].sbatchArgs, b.scenario.actions[i].sbatchArgs);
            QCOMPARE(a.scenario.actions[i].user, b.scenario.actions[i].user);
            QCOMPARE(a.scenario.actions[i].at, b.scenario.actions[i].at);
        }
        // Sorted by time; a run never outlasts its own time limit.
        for (std::size_t i = 1; i < a.scenario.actions.size(); ++i) {
            QVERIFY(a.scenario.actions[i - 1].at <= a.scenario.actions[i].at);
        }
        QCOMPARE(a.scenario.actions.front().sbatchArgs.rfind("--job-name=bg-1 --cpus-per-task=", 0),
            std::size_t{0});
        auto node = std::find_if(a.scenario.actions.begin(), a.scenario.actions.end(),
            [](const auto &x) { return !x.isSubmit(); });
        QCOMPARE(node->node, std::string("cn02"));
        QCOMPARE(node->reason, std::string("psu"));
        std::string other = text;
        other.replace(other.find("seed: 5"), 7, "seed: 6");
        auto c = mc::launch::parseScenario(other, "x");
        bool differs = false;
        for (std::size_t i = 0; i < c.scenario.actions.size(); ++i) {
            differs
                = differs || c.scenario.actions[i].sbatchArgs != a.scenario.actions[i].sbatchArgs;
        }
        QVERIFY(differs);
        QVERIFY(!mc::launch::parseScenario("at 3 node\n", "y").problems.empty());
    }

    void shippedScenariosParse()
    {
        QDir dir(QStringLiteral(MC_SOURCE_DIR "/emulator/presets/scenarios"));
        const auto names = dir.entryList({QStringLiteral("*.scenario")});
        QVERIFY(names.size() >= 3);
        for (const auto &n : names) {
            QFile f(dir.filePath(n));
            QVERIFY(f.open(QIODevice::ReadOnly));
            auto parsed = mc::launch::parseScenario(f.readAll().toStdString(), n.toStdString());
            QVERIFY2(parsed.problems.empty(), qPrintable(n));
            QVERIFY(!parsed.scenario.title.empty());
            QVERIFY(!parsed.scenario.actions.empty());
        }
    }

    void fairshareContestGivesBobUsageBeforeCarolArrives()
    {
        QFile f(
            QStringLiteral(MC_SOURCE_DIR "/emulator/presets/scenarios/fairshare-contest.scenario"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string text = f.readAll().toStdString();
        auto a = mc::launch::parseScenario(text, "fairshare-contest");
        auto b = mc::launch::parseScenario(text, "fairshare-contest");
        QVERIFY(a.problems.empty());
        QCOMPARE(
            a.scenario.requires_, std::vector<std::string>{"PriorityType=priority/multifactor"});
        QCOMPARE(a.scenario.actions.size(), std::size_t{16});
        for (std::size_t i = 0; i < a.scenario.actions.size(); ++i) {
            const auto &x = a.scenario.actions[i];
            QCOMPARE(x.sbatchArgs, b.scenario.actions[i].sbatchArgs); // seeded: the same plan
            QCOMPARE(x.at, b.scenario.actions[i].at);
            if (i < 12) { // Bob at once: four 20-second warm-ups, then eight jobs that wait
                QCOMPARE(x.user, std::string("bob"));
                QCOMPARE(x.at, 0.0);
                QVERIFY(x.sbatchArgs.find("--cpus-per-task=4") != std::string::npos);
            } else { // Carol, once Bob's warm-ups have ended and count as his usage
                QCOMPARE(x.user, std::string("carol"));
                QVERIFY(x.at >= 30);
            }
        }
        QVERIFY(a.scenario.actions[3].sbatchArgs.find("--job-name=bob-warmup-4") == 0);
        QVERIFY(a.scenario.actions[3].sbatchArgs.find("sleep 20") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(ScenarioTest)
#include "scenario_test.moc"
