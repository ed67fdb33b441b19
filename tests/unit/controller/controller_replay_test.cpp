// The live controller and the simulator apply the core's decisions alike (issue #17): the same
// random workload, replayed through the controller (a manual clock, end reports instead of
// processes, a real job store) and through the simulator, gives every job the same state,
// start, end and nodes, with FIFO and with backfill. Jobs ask 1 to 8 tasks, some two nodes,
// some --exclusive; some run over their limit (TIMEOUT) and some fail. One user: fairshare
// moves every pending job's priority alike, so the orders compare.
#include "controller_fixture.h"
#include "mc/record/job_codec.h"
#include "mc/sched/hostlist.h"
#include "mc/sim/simulation.h"

#include <QTemporaryDir>
#include <QtTest>
#include <queue>

#include <map>
#include <random>

using namespace mc;
using proto::Json;
using namespace mc::test;
using sched::Seconds;

namespace {

struct Submission {
    Seconds at = 0;
    sched::JobSpec spec;
    sim::Behaviour behaviour;
};

std::string conf(bool fifo)
{
    return std::string("ClusterName=test\nDefMemPerCPU=1000\nMinJobAge=0\nSchedulerType=")
        + (fifo ? "sched/builtin" : "sched/backfill")
        + "\nNodeName=cn[01-04] CPUs=4 RealMemory=8000\n"
          "NodeName=big[1-2] CPUs=16 RealMemory=64000\n"
          "PartitionName=all Nodes=ALL Default=YES MaxTime=1-00:00:00\n";
}

std::vector<Submission> randomWorkload(unsigned seed, int jobs)
{
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> gap(0, 120);
    std::uniform_int_distribution<int> tasks(1, 8);
    std::uniform_int_distribution<int> minutes(1, 30);
    std::uniform_int_distribution<int> percent(0, 99);
    std::vector<Submission> list;
    Seconds t = 1000;
    for (int i = 1; i <= jobs; ++i) {
        t += gap(rng);
        Submission s;
        s.at = t;
        s.spec.user = "alice";
        s.spec.name = "j" + std::to_string(i);
        s.spec.ntasks = tasks(rng);
        s.spec.ntasksGiven = true;
        s.spec.nodes = percent(rng) < 15 ? 2 : 1;
        s.spec.exclusive = percent(rng) < 10;
        const int limit = minutes(rng);
        s.spec.timeLimit = limit * 60;
        s.behaviour.runTime = std::uniform_int_distribution<int>(10, limit * 60 + 120)(rng);
        s.behaviour.exitCode = percent(rng) < 10 ? 1 : 0;
        list.push_back(std::move(s));
    }
    return list;
}

struct Outcome {
    std::string state;
    Seconds start = 0;
    Seconds end = 0;
    std::string nodes;
    bool operator==(const Outcome &o) const
    {
        return state == o.state && start == o.start && end == o.end && nodes == o.nodes;
    }
};

std::string describe(const Outcome &o)
{
    return o.state + " " + std::to_string(o.start) + "-" + std::to_string(o.end) + " " + o.nodes;
}

std::map<std::int64_t, Outcome> throughSimulator(
    const std::string &text, const std::vector<Submission> &work)
{
    sim::Simulation simulation(sched::parseSlurmConf(text).config);
    for (const auto &s : work) {
        simulation.submit(s.at, s.spec, s.behaviour);
    }
    simulation.run();
    std::map<std::int64_t, Outcome> out;
    for (const auto &[id, job] : simulation.jobs()) {
        out[id] = {std::string(sched::longName(job.state)), job.startTime, job.endTime,
            sched::compressHostlist(job.nodeList)};
    }
    return out;
}

std::map<std::int64_t, Outcome> throughController(
    const std::string &text, const std::vector<Submission> &work, std::string &error)
{
    QTemporaryDir dir;
    std::unique_ptr<acct::JobStore> store;
    RecordingGateway gateway;
    auto controller = openController(dir, store, gateway, text.c_str(), kTwoUsers, error);
    Json hello = request("node_register", fields({{"running", Json::array()}}));
    for (const auto &node : controller->config().nodes) {
        controller->nodeRegistered(node.name, hello, 0);
    }
    Json wanted = Json::array();
    for (const char *field : {"job_id", "state", "start_time", "end_time", "nodes", "batch_host"}) {
        wanted.push(field);
    }
    auto jobs = [&](Seconds now) {
        return controller->handleRequest(
            request("jobs", fields({{"fields", wanted}})), now)["jobs"];
    };
    using Ending = std::pair<Seconds, std::int64_t>;
    std::priority_queue<Ending, std::vector<Ending>, std::greater<>> endings;
    std::map<std::int64_t, Json> started;
    std::size_t next = 0;
    Seconds t = work.front().at;
    while (true) {
        // As the simulator: at each instant the ends, then the submissions, then one pass.
        controller->enforceTimeLimits(t);
        while (!endings.empty() && endings.top().first == t) {
            const auto id = endings.top().second;
            endings.pop();
            const auto &b = work[static_cast<std::size_t>(id - 1)].behaviour;
            // No pass yet: the Server runs one for the reports that come together.
            controller->nodeReport(
                started[id]["batch_host"].toString(), jobEnded(id, t, b.exitCode), t, false);
        }
        while (next < work.size() && work[next].at == t) {
            Json spec = record::specToJson(work[next].spec);
            const Json reply = controller->handleRequest(submitRequest("alice", 1, spec), t);
            if (!reply["ok"].toBool()) {
                error = "submission refused: " + reply["error"].toString();
                return {};
            }
            ++next;
        }
        controller->schedule(t);
        const Json listed = jobs(t);
        for (const auto &j : listed.items()) {
            const auto id = j["job_id"].toInt();
            if (j["state"].toString() == "RUNNING" && !started.contains(id)) {
                started[id] = j;
                const auto &spec = work[static_cast<std::size_t>(id - 1)];
                const Seconds run = std::min<Seconds>(spec.behaviour.runTime, *spec.spec.timeLimit);
                endings.push({j["start_time"].toInt() + run, id});
            }
        }
        std::optional<Seconds> after;
        if (next < work.size()) {
            after = work[next].at;
        }
        if (!endings.empty()) {
            after = std::min(after.value_or(endings.top().first), endings.top().first);
        }
        if (!after) {
            break;
        }
        t = *after;
    }
    std::map<std::int64_t, Outcome> out;
    const Json listed = jobs(t);
    for (const auto &j : listed.items()) {
        std::string nodes;
        if (j["nodes"].isArray()) {
            nodes = sched::compressHostlist(j["nodes"].toStringList());
        }
        out[j["job_id"].toInt()]
            = {j["state"].toString(), j["start_time"].toInt(), j["end_time"].toInt(), nodes};
    }
    return out;
}

} // namespace

