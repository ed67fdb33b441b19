#pragma once
// The arithmetic and the words of a job's limits, independent of how they are enforced: what a
// request becomes in cgroup units, slurmstepd's notices, /proc parsing and usage statistics.
// Pure functions; the runtime (mc/emu/job_limiter.h) applies them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::emu {

// How a node enforces limits: cgroup v2, cgroup v1 (root), or rlimits plus /proc polling.
enum class LimitMode { CgroupV2, CgroupV1, Rlimit };

std::string_view limitModeName(LimitMode mode); // "cgroup-v2", "cgroup-v1", "rlimit"
std::optional<LimitMode> parseLimitMode(std::string_view name);

inline constexpr std::int64_t kCpuPeriodUs = 100000; // CFS period of the CPU quota
inline constexpr int kDefaultPidsMax = 512; // processes per job: contains a fork bomb

struct JobLimits {
    std::int64_t memoryBytes = 0; // 0: no memory limit
    int cpus = 0; // CPUs on this node; 0: unbounded
    int pidsMax = kDefaultPidsMax;
    std::int64_t quotaUs = 0; // > 0: this CPU quota per period instead of `cpus` (fractions)
    // The machine's CPUs the job may run on (cpuset.cpus, where a cpuset controller is
    // available); empty: not confined by the cgroup.
    std::vector<int> cpuSet;

    bool hasCpuLimit() const { return cpus > 0 || quotaUs > 0; }
    // cpu.max / cpu.cfs_quota_us: `cpus` full CPUs per period.
    std::int64_t cpuQuotaUs() const
    {
        return quotaUs > 0 ? quotaUs : static_cast<std::int64_t>(cpus) * kCpuPeriodUs;
    }
};

// The limits of a job granted `memMiB` MiB (0: none) and `cpus` CPUs on this node.
JobLimits jobLimits(std::int64_t memMiB, int cpus, int pidsMax = kDefaultPidsMax);

// slurmstepd's notices, each one line ending in '\n'; `when` is epoch seconds.
std::string timeLimitNotice(const std::string &node, std::uint32_t jobId, std::int64_t when);
std::string cancelNotice(const std::string &node, std::uint32_t jobId, std::int64_t when);
// The same notice for one step cancelled by scancel JOB.STEP (in its srun's stderr).
std::string stepCancelNotice(
    const std::string &node, std::uint32_t jobId, int stepId, std::int64_t when);
// "Detected N oom-kill event(s) in StepId=J.batch. ..." (cgroup modes); `step`: "batch", or
// the number of an srun step.
std::string oomKillNotice(
    const std::string &node, std::uint32_t jobId, int events, const std::string &step = "batch");
// The polling path's notice: the step went over its memory limit and is being killed.
std::string overMemoryNotice(const std::string &node, std::uint32_t jobId, std::int64_t usedKb,
    std::int64_t limitKb, const std::string &step = "batch");
// The polling path's notice for a peak no sample saw (a large allocation that lived less than
// one sampling interval): the peak resident size of one of its processes, from the exit's
// rusage, was over the limit.
std::string memoryPeakNotice(
    const std::string &node, std::uint32_t jobId, std::int64_t peakKb, std::int64_t limitKb);

// The polling path's notice for a fork bomb that got past RLIMIT_NPROC (root ignores it).
// minicluster's words: Slurm without a pids cgroup has no such limit.
std::string overPidsNotice(const std::string &node, std::uint32_t jobId, int processes, int limit);

// $SLURM_TMPDIR's directory name under /localscratch (Alliance convention): "<user>.<jobid>.0".
std::string tmpDirName(const std::string &user, std::uint32_t jobId);

// The fields of /proc/<pid>/stat that usage sampling needs.
struct ProcStat {
    int pid = 0;
    int ppid = 0;
    int session = 0;
    std::int64_t cpuTicks = 0; // utime + stime
    std::int64_t rssPages = 0;
};
// Parses the text of /proc/<pid>/stat (the command name may hold spaces and parentheses).
std::optional<ProcStat> parseProcStat(std::string_view text);

// Usage of one step accumulated over samples, as sacct reports it.
class UsageTracker {
public:
    // One sample: resident memory of the whole step (KiB) and its CPU time so far (ms).
    void add(std::int64_t rssKb, std::int64_t cpuMs);
    // The CPU time measured at the end (from the exit status), kept if larger than sampled.
    void finalCpu(std::int64_t cpuMs);

    std::int64_t maxRssKb() const { return m_maxRss; }
    std::int64_t aveRssKb() const { return m_samples ? m_sumRss / m_samples : 0; }
    std::int64_t totalCpuMs() const { return m_cpuMs; }
    int samples() const { return static_cast<int>(m_samples); }

private:
    std::int64_t m_maxRss = 0;
    std::int64_t m_sumRss = 0;
    std::int64_t m_samples = 0;
    std::int64_t m_cpuMs = 0;
};

} // namespace mc::emu
