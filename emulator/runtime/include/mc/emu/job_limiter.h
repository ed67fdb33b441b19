#pragma once
// Enforcing one job's limits on this machine. Three ways, chosen once per node (probeLimits):
// - cgroup v2: a cgroup per job under a writable (root or systemd-delegated) subtree, with
//   memory.max, cpu.max and pids.max; the kernel's OOM killer ends what goes over.
// - cgroup v1 (root): the same in the memory, cpu, cpuacct and pids hierarchies.
// - rlimit: no cgroup; the job's processes are found by session in /proc and polled; a job
//   over its memory is killed by the node daemon, CPUs are bounded with sched_setaffinity, and
//   processes with RLIMIT_NPROC when not root.
// The job's first process joins the cgroup itself, before exec (SpawnSpec::joinFiles), so the
// whole tree, bubblewrap included, is inside from the start.
// Layout, as Slurm's: <node>/job_<id> holds the job's limits; its processes live in children,
// job_<id>/step_batch (the batch script) and job_<id>/step_<n> (srun steps, which add no
// limits of their own), so the job's memory, CPU and pids bound all of them together.

#include "mc/emu/job_limits.h"

#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace mc::emu {

struct LimitProbe {
    bool ok = false;
    LimitMode mode = LimitMode::Rlimit;
    std::string detail; // why this mode, or why the asked-for mode is not available
};

// `wanted`: "auto" (the best this machine allows) or a mode name. With a mode name, `ok` is
// false when that mode cannot work here and `detail` says why.
LimitProbe probeLimits(std::string_view wanted);

class JobLimiter {
public:
    // `group` names the job's cgroup below minicluster's subtree ("cn01.1234/job_42"). With a
    // `leaf` ("step_batch") the limits are written on `group` and the processes join
    // `group/leaf` (which shows the same limits). A JobLimits with pidsMax 0 and no memory or CPU
    // writes no limit (a step inside its job's cgroup).
    JobLimiter(LimitMode mode, std::string group, JobLimits limits, std::string leaf = {});

    // Creates the cgroups and writes the limits; false with `error` when that fails.
    bool create(std::string &error);
    // cgroup.procs files the job's first process writes "0" into before exec.
    std::vector<std::string> joinFiles() const { return m_procsFiles; }
    // rlimits the job's first process sets (rlimit mode, not root: RLIMIT_NPROC at the
    // user's current process count plus the job's pids limit).
    std::vector<std::pair<int, long long>> rlimits() const;

    struct Sample {
        std::int64_t rssKb = 0; // resident memory of all the job's processes
        std::int64_t cpuMs = 0; // CPU time of the job so far
        int processes = 0;
    };
    // `leader` is the job's first process (its session id in rlimit mode). In rlimit mode a
    // `table` from scanProcesses() spares a walk of /proc per job.
    Sample sample(pid_t leader, const std::vector<ProcStat> *table = nullptr) const;
    // Every process of the machine, read once per sampling round (rlimit mode).
    static std::vector<ProcStat> scanProcesses();
    // OOM kills the kernel reported in the job's cgroup (0 in rlimit mode).
    int oomKills() const;
    // Forks the kernel refused at the cgroup's pids.max so far (0 in rlimit mode).
    int pidsLimitHits() const;
    // Sends `signal` to every process of the job. `spareLeader`: not to the leader itself
    // (bubblewrap, which ends with its child and reports how the child ended).
    void signalAll(pid_t leader, int signal, bool spareLeader = false) const;
    // cgroup v2: freezes (`frozen`) or thaws the job's cgroup, its steps' below it included
    // (scontrol suspend/resume); false when the job has no cgroup v2 (its processes are then
    // stopped with SIGSTOP and go on with SIGCONT).
    bool freeze(bool frozen) const;
    // Removes the cgroups; false while some still hold (dying) processes.
    bool remove();

    LimitMode mode() const { return m_mode; }
    const JobLimits &limits() const { return m_limits; }

    // The job's processes (its cgroup's, or in rlimit mode its session's).
    std::vector<pid_t> pids(pid_t leader) const;

private:
    bool writeV2Limits(const std::string &dir, std::string &error) const;
    bool writeV1Limits(
        std::string_view controller, const std::string &dir, std::string &error) const;
    // The job's directories in the v1 cpuset hierarchy, with its CPUs (limits().cpuSet).
    bool createV1Cpuset(const std::string &rel, std::string &error);

    LimitMode m_mode;
    std::string m_group;
    JobLimits m_limits;
    std::string m_leaf;
    std::vector<std::string> m_dirs; // created cgroup directories, children first
    std::vector<std::string> m_procsFiles;
    std::string m_memoryDir; // where memory files live (v1 memory hierarchy or the v2 cgroup)
    std::string m_procsDir; // the cgroup (memory hierarchy in v1) that holds the processes
    std::string m_cpuDir; // cpuacct (v1) or the v2 cgroup of the processes
};

// Kills and removes job cgroups left below `node`'s subtree by an earlier daemon that died.
// Returns how many it found.
int reapOrphanCgroups(LimitMode mode, const std::string &nodeGroup);
// Removes the node's (empty) subtree when its daemon stops.
void removeNodeCgroups(LimitMode mode, const std::string &nodeGroup);
// Removes login1's per-user cgroups (mc/emu/login_watcher.h) whose sessions have all ended,
// then login1's subtree if it is empty.
void removeLoginSlices(LimitMode mode, const std::string &loginGroup);

} // namespace mc::emu