class ControllerReplayTest : public QObject {
    Q_OBJECT

private slots:
    void controllerAndSimulatorAgreeOnEveryJob_data()
    {
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<bool>("fifo");
        for (unsigned seed : {1u, 2u, 3u}) {
            for (bool fifo : {false, true}) {
                const std::string name
                    = "seed" + std::to_string(seed) + (fifo ? "-fifo" : "-backfill");
                QTest::newRow(name.c_str()) << seed << fifo;
            }
        }
    }

    void controllerAndSimulatorAgreeOnEveryJob()
    {
        QFETCH(unsigned, seed);
        QFETCH(bool, fifo);
        const auto work = randomWorkload(seed, 200);
        const std::string text = conf(fifo);
        std::string error;
        const auto live = throughController(text, work, error);
        QVERIFY2(error.empty(), error.c_str());
        const auto simulated = throughSimulator(text, work);
        QCOMPARE(live.size(), work.size());
        QCOMPARE(simulated.size(), work.size());
        int exclusive = 0, timeouts = 0;
        for (const auto &[id, outcome] : simulated) {
            const auto found = live.find(id);
            QVERIFY(found != live.end());
            QVERIFY2(found->second == outcome,
                qPrintable(QString::fromStdString("job " + std::to_string(id) + ": controller "
                    + describe(found->second) + ", simulator " + describe(outcome))));
            exclusive += work[static_cast<std::size_t>(id - 1)].spec.exclusive ? 1 : 0;
            timeouts += outcome.state == "TIMEOUT" ? 1 : 0;
        }
        QVERIFY(exclusive > 0); // the workload exercises what used to differ
        QVERIFY(timeouts > 0);
    }
};

QTEST_APPLESS_MAIN(ControllerReplayTest)
#include "controller_replay_test.moc"
