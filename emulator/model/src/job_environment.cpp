#include "mc/emu/job_environment.h"

#include <algorithm>
#include <map>

namespace mc::emu {

std::vector<std::string> batchJobEnvironment(
    const BatchJobFacts &f, const std::vector<std::string> &exported)
{
    std::map<std::string, std::string> env;
    for (const auto &entry : exported) {
        auto eq = entry.find('=');
        if (eq != std::string::npos && eq > 0) {
            env[entry.substr(0, eq)] = entry.substr(eq + 1);
        }
    }
    // Variables of the submitting shell that make no sense on the compute node.
    for (const char *drop : {"SLURM_JOB_ID", "SLURM_JOBID", "OLDPWD"}) {
        env.erase(drop);
    }
    auto set = [&env](const std::string &key, const std::string &value) {
        env[key] = value;
    };
    auto num = [](long long v) {
        return std::to_string(v);
    };

    set("SLURMD_NODENAME", f.node);
    set("SLURM_CLUSTER_NAME", f.clusterName);
    set("SLURM_CONF", f.confPath);
    set("SLURM_CPUS_ON_NODE", num(f.cpusOnNode));
    if (f.cpusPerTaskGiven) {
        set("SLURM_CPUS_PER_TASK", num(f.cpusPerTask));
    }
    set("SLURM_GTIDS", "0");
    set("SLURM_JOBID", num(f.jobId));
    set("SLURM_JOB_ACCOUNT", f.account);
    set("SLURM_JOB_CPUS_PER_NODE", num(f.cpusOnNode));
    set("SLURM_JOB_GID", num(f.gid));
    set("SLURM_JOB_ID", num(f.jobId));
    set("SLURM_JOB_NAME", f.jobName);
    set("SLURM_JOB_NODELIST", f.nodeList);
    set("SLURM_JOB_NUM_NODES", num(f.numNodes));
    set("SLURM_JOB_PARTITION", f.partition);
    set("SLURM_JOB_QOS", f.qos);
    set("SLURM_JOB_UID", num(f.uid));
    set("SLURM_JOB_USER", f.user);
    set("SLURM_LOCALID", "0");
    if (f.memPerNode > 0) {
        set("SLURM_MEM_PER_NODE", num(f.memPerNode));
    } else if (f.memPerCpu > 0) {
        set("SLURM_MEM_PER_CPU", num(f.memPerCpu));
    }
    set("SLURM_NNODES", num(f.numNodes));
    set("SLURM_NODEID", "0");
    set("SLURM_NODELIST", f.nodeList);
    set("SLURM_NODE_ALIASES", "(null)");
    if (f.ntasksGiven) {
        set("SLURM_NPROCS", num(f.ntasks));
        set("SLURM_NTASKS", num(f.ntasks));
    }
    set("SLURM_PRIO_PROCESS", "0");
    set("SLURM_PROCID", "0");
    set("SLURM_SUBMIT_DIR", f.submitDir);
    set("SLURM_SUBMIT_HOST", f.submitHost);
    set("SLURM_TASKS_PER_NODE", num(f.ntasksGiven ? (f.ntasks + f.numNodes - 1) / f.numNodes : 1));
    set("SLURM_TASK_PID", num(f.taskPid));
    set("SLURM_TOPOLOGY_ADDR", f.node);
    set("SLURM_TOPOLOGY_ADDR_PATTERN", "node");
    set("ENVIRONMENT", "BATCH");
    set("HOSTNAME", f.node);
    set("TMPDIR", "/tmp");
    if (!f.tmpDir.empty()) {
        set("SLURM_TMPDIR", f.tmpDir);
    }
    if (env.find("HOME") == env.end()) {
        set("HOME", f.home);
    }
    if (env.find("USER") == env.end()) {
        set("USER", f.user);
        set("LOGNAME", f.user);
    }

    std::vector<std::string> out;
    out.reserve(env.size());
    for (const auto &[k, v] : env) {
        out.push_back(k + "=" + v);
    }
    return out;
}

} // namespace mc::emu
