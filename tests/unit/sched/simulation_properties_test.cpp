// Property checks on random workloads replayed by the simulator with the real scheduler:
// no node is ever oversubscribed, no job starts before its submission or its dependency, and
// the reserved top job never starts later than the start it was promised (backfilled jobs
// never delay it). Seeds are fixed so a failure can be replayed.

#include "mc/sim/simulation.h"

#include <QtTest>

#include <map>
#include <memory>
#include <random>

using namespace mc::sim;
using mc::sched::Job;
using mc::sched::JobState;

namespace {

mc::sched::ClusterConfig randomCluster(std::mt19937 &rng)
{
    std::string conf;
    const int small = std::uniform_int_distribution<int>(2, 6)(rng);
    conf += "NodeName=cn[01-0" + std::to_string(small) + "] CPUs=4 RealMemory=8000\n";
    conf += "NodeName=big[1-2] CPUs=16 RealMemory=64000 Gres=gpu:2\n";
    conf += "PartitionName=all Nodes=ALL Default=YES MaxTime=1-00:00:00\n";
    return mc::sched::parseSlurmConf(conf).config;
}

struct Workload {
    int jobs = 150;
    bool dependencies = false;
};

void submitRandom(Simulation &sim, std::mt19937 &rng, const Workload &w)
{
    std::uniform_int_distribution<int> gap(0, 120);
    std::uniform_int_distribution<int> tasks(1, 12);
    std::uniform_int_distribution<int> minutes(1, 30);
    std::uniform_int_distribution<int> percent(0, 99);
    Seconds t = 0;
    for (int i = 1; i <= w.jobs; ++i) {
        t += gap(rng);
        mc::sched::JobSpec spec;
        spec.user = "user" + std::to_string(percent(rng) % 4);
        spec.name = "j" + std::to_string(i);
        spec.ntasks = tasks(rng);
        spec.ntasksGiven = true;
        if (percent(rng) < 15) {
            spec.nodes = 2;
        }
        if (percent(rng) < 10) {
            spec.exclusive = true;
        }
        if (percent(rng) < 10) {
            spec.gpusPerNode = 1;
        }
        spec.memPerCpu = 500;
        const int limit = minutes(rng);
        spec.timeLimit = limit * 60;
        if (w.dependencies && i > 3 && percent(rng) < 25) {
            const int target = std::uniform_int_distribution<int>(1, i - 1)(rng);
            spec.dependency
                = (percent(rng) < 50 ? "afterok:" : "afterany:") + std::to_string(target);
        }
        Behaviour b;
        // Mostly within the limit, sometimes over it (TIMEOUT) or failing.
        b.runTime = std::uniform_int_distribution<int>(10, limit * 60 + 120)(rng);
        b.exitCode = percent(rng) < 10 ? 1 : 0;
        sim.submit(t, std::move(spec), b);
    }
}

} // namespace

class SimulationPropertiesTest : public QObject {
    Q_OBJECT

private slots:
    void randomWorkloadsKeepTheInvariants_data()
    {
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<bool>("dependencies");
        QTest::addColumn<int>("policy");
        for (unsigned seed : {1u, 2u, 3u, 4u, 5u, 6u}) {
            for (int policy : {0, 1}) {
                for (bool deps : {false, true}) {
                    const std::string name = "seed" + std::to_string(seed)
                        + (policy ? "-fifo" : "-backfill") + (deps ? "-deps" : "");
                    QTest::newRow(name.c_str()) << seed << deps << policy;
                }
            }
        }
    }

