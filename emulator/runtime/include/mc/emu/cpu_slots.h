#pragma once
// Which of a node's CPUs each job was given, by index, as Slurm's task/cgroup and task/affinity
// confine a job to the cores slurmctld gave it. The controller counts CPUs per node; the node
// daemon picks which ones: the lowest free run of indices, so two jobs of one node never share
// one while the node has room, and a job's steps run on its own. An emulated node's index k is
// the machine's k-th usable CPU modulo their number (a laptop's two CPUs back a node of eight).
// Pure bookkeeping: the daemon applies it (cpuset.cpus of the job's cgroup, sched_setaffinity).

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mc::emu {

class CpuSlots {
public:
    // The first index of `count` CPUs held by `jobId`: those it already holds, else the lowest
    // free run of `count`. A job asking for 0 CPUs is given one.
    int take(std::uint32_t jobId, int count);
    // Gives `jobId`'s CPUs back; nothing when it holds none.
    void release(std::uint32_t jobId);
    bool holds(std::uint32_t jobId) const { return m_held.count(jobId) != 0; }

private:
    std::map<std::uint32_t, std::pair<int, int>> m_held; // job: first index, count
};

// The machine's CPUs behind `count` node CPUs from index `first`: the `usable` CPUs (the
// daemon's own affinity, which a container or a cpuset may narrow) taken in turn from
// `first` modulo their number, in increasing order without repeats; all of them when `count`
// covers them. bindToCpus() (mc/emu/process.h) binds a process by the same rule.
std::vector<int> hostCpus(int first, int count, const std::vector<int> &usable);
// The CPUs the calling process may run on (sched_getaffinity), in increasing order.
std::vector<int> usableCpus();

// "0-1,3": the kernel's list format (cpuset.cpus).
std::string cpuListText(const std::vector<int> &cpus);

} // namespace mc::emu
