#pragma once
// Instructor scenarios: named, seeded set-ups that load in one go and replay the same way each
// time (a busy cluster, a fairshare contest between classmates, a node failure mid-run). A
// scenario is data, emulator/presets/scenarios/<name>.scenario:
//
//   title: A busy cluster
//   description: Classmates fill the cpu partition ...
//   seed: 7
//   requires: PriorityType=priority/multifactor      (slurm.conf must have it; checked)
//   jobs 16 users=bob,carol partition=cpu cpus=1-4 mem=200-2000 time=10-120 run=60-600
//        every=0-10 name=bg                           (one line: seeded random jobs)
//   at 0 as bob sbatch --job-name=wide -N 2 --wrap "sleep 1800"
//   at 45 node cn03 fail "power supply"               (node_update, as the instructor)
//
// Planning is pure (the same text and seed give the same actions, on any machine); running it
// submits with the real `sbatch` as the named users and changes nodes through the controller.

#include "mc/emu/cluster_layout.h"

#include <string>
#include <string_view>
#include <vector>

namespace mc::launch {

struct ScenarioAction {
    double at = 0; // seconds after loading
    std::string user; // submit: who submits
    std::string sbatchArgs; // submit: the arguments of sbatch (shell words)
    std::string node; // node change: which node
    std::string nodeState; // "fail", "down", "drain", "resume"
    std::string reason;
    bool isSubmit() const { return node.empty(); }
};

struct Scenario {
    std::string name;
    std::string title;
    std::string description;
    unsigned long long seed = 1;
    std::vector<std::string> requires_; // slurm.conf lines that must be present ("Key=Value")
    std::vector<ScenarioAction> actions; // sorted by `at`
};

struct ScenarioParse {
    Scenario scenario;
    std::vector<std::string> problems;
};

ScenarioParse parseScenario(std::string_view text, std::string name);

// The scenarios shipped: <bin>/../share/minicluster/presets/scenarios/*.scenario.
std::string scenariosDir(const std::string &binDir);

struct ScenarioContext {
    emu::ClusterLayout layout;
    std::string binDir; // where `minicluster` is (submissions go through its shell)
    std::string scenariosDir;
};

// `minicluster scenario list | load NAME [--speed N] | stop`. `load` runs the actions at time
// 0 before it returns and leaves the later ones to a background process (run/scenario.pid,
// log/scenario.log); --speed N plays the timeline N times faster.
int runScenarioCommand(const ScenarioContext &context, const std::vector<std::string> &args);

} // namespace mc::launch
