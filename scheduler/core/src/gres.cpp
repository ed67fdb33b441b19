#include "mc/sched/gres.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

namespace mc::sched {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    while (true) {
        const std::size_t at = text.find(separator);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) {
            return parts;
        }
        text.remove_prefix(at + 1);
    }
}

std::optional<int> number(std::string_view text, int max)
{
    int value = 0;
    const char *end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc{} || ptr != end || value < 0 || value > max) {
        return std::nullopt;
    }
    return value;
}

bool isDigit(std::string_view text)
{
    return !text.empty() && std::isdigit(static_cast<unsigned char>(text.front())) != 0;
}

bool isGpu(std::string_view name)
{
    return name.size() == 3 && std::tolower(static_cast<unsigned char>(name[0])) == 'g'
        && std::tolower(static_cast<unsigned char>(name[1])) == 'p'
        && std::tolower(static_cast<unsigned char>(name[2])) == 'u';
}

constexpr int kMaxRequest = 1024; // more than any node has; Slurm's own bound is larger

} // namespace

std::optional<NodeGpus> parseNodeGpus(std::string_view gres)
{
    NodeGpus gpus;
    for (std::string_view item : split(gres, ',')) {
        item = item.substr(0, item.find('('));
        const auto parts = split(item, ':');
        if (item.empty() || parts.front().empty() || parts.size() > 3) {
            return std::nullopt;
        }
        int count = 1;
        std::string_view type;
        if (parts.size() > 1 && isDigit(parts.back())) {
            auto parsed = number(parts.back(), std::numeric_limits<int>::max());
            if (!parsed) {
                return std::nullopt;
            }
            count = *parsed;
            type = parts.size() == 3 ? parts[1] : std::string_view();
        } else if (parts.size() == 3) {
            return std::nullopt;
        } else if (parts.size() == 2) {
            type = parts[1];
        }
        if (isGpu(parts.front())) {
            gpus.count = static_cast<int>(std::min<long long>(
                static_cast<long long>(gpus.count) + count, std::numeric_limits<int>::max()));
            if (gpus.type.empty()) {
                gpus.type = std::string(type);
            }
        }
    }
    return gpus;
}

std::optional<GpuRequest> parseGpuCount(std::string_view text)
{
    const auto parts = split(text, ':');
    if (parts.size() > 2) {
        return std::nullopt;
    }
    auto count = number(parts.back(), kMaxRequest);
    if (!count || (parts.size() == 2 && parts.front().empty())) {
        return std::nullopt;
    }
    return GpuRequest{*count, parts.size() == 2 ? std::string(parts.front()) : std::string(), true};
}

std::optional<GpuRequest> parseGresOption(std::string_view text)
{
    GpuRequest total;
    for (std::string_view item : split(text, ',')) {
        if (item.starts_with("gres/")) {
            item.remove_prefix(5);
        }
        if (item == "none") {
            continue;
        }
        const auto parts = split(item, ':');
        if (item.empty() || parts.size() > 3 || parts.front().empty()) {
            return std::nullopt;
        }
        int count = 1;
        std::string_view type;
        if (parts.size() == 3 || (parts.size() == 2 && isDigit(parts.back()))) {
            auto parsed = number(parts.back(), kMaxRequest);
            if (!parsed) {
                return std::nullopt;
            }
            count = *parsed;
            type = parts.size() == 3 ? parts[1] : std::string_view();
        } else if (parts.size() == 2) {
            type = parts[1]; // "gpu:a100": one GPU of that type
        }
        if (!isGpu(parts.front())) {
            total.known = false;
            continue;
        }
        total.count += count;
        if (!type.empty()) {
            total.type = std::string(type);
        }
    }
    return total;
}

std::string gpuCountText(const std::string &type, int count)
{
    return (type.empty() ? std::string() : type + ":") + std::to_string(count);
}

std::optional<std::vector<int>> pickGpus(int count, const std::vector<int> &taken, int want)
{
    std::vector<int> ids;
    for (int i = 0; i < count && static_cast<int>(ids.size()) < want; ++i) {
        if (std::find(taken.begin(), taken.end(), i) == taken.end()) {
            ids.push_back(i);
        }
    }
    if (static_cast<int>(ids.size()) < want) {
        return std::nullopt;
    }
    return ids;
}

std::string gpuIndexRanges(const std::vector<int> &ids)
{
    std::vector<int> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    std::string out;
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t j = i;
        while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) {
            ++j;
        }
        out += (out.empty() ? "" : ",") + std::to_string(sorted[i]);
        if (j > i) {
            out += "-" + std::to_string(sorted[j]);
        }
        i = j + 1;
    }
    return out;
}

std::string gpuIndexList(const std::vector<int> &ids)
{
    std::string out;
    for (int id : ids) {
        out += (out.empty() ? "" : ",") + std::to_string(id);
    }
    return out;
}

std::vector<int> spreadGpus(int gpus, int nodes, int perNode)
{
    std::vector<int> counts;
    int left = gpus;
    for (int k = 0; k < nodes && left > 0; ++k) {
        const int take = std::min(perNode, left - (nodes - 1 - k));
        if (take < 1) {
            return {};
        }
        counts.push_back(take);
        left -= take;
    }
    if (left > 0 || static_cast<int>(counts.size()) != nodes) {
        return {};
    }
    return counts;
}

} // namespace mc::sched
