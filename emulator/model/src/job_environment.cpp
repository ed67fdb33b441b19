#include "mc/emu/job_environment.h"

#include "mc/emu/foreign_environment.h"
#include "mc/sched/hostlist.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>
#include <set>

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
    // Every node of the job holds as many CPUs as this one unless the layout is uneven (4,2:
    // the tasks fill the first nodes); even ones spread tasks with Slurm's block distribution.
    const std::vector<int> nodeCpus = f.nodeCpus.empty()
        ? std::vector<int>(static_cast<std::size_t>(std::max(1, f.numNodes)), f.cpusOnNode)
        : f.nodeCpus;
    set("SLURM_JOB_CPUS_PER_NODE", sched::compressCounts(nodeCpus));
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
    std::vector<int> tasksPerNode
        = sched::blockTaskCounts(f.ntasksGiven ? f.ntasks : f.numNodes, std::max(1, f.numNodes));
    if (!f.nodeCpus.empty()) {
        tasksPerNode.clear();
        for (int cpus : f.nodeCpus) {
            tasksPerNode.push_back(std::max(1, cpus / std::max(1, f.cpusPerTask)));
        }
    }
    set("SLURM_TASKS_PER_NODE", sched::compressCounts(tasksPerNode));
    set("SLURM_TASK_PID", num(f.taskPid));
    set("SLURM_TOPOLOGY_ADDR", f.node);
    set("SLURM_TOPOLOGY_ADDR_PATTERN", "node");
    set("ENVIRONMENT", "BATCH");
    set("HOSTNAME", f.node);
    set("TMPDIR", "/tmp");
    if (!f.tmpDir.empty()) {
        set("SLURM_TMPDIR", f.tmpDir);
    }
    if (f.restarts > 0) {
        set("SLURM_RESTART_COUNT", num(f.restarts));
    }
    if (!f.gpuIds.empty()) {
        // The node's indices in SLURM_JOB_GPUS; the job's own devices, numbered from 0, in
        // CUDA_VISIBLE_DEVICES, as Slurm does with ConstrainDevices=yes (the Alliance's way).
        std::string ids;
        std::string local;
        for (std::size_t i = 0; i < f.gpuIds.size(); ++i) {
            ids += (ids.empty() ? "" : ",") + num(f.gpuIds[i]);
            local += (local.empty() ? "" : ",") + num(static_cast<long long>(i));
        }
        set("CUDA_VISIBLE_DEVICES", local);
        set("GPU_DEVICE_ORDINAL", local);
        set("SLURM_JOB_GPUS", ids);
        set("SLURM_GPUS_ON_NODE", num(static_cast<long long>(f.gpuIds.size())));
    }
    const std::pair<const char *, const std::string *> gpuOptions[] = {
        {"SLURM_GPUS", &f.gpus},
        {"SLURM_GPUS_PER_NODE", &f.gpusPerNode},
        {"SLURM_GPUS_PER_TASK", &f.gpusPerTask},
    };
    for (const auto &[name, value] : gpuOptions) {
        if (!value->empty()) {
            set(name, *value);
        }
    }
    if (f.cpusPerGpu > 0) {
        set("SLURM_CPUS_PER_GPU", num(f.cpusPerGpu));
    }
    if (f.memPerGpu > 0) {
        set("SLURM_MEM_PER_GPU", num(f.memPerGpu));
    }
    if (f.arrayTaskId) {
        set("SLURM_ARRAY_JOB_ID", num(f.arrayJobId ? f.arrayJobId : f.jobId));
        set("SLURM_ARRAY_TASK_ID", num(*f.arrayTaskId));
        if (auto a = summarizeArray(f.arraySpec)) {
            set("SLURM_ARRAY_TASK_COUNT", num(a->count));
            set("SLURM_ARRAY_TASK_MAX", num(a->max));
            set("SLURM_ARRAY_TASK_MIN", num(a->min));
            set("SLURM_ARRAY_TASK_STEP", num(a->step));
        }
    }
    if (env.find("HOME") == env.end()) {
        set("HOME", f.home);
    }
    if (env.find("USER") == env.end()) {
        set("USER", f.user);
        set("LOGNAME", f.user);
    }

    addForeignVariables(env, f); // bsub's and qsub's jobs: LSB_* or PBS_* too

    std::vector<std::string> out;
    out.reserve(env.size());
    for (const auto &[k, v] : env) {
        out.push_back(k + "=" + v);
    }
    return out;
}

std::optional<ArraySummary> summarizeArray(std::string_view spec)
{
    spec = spec.substr(0, spec.find('%')); // the throttle does not change the tasks
    std::set<long long> ids;
    auto number = [](std::string_view text, long long &out) {
        return !text.empty()
            && std::from_chars(text.data(), text.data() + text.size(), out).ec == std::errc()
            && out >= 0;
    };
    while (!spec.empty()) {
        std::string_view item = spec.substr(0, spec.find(','));
        spec.remove_prefix(std::min(spec.size(), item.size() + 1));
        long long step = 1;
        if (auto colon = item.find(':'); colon != std::string_view::npos) {
            if (!number(item.substr(colon + 1), step) || step <= 0) {
                return std::nullopt;
            }
            item = item.substr(0, colon);
        }
        long long first = 0;
        long long last = 0;
        auto dash = item.find('-');
        if (!number(item.substr(0, dash), first)
            || !number(
                dash == std::string_view::npos ? item.substr(0, dash) : item.substr(dash + 1), last)
            || last < first || last - first > 1000000) {
            return std::nullopt;
        }
        for (long long id = first; id <= last; id += step) {
            ids.insert(id);
        }
    }
    if (ids.empty()) {
        return std::nullopt;
    }
    ArraySummary a;
    a.count = static_cast<int>(ids.size());
    a.min = *ids.begin();
    a.max = *ids.rbegin();
    a.step = ids.size() > 1 ? *std::next(ids.begin()) - a.min : 1;
    for (auto it = ids.begin(); it != ids.end() && std::next(it) != ids.end(); ++it) {
        if (*std::next(it) - *it != a.step) {
            a.step = 1;
            break;
        }
    }
    return a;
}

} // namespace mc::emu