    void randomWorkloadsKeepTheInvariants()
    {
        QFETCH(unsigned, seed);
        QFETCH(bool, dependencies);
        QFETCH(int, policy);
        std::mt19937 rng(seed);
        SimulationOptions options;
        options.policy
            = policy ? mc::sched::SchedulerKind::Builtin : mc::sched::SchedulerKind::Backfill;
        Simulation sim(randomCluster(rng), options);
        submitRandom(sim, rng, Workload{150, dependencies});
        sim.run();

        const auto &jobs = sim.jobs();
        // Every job ended, except those whose dependency can never be satisfied (and the
        // jobs that depend on those, pending as in Slurm); none started before its
        // submission or its dependency.
        for (const auto &[id, job] : jobs) {
            if (job.isPending()) {
                QVERIFY(!job.spec.dependency.empty());
                const auto colon = job.spec.dependency.find(':');
                const Job &t = jobs.at(
                    static_cast<std::uint32_t>(std::stoul(job.spec.dependency.substr(colon + 1))));
                QVERIFY2(job.reason == mc::sched::Reason::DependencyNeverSatisfied
                        || (job.reason == mc::sched::Reason::Dependency && t.isPending()),
                    qPrintable(QString::number(id)));
            }
            if (job.nodeList.empty()) {
                continue;
            }
            QVERIFY(job.startTime >= job.submitTime);
            if (!job.spec.dependency.empty()) {
                const auto colon = job.spec.dependency.find(':');
                const auto target
                    = static_cast<std::uint32_t>(std::stoul(job.spec.dependency.substr(colon + 1)));
                const Job &t = jobs.at(target);
                QVERIFY(mc::sched::isFinished(t.state));
                QVERIFY2(job.startTime >= t.endTime, qPrintable(QString::number(id)));
                if (job.spec.dependency.rfind("afterok", 0) == 0) {
                    QCOMPARE(t.state, JobState::Completed);
                }
            }
        }
        // No node holds more than it has at any instant (sweep over start/end events).
        struct Held {
            Seconds start;
            const Job *job;
            std::size_t position; // of the node among the job's (uneven layouts: 4,2)
        };
        std::map<std::string, std::vector<Held>> perNode;
        for (const auto &[id, job] : jobs) {
            for (std::size_t k = 0; k < job.nodeList.size(); ++k) {
                perNode[job.nodeList[k]].push_back({job.startTime, &job, k});
            }
        }
        for (const auto &[node, list] : perNode) {
            const auto *conf = sim.config().node(node);
            QVERIFY(conf);
            std::vector<std::pair<Seconds, int>> events; // (time, +cpus/-cpus), ends first
            std::vector<std::pair<Seconds, long long>> memory;
            for (const auto &[start, job, position] : list) {
                if (job->spec.exclusive) { // AllocCPUS: whole nodes, as the controller counts
                    int whole = 0;
                    for (const auto &name : job->nodeList) {
                        whole += sim.config().node(name)->cpus;
                    }
                    QCOMPARE(job->allocCpus, whole);
                }
                const int cpus = job->spec.exclusive ? conf->cpus : job->cpusOnNode(position);
                events.push_back({start, cpus});
                events.push_back({job->endTime, -cpus});
                const long long mem = job->spec.exclusive ? conf->realMemory : job->memPerNode;
                memory.push_back({start, mem});
                memory.push_back({job->endTime, -mem});
            }
            std::sort(events.begin(), events.end());
            std::sort(memory.begin(), memory.end());
            int used = 0;
            for (const auto &[time, delta] : events) {
                used += delta;
                QVERIFY2(used <= conf->cpus,
                    qPrintable(QString::fromStdString(node) + " at " + QString::number(time)));
            }
            long long mem = 0;
            for (const auto &[time, delta] : memory) {
                mem += delta;
                QVERIFY(mem <= conf->realMemory);
            }
        }
        // The top job's promised start is kept (no dependencies: priorities never reorder).
        if (!dependencies) {
            QVERIFY(!sim.reservations().empty());
            for (const auto &r : sim.reservations()) {
                const Job &job = jobs.at(r.job.value);
                QVERIFY2(job.startTime <= r.plannedStart,
                    qPrintable(QStringLiteral("job %1 promised %2 started %3")
                                   .arg(r.job.value)
                                   .arg(r.plannedStart)
                                   .arg(job.startTime)));
            }
        }
    }

    // The simulator carries each pass's node plan into the next (ScheduleSession); building
    // it afresh every pass must give the same decisions, through node failures, cancellations
    // and holds as well as starts and ends.
    void carriedPlanDecidesLikeAFreshOne_data()
    {
        QTest::addColumn<unsigned>("seed");
        QTest::addColumn<int>("policy");
        for (unsigned seed : {11u, 12u, 13u, 14u}) {
            for (int policy : {0, 1}) {
                const std::string name
                    = "seed" + std::to_string(seed) + (policy ? "-fifo" : "-backfill");
                QTest::newRow(name.c_str()) << seed << policy;
            }
        }
    }

    void carriedPlanDecidesLikeAFreshOne()
    {
        QFETCH(unsigned, seed);
        QFETCH(int, policy);
        auto replay = [&](bool carry) {
            std::mt19937 rng(seed);
            SimulationOptions options;
            options.policy
                = policy ? mc::sched::SchedulerKind::Builtin : mc::sched::SchedulerKind::Backfill;
            options.carryPlan = carry;
            auto sim = std::make_unique<Simulation>(randomCluster(rng), options);
            submitRandom(*sim, rng, Workload{200, true});
            sim->hold(300, JobId{20}, false);
            sim->cancel(900, JobId{10});
            sim->failNode(1500, "big1");
            sim->release(2000, JobId{20}, false);
            sim->resumeNode(4000, "big1");
            sim->cancel(5000, JobId{150});
            sim->run();
            return sim;
        };
        const auto carried = replay(true);
        const auto fresh = replay(false);
        QCOMPARE(carried->jobs().size(), fresh->jobs().size());
        int started = 0;
        for (const auto &[id, job] : carried->jobs()) {
            const Job &other = fresh->jobs().at(id);
            const QString what = QStringLiteral("job %1").arg(id);
            QVERIFY2(job.state == other.state, qPrintable(what));
            QVERIFY2(job.startTime == other.startTime, qPrintable(what));
            QVERIFY2(job.endTime == other.endTime, qPrintable(what));
            QVERIFY2(job.nodeList == other.nodeList, qPrintable(what));
            started += job.nodeList.empty() ? 0 : 1;
        }
        QVERIFY(started > 150); // the comparison covers a real schedule, not an idle one
    }
};

QTEST_APPLESS_MAIN(SimulationPropertiesTest)
#include "simulation_properties_test.moc"
