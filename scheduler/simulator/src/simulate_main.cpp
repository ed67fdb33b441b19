// minicluster-simulate --conf FILE --workload FILE.swf [--policy fifo|backfill]
//                      [--timeline OUT.csv]
// Replays an SWF trace on the cluster of a slurm.conf with the real scheduling core and no
// processes, then prints makespan, utilisation, mean wait and mean bounded slowdown.

#include "mc/base/file.h"
#include "mc/sched/slurm_conf.h"
#include "mc/sim/metrics.h"
#include "mc/sim/workload.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr const char *kUsage = "Usage: minicluster simulate --conf FILE --workload FILE.swf "
                               "[--policy fifo|backfill] [--timeline OUT.csv]\n";

} // namespace

int main(int argc, char **argv)
{
    std::string conf;
    std::string workload;
    std::string policy;
    std::string timeline;
    const std::vector<std::string> args(argv + 1, argv + argc);
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        auto value = [&](std::string &into) {
            const auto eq = arg.find('=');
            if (eq != std::string::npos) {
                into = arg.substr(eq + 1);
                return true;
            }
            if (i + 1 >= args.size()) {
                return false;
            }
            into = args[++i];
            return true;
        };
        const std::string name = arg.substr(0, arg.find('='));
        bool ok = true;
        if (name == "--conf") {
            ok = value(conf);
        } else if (name == "--workload") {
            ok = value(workload);
        } else if (name == "--policy") {
            ok = value(policy);
        } else if (name == "--timeline") {
            ok = value(timeline);
        } else if (name == "--help" || name == "-h") {
            std::cout << kUsage;
            return 0;
        } else {
            std::cerr << "minicluster simulate: error: unknown option " << arg << '\n' << kUsage;
            return 2;
        }
        if (!ok) {
            std::cerr << "minicluster simulate: error: " << name << " needs a value\n";
            return 2;
        }
    }
    if (conf.empty() || workload.empty()) {
        std::cerr << kUsage;
        return 2;
    }
    mc::sim::SimulationOptions options;
    options.keepEvents = false;
    if (policy == "fifo") {
        options.policy = mc::sched::SchedulerKind::Builtin;
    } else if (policy == "backfill") {
        options.policy = mc::sched::SchedulerKind::Backfill;
    } else if (!policy.empty()) {
        std::cerr << "minicluster simulate: error: --policy must be fifo or backfill\n";
        return 2;
    }
    std::string confText;
    std::string swfText;
    if (auto text = mc::base::readFile(conf)) {
        confText = std::move(*text);
    } else {
        std::cerr << "minicluster simulate: error: cannot read " << conf << '\n';
        return 1;
    }
    if (auto text = mc::base::readFile(workload)) {
        swfText = std::move(*text);
    } else {
        std::cerr << "minicluster simulate: error: cannot read " << workload << '\n';
        return 1;
    }
    auto parsed = mc::sched::parseSlurmConf(confText);
    for (const auto &p : parsed.problems) {
        std::cerr << conf << ':' << p.line << ": " << p.message << '\n';
    }
    if (parsed.config.nodes.empty() || parsed.config.partitions.empty()) {
        std::cerr << "minicluster simulate: error: " << conf << " defines no nodes or partitions\n";
        return 1;
    }
    if (!parsed.config.defaultPartition()) {
        parsed.config.partitions.front().isDefault = true;
    }
    const auto trace = mc::sim::parseSwf(swfText);
    for (const auto &p : trace.problems) {
        std::cerr << workload << ": " << p << '\n';
    }
    mc::sim::Simulation simulation(parsed.config, options);
    const std::size_t skipped = mc::sim::submitTrace(simulation, trace);
    simulation.run();
    const auto metrics = mc::sim::measure(simulation);
    std::cout << "policy: "
              << (options.policy.value_or(parsed.config.scheduler)
                             == mc::sched::SchedulerKind::Builtin
                         ? "fifo"
                         : "backfill")
              << '\n'
              << mc::sim::formatMetrics(metrics);
    if (skipped > 0) {
        std::cout << "skipped: " << skipped << " (no processors or run time)\n";
    }
    if (!timeline.empty()) {
        std::ofstream out(timeline, std::ios::binary);
        out << mc::sim::timelineCsv(simulation);
        if (!out) {
            std::cerr << "minicluster simulate: error: cannot write " << timeline << '\n';
            return 1;
        }
    }
    return 0;
}
