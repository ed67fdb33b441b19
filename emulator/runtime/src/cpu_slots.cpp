#include "mc/emu/cpu_slots.h"

#include "mc/sched/gres.h"

#include <algorithm>
#include <sched.h>
#include <set>

namespace mc::emu {

int CpuSlots::take(std::uint32_t jobId, int count)
{
    if (auto it = m_held.find(jobId); it != m_held.end()) {
        return it->second.first;
    }
    count = std::max(1, count);
    // The held runs in index order; the first gap wide enough, else after the last.
    std::vector<std::pair<int, int>> runs;
    for (const auto &[job, run] : m_held) {
        runs.push_back(run);
    }
    std::sort(runs.begin(), runs.end());
    int first = 0;
    for (const auto &[start, length] : runs) {
        if (start - first >= count) {
            break;
        }
        first = std::max(first, start + length);
    }
    m_held[jobId] = {first, count};
    return first;
}

void CpuSlots::release(std::uint32_t jobId)
{
    m_held.erase(jobId);
}

std::vector<int> hostCpus(int first, int count, const std::vector<int> &usable)
{
    const int n = static_cast<int>(usable.size());
    std::set<int> cpus;
    for (int i = 0; i < count && n > 0 && static_cast<int>(cpus.size()) < n; ++i) {
        cpus.insert(usable[static_cast<std::size_t>((first + i) % n)]);
    }
    return {cpus.begin(), cpus.end()};
}

std::vector<int> usableCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (::sched_getaffinity(0, sizeof set, &set) == 0) {
        for (std::size_t c = 0; c < CPU_SETSIZE; ++c) {
            if (CPU_ISSET(c, &set)) {
                cpus.push_back(static_cast<int>(c));
            }
        }
    }
    return cpus;
}

std::string cpuListText(const std::vector<int> &cpus)
{
    return sched::gpuIndexRanges(cpus); // scontrol's IDX: form is the kernel's list format
}

} // namespace mc::emu
