#include "mc/sched/job_array.h"

#include <algorithm>
#include <charconv>

namespace mc::sched {
namespace {

std::optional<std::uint32_t> number(std::string_view text)
{
    std::uint32_t value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || ptr != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

} // namespace

std::optional<ArraySpec> parseArraySpec(std::string_view text)
{
    ArraySpec spec;
    if (const auto percent = text.find('%'); percent != std::string_view::npos) {
        // Slurm reads the throttle with strtol: its leading digits, the rest ignored; none, a
        // sign or 0 is no limit ("1-3%" is accepted).
        const std::string_view after = text.substr(percent + 1);
        const auto digits = number(after.substr(0, after.find_first_not_of("0123456789")));
        spec.maxRunning = digits ? static_cast<int>(std::min<std::uint32_t>(*digits, 1u << 16)) : 0;
        text = text.substr(0, percent);
    }
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        text.remove_prefix(comma == std::string_view::npos ? text.size() : comma + 1);
        std::uint32_t step = 1;
        if (const auto colon = item.find(':'); colon != std::string_view::npos) {
            const auto s = number(item.substr(colon + 1));
            if (!s || *s == 0) {
                return std::nullopt;
            }
            step = *s;
            item = item.substr(0, colon);
        }
        const auto dash = item.find('-');
        const auto first = number(item.substr(0, dash));
        const auto last = dash == std::string_view::npos ? first : number(item.substr(dash + 1));
        if (!first || !last || *last < *first || *last > kMaxArrayTaskId) {
            return std::nullopt;
        }
        for (std::uint32_t id = *first; id <= *last; id += step) {
            spec.taskIds.push_back(id);
        }
    }
    std::sort(spec.taskIds.begin(), spec.taskIds.end());
    spec.taskIds.erase(std::unique(spec.taskIds.begin(), spec.taskIds.end()), spec.taskIds.end());
    if (spec.taskIds.empty()) {
        return std::nullopt;
    }
    return spec;
}

std::optional<JobIdSpec> parseJobIdSpec(std::string_view text)
{
    const auto underscore = text.find('_');
    const auto job = number(text.substr(0, underscore));
    if (!job || *job == 0) {
        return std::nullopt;
    }
    JobIdSpec spec{*job, {}};
    if (underscore == std::string_view::npos) {
        return spec;
    }
    std::string_view tasks = text.substr(underscore + 1);
    if (tasks.size() > 2 && tasks.front() == '[' && tasks.back() == ']') {
        tasks = tasks.substr(1, tasks.size() - 2);
        const auto array
            = tasks.find('%') == std::string_view::npos ? parseArraySpec(tasks) : std::nullopt;
        if (!array) {
            return std::nullopt;
        }
        spec.tasks = array->taskIds;
        return spec;
    }
    const auto task = number(tasks);
    if (!task) {
        return std::nullopt;
    }
    spec.tasks.push_back(*task);
    return spec;
}

std::string formatArrayTasks(const std::vector<std::uint32_t> &taskIds, int maxRunning)
{
    std::string text = "[";
    for (std::size_t i = 0; i < taskIds.size();) {
        std::size_t j = i;
        while (j + 1 < taskIds.size() && taskIds[j + 1] == taskIds[j] + 1) {
            ++j;
        }
        if (i > 0) {
            text += ',';
        }
        text += std::to_string(taskIds[i]);
        if (j > i) {
            text += '-' + std::to_string(taskIds[j]);
        }
        i = j + 1;
    }
    if (maxRunning > 0) {
        text += '%' + std::to_string(maxRunning);
    }
    return text + "]";
}

} // namespace mc::sched
