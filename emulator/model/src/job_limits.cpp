#include "mc/emu/job_limits.h"

#include "mc/sched/time_format.h"

#include <algorithm>
#include <charconv>
#include <vector>

namespace mc::emu {

namespace {

std::string stepPrefix(const std::string &node)
{
    return "slurmstepd-" + node + ": error: ";
}

} // namespace

std::string_view limitModeName(LimitMode mode)
{
    switch (mode) {
    case LimitMode::CgroupV2:
        return "cgroup-v2";
    case LimitMode::CgroupV1:
        return "cgroup-v1";
    case LimitMode::Rlimit:
        return "rlimit";
    }
    return "rlimit";
}

std::optional<LimitMode> parseLimitMode(std::string_view name)
{
    for (LimitMode m : {LimitMode::CgroupV2, LimitMode::CgroupV1, LimitMode::Rlimit}) {
        if (limitModeName(m) == name) {
            return m;
        }
    }
    return std::nullopt;
}

JobLimits jobLimits(std::int64_t memMiB, int cpus, int pidsMax)
{
    JobLimits l;
    l.memoryBytes = std::max<std::int64_t>(0, memMiB) * 1024 * 1024;
    l.cpus = std::max(0, cpus);
    l.pidsMax = pidsMax;
    return l;
}

std::string timeLimitNotice(const std::string &node, std::uint32_t jobId, std::int64_t when)
{
    return stepPrefix(node) + "*** JOB " + std::to_string(jobId) + " ON " + node + " CANCELLED AT "
        + sched::formatTimestamp(when) + " DUE TO TIME LIMIT ***\n";
}

std::string cancelNotice(const std::string &node, std::uint32_t jobId, std::int64_t when)
{
    return stepPrefix(node) + "*** JOB " + std::to_string(jobId) + " ON " + node + " CANCELLED AT "
        + sched::formatTimestamp(when) + " ***\n";
}

std::string stepCancelNotice(
    const std::string &node, std::uint32_t jobId, int stepId, std::int64_t when)
{
    return stepPrefix(node) + "*** STEP " + std::to_string(jobId) + "." + std::to_string(stepId)
        + " ON " + node + " CANCELLED AT " + sched::formatTimestamp(when) + " ***\n";
}

std::string oomKillNotice(
    const std::string &node, std::uint32_t jobId, int events, const std::string &step)
{
    return stepPrefix(node) + "Detected " + std::to_string(events)
        + " oom-kill event(s) in StepId=" + std::to_string(jobId) + "." + step
        + ". Some of your processes may have been killed by the cgroup out-of-memory handler.\n";
}

std::string overMemoryNotice(const std::string &node, std::uint32_t jobId, std::int64_t usedKb,
    std::int64_t limitKb, const std::string &step)
{
    return stepPrefix(node) + "StepId=" + std::to_string(jobId) + "." + step
        + " exceeded memory limit (" + std::to_string(usedKb) + " > " + std::to_string(limitKb)
        + "), being killed\n";
}

std::string memoryPeakNotice(
    const std::string &node, std::uint32_t jobId, std::int64_t peakKb, std::int64_t limitKb)
{
    return stepPrefix(node) + "StepId=" + std::to_string(jobId) + ".batch exceeded memory limit ("
        + std::to_string(peakKb) + " > " + std::to_string(limitKb)
        + ") between two samples: a process of the step peaked " + "at that size before it ended\n";
}

std::string overPidsNotice(const std::string &node, std::uint32_t jobId, int processes, int limit)
{
    return stepPrefix(node) + "StepId=" + std::to_string(jobId) + ".batch has "
        + std::to_string(processes) + " processes, over its limit of " + std::to_string(limit)
        + ", being killed\n";
}

std::string tmpDirName(const std::string &user, std::uint32_t jobId)
{
    return user + "." + std::to_string(jobId) + ".0";
}

std::optional<ProcStat> parseProcStat(std::string_view text)
{
    // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
    // stime cutime cstime priority nice threads itrealvalue starttime vsize rss ..."
    auto open = text.find('(');
    auto close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
        return std::nullopt;
    }
    ProcStat st;
    auto pidText = text.substr(0, open);
    while (!pidText.empty() && pidText.back() == ' ') {
        pidText.remove_suffix(1);
    }
    if (std::from_chars(pidText.data(), pidText.data() + pidText.size(), st.pid).ec
        != std::errc()) {
        return std::nullopt;
    }
    std::vector<std::string_view> f; // f[0] is the state (field 3)
    std::string_view rest = text.substr(close + 1);
    while (!rest.empty()) {
        auto start = rest.find_first_not_of(" \n");
        if (start == std::string_view::npos) {
            break;
        }
        rest.remove_prefix(start);
        auto end = rest.find_first_of(" \n");
        f.push_back(rest.substr(0, end));
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
    }
    if (f.size() < 22) {
        return std::nullopt;
    }
    auto num = [&](std::size_t i) {
        std::int64_t v = 0;
        std::from_chars(f[i].data(), f[i].data() + f[i].size(), v);
        return v;
    };
    st.ppid = static_cast<int>(num(1));
    st.session = static_cast<int>(num(3));
    st.cpuTicks = num(11) + num(12);
    st.rssPages = num(21);
    return st;
}

void UsageTracker::add(std::int64_t rssKb, std::int64_t cpuMs)
{
    m_maxRss = std::max(m_maxRss, rssKb);
    m_sumRss += rssKb;
    ++m_samples;
    m_cpuMs = std::max(m_cpuMs, cpuMs);
}

void UsageTracker::finalCpu(std::int64_t cpuMs)
{
    m_cpuMs = std::max(m_cpuMs, cpuMs);
}

} // namespace mc::emu
