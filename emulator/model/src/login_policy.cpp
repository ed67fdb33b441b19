#include "mc/emu/login_policy.h"

#include "mc/base/text.h"
#include "mc/sched/minicluster_conf.h"

#include <algorithm>
#include <cstdio>

namespace mc::emu {

using base::toLower;
using sched::parseNonNegative;

namespace {

std::string cpus(double value)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
}

} // namespace

LoginPolicy parseLoginPolicy(std::string_view confText)
{
    LoginPolicy policy;
    const auto conf = sched::readSiteConf(confText);
    for (const auto &[kind, line, words] : conf.linesOf(sched::SiteKey::LoginPolicy)) {
        const std::string where = line.where();
        for (const std::string &word : words) {
            auto eq = word.find('=');
            if (eq == std::string::npos) {
                continue; // readSiteConf() reports it
            }
            std::string key = toLower(word.substr(0, eq));
            std::string value = word.substr(eq + 1);
            double number = 0;
            if (key == "loginpolicy") {
                std::string v = toLower(value);
                if (v == "throttle") {
                    policy.action = LoginAction::Throttle;
                } else if (v == "kill") {
                    policy.action = LoginAction::Kill;
                } else if (v == "off") {
                    policy.action = LoginAction::Off;
                } else {
                    policy.problems.push_back(
                        where + "LoginPolicy= is throttle, kill or off, not '" + value + "'");
                }
            } else if (key != "cpushare" && key != "window" && key != "grace"
                && key != "throttleshare" && key != "memorymax" && key != "tasksmax") {
                continue; // readSiteConf() reports it
            } else if (!parseNonNegative(value, number)) {
                policy.problems.push_back(where + word.substr(0, eq) + "= needs a number");
            } else if (key == "cpushare") {
                policy.cpuShare = number;
            } else if (key == "window") {
                policy.windowSec = std::max(1, static_cast<int>(number));
            } else if (key == "grace") {
                policy.graceSec = static_cast<int>(number);
            } else if (key == "memorymax") {
                policy.memoryMaxMiB = static_cast<std::int64_t>(number);
            } else if (key == "tasksmax") {
                policy.tasksMax = static_cast<int>(number);
            } else {
                policy.throttleShare = std::max(0.01, number);
            }
        }
    }
    return policy;
}

std::string describeLoginPolicy(const LoginPolicy &p)
{
    if (p.action == LoginAction::Off) {
        return "off (processes on login1 are not watched)";
    }
    std::string what = p.action == LoginAction::Throttle
        ? "throttled to " + cpus(p.throttleShare) + " CPU"
        : "killed";
    return "a process above " + cpus(p.cpuShare) + " CPU for " + std::to_string(p.windowSec)
        + " s is warned, then " + what + " after " + std::to_string(p.graceSec) + " s more";
}

std::string describeLoginLimits(const LoginPolicy &p)
{
    std::string memory = p.memoryMaxMiB > 0
        ? "at most " + std::to_string(p.memoryMaxMiB) + " MiB of memory"
        : "no memory bound";
    std::string tasks = p.tasksMax > 0 ? "at most " + std::to_string(p.tasksMax) + " processes"
                                       : "no process bound";
    return "each user's sessions together: " + memory + ", " + tasks;
}

std::string loginTasksNotice(const LoginPolicy &p)
{
    return "\r\nlogin1: your sessions reached the login node's limit of "
        + std::to_string(p.tasksMax)
        + " processes (TasksMax), so a new one could not start. The login node is shared by "
          "everyone: run heavy work as a job, with sbatch (batch) or salloc (interactive).\r\n";
}

std::string loginMemoryNotice(const LoginPolicy &p)
{
    return "\r\nlogin1: a process of yours was killed: your sessions reached the login node's "
           "limit of "
        + std::to_string(p.memoryMaxMiB)
        + " MiB of memory (MemoryMax). The login node is shared by everyone: run heavy work as "
          "a job, with sbatch (batch) or salloc (interactive).\r\n";
}

std::string loginWarning(const LoginPolicy &p, int pid, const std::string &command)
{
    std::string then = p.action == LoginAction::Throttle ? "throttled" : "killed";
    return "\r\nlogin1: warning: process " + std::to_string(pid) + " (" + command
        + ") has used more than " + cpus(p.cpuShare) + " CPU for " + std::to_string(p.windowSec)
        + " s. The login node is shared by everyone: run heavy work as a job, with sbatch "
          "(batch) or salloc (interactive). It will be "
        + then + " in " + std::to_string(p.graceSec) + " s if it goes on.\r\n";
}

std::string loginActionNotice(
    const LoginPolicy &p, int pid, const std::string &command, bool throttled)
{
    std::string done
        = throttled ? "is now throttled to " + cpus(p.throttleShare) + " CPU" : "was killed";
    return "\r\nlogin1: process " + std::to_string(pid) + " (" + command + ") " + done
        + ": it kept using more than " + cpus(p.cpuShare)
        + " CPU on the login node. Run it as a job: sbatch script.sh, or salloc for an "
          "interactive session on a compute node.\r\n";
}

LoginWatch::LoginWatch(LoginPolicy policy)
    : m_policy(std::move(policy))
{ }

std::vector<LoginDecision> LoginWatch::observe(
    std::int64_t nowMs, const std::vector<LoginSample> &samples)
{
    std::vector<LoginDecision> out;
    std::map<int, Tracked> seen;
    const std::int64_t windowMs = static_cast<std::int64_t>(m_policy.windowSec) * 1000;
    for (const auto &s : samples) {
        auto it = m_procs.find(s.pid);
        Tracked t = it != m_procs.end() ? std::move(it->second) : Tracked{};
        if (!t.history.empty() && s.cpuMs < t.history.back().second) {
            t = Tracked{}; // the pid was reused by another process
        }
        t.history.emplace_back(nowMs, s.cpuMs);
        // Keep the newest point at least a window old as the baseline, and what follows.
        while (t.history.size() > 2 && t.history[1].first <= nowMs - windowMs) {
            t.history.erase(t.history.begin());
        }
        const auto &[since, cpuThen] = t.history.front();
        const std::int64_t span = nowMs - since;
        const bool over = m_policy.action != LoginAction::Off && span >= windowMs
            && static_cast<double>(s.cpuMs - cpuThen)
                > m_policy.cpuShare * static_cast<double>(span);
        if (!t.acted) {
            if (!over) {
                t.warnedAt = -1;
            } else if (t.warnedAt < 0) {
                t.warnedAt = nowMs;
                out.push_back({LoginDecision::Kind::Warn, s.pid, s.command});
            } else if (nowMs - t.warnedAt >= static_cast<std::int64_t>(m_policy.graceSec) * 1000) {
                t.acted = true;
                out.push_back({m_policy.action == LoginAction::Kill ? LoginDecision::Kind::Kill
                                                                    : LoginDecision::Kind::Throttle,
                    s.pid, s.command});
            }
        }
        seen.emplace(s.pid, std::move(t));
    }
    m_procs = std::move(seen); // processes that ended are forgotten
    return out;
}

} // namespace mc::emu
