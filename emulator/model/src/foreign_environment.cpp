#include "mc/emu/foreign_environment.h"

#include "mc/sched/hostlist.h"

#include <algorithm>

namespace mc::emu {

namespace {

struct Layout {
    std::vector<std::string> nodes;
    std::vector<int> perNode; // tasks on each node
    int tasks = 1;
};

Layout layoutOf(const BatchJobFacts &f)
{
    Layout l;
    l.nodes = sched::expandHostlist(f.nodeList).value_or(std::vector<std::string>{f.node});
    const int nodeCount = std::max<int>(1, static_cast<int>(l.nodes.size()));
    l.tasks = f.ntasksGiven ? f.ntasks : nodeCount;
    l.perNode = sched::blockTaskCounts(l.tasks, nodeCount);
    return l;
}

} // namespace

std::string pbsNodeFileText(const BatchJobFacts &f)
{
    const Layout l = layoutOf(f);
    std::string text;
    for (std::size_t i = 0; i < l.nodes.size(); ++i) {
        for (int r = 0; r < (i < l.perNode.size() ? l.perNode[i] : 1); ++r) {
            text += l.nodes[i] + "\n";
        }
    }
    return text;
}

void addForeignVariables(std::map<std::string, std::string> &env, const BatchJobFacts &f)
{
    const auto marker = env.find("MINICLUSTER_BATCH_SYSTEM");
    if (marker == env.end()) {
        return;
    }
    const std::string system = marker->second;
    env.erase(marker);
    const Layout layout = layoutOf(f);
    const auto &nodes = layout.nodes;
    const auto &perNode = layout.perNode;
    const int tasks = layout.tasks;
    const std::string id = std::to_string(f.jobId);
    if (system == "lsf") {
        std::string hosts;
        std::string mcpu;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const int slots = i < perNode.size() ? perNode[i] : 1;
            for (int s = 0; s < slots; ++s) {
                hosts += (hosts.empty() ? "" : " ") + nodes[i];
            }
            mcpu += nodes[i] + " " + std::to_string(slots) + " ";
        }
        env["LSB_JOBID"] = id;
        env["LSB_BATCH_JID"] = id;
        env["LSB_JOBNAME"] = f.jobName;
        env["LSB_QUEUE"] = f.partition;
        env["LSB_HOSTS"] = hosts;
        env["LSB_MCPU_HOSTS"] = mcpu;
        env["LSB_DJOB_NUMPROC"] = std::to_string(tasks);
        env["LSB_MAX_NUM_PROCESSORS"] = std::to_string(tasks);
        env["LSB_SUBCWD"] = f.submitDir;
        env["LSB_JOBINDEX"] = f.arrayTaskId ? std::to_string(*f.arrayTaskId) : "0";
        env["LSB_EXEC_CLUSTER"] = f.clusterName;
        env["LSF_BINDIR"] = "/usr/bin";
    } else if (system == "pbs") {
        const std::string server = f.clusterName.empty() ? "server" : f.clusterName;
        env["PBS_JOBID"] = f.arrayTaskId
            ? std::to_string(f.arrayJobId) + "[" + std::to_string(*f.arrayTaskId) + "]." + server
            : id + "." + server;
        if (f.arrayTaskId) {
            env["PBS_ARRAY_INDEX"] = std::to_string(*f.arrayTaskId);
            env["PBS_ARRAY_ID"] = std::to_string(f.arrayJobId) + "[]." + server;
        }
        env["PBS_JOBNAME"] = f.jobName;
        env["PBS_QUEUE"] = f.partition;
        env["PBS_O_QUEUE"] = f.partition;
        env["PBS_O_WORKDIR"] = f.submitDir;
        env["PBS_O_HOST"] = f.submitHost;
        env["PBS_O_HOME"] = f.home;
        env["PBS_O_LOGNAME"] = f.user;
        env["PBS_ENVIRONMENT"] = "PBS_BATCH";
        env["PBS_SERVER"] = server;
        env["PBS_NODENUM"] = "0";
        env["PBS_TASKNUM"] = "1";
        env["PBS_NODEFILE"] = f.nodeFilePath;
        env["NCPUS"] = std::to_string(f.cpusPerTask);
        env["OMP_NUM_THREADS"] = std::to_string(f.cpusPerTask);
    }
}

} // namespace mc::emu
