#include "mc/sched/hostlist.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>

namespace mc::sched {
namespace {

constexpr std::uint64_t kMaxRange = 64 * 1024; // Slurm: a larger range is taken as an error
constexpr std::size_t kMaxHosts = 1024 * 1024; // ours: bounds what one expression may expand to
constexpr std::string_view kSeparators = "\t, ";

// A run of numbered hosts "<prefix><lo..hi>" printed with `width` digits, or one host without a
// numeric suffix (single). Mirrors Slurm's hostrange_t.
struct HostRange {
    std::string prefix;
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    int width = 0;
    bool single = false;
};

std::string padded(std::uint64_t number, int width)
{
    std::array<char, 32> buffer{};
    std::snprintf(
        buffer.data(), buffer.size(), "%0*llu", width, static_cast<unsigned long long>(number));
    return buffer.data();
}

bool isDigits(std::string_view text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

std::optional<std::uint64_t> toNumber(std::string_view digits)
{
    std::uint64_t value = 0;
    const auto *end = digits.data() + digits.size();
    const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
    if (!isDigits(digits) || ec != std::errc{} || ptr != end) {
        return std::nullopt;
    }
    return value;
}

// Every '[' is closed by a ']' before the next '['.
bool bracketsBalanced(std::string_view text)
{
    bool open = false;
    for (const char c : text) {
        if (c == '[' || c == ']') {
            if (open == (c == '[')) {
                return false;
            }
            open = !open;
        }
    }
    return !open;
}

// Splits on blanks and commas outside brackets (Slurm's _next_tok()).
std::vector<std::string_view> tokens(std::string_view text)
{
    std::vector<std::string_view> result;
    std::size_t start = 0;
    bool inBracket = false;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        const bool end = i == text.size();
        if (!end && (text[i] == '[' || text[i] == ']')) {
            inBracket = text[i] == '[';
        }
        if (end || (!inBracket && kSeparators.find(text[i]) != std::string_view::npos)) {
            if (i > start) {
                result.push_back(text.substr(start, i - start));
            }
            start = i + 1;
        }
    }
    return result;
}

// "lo" or "lo-hi" inside brackets; the width is the length of "lo" as written.
std::optional<HostRange> parseRange(std::string_view text)
{
    const auto dash = text.find('-');
    const auto loText = text.substr(0, dash);
    const auto hiText = dash == std::string_view::npos ? loText : text.substr(dash + 1);
    const auto lo = toNumber(loText);
    const auto hi = hiText.empty() ? lo : toNumber(hiText); // Slurm reads "5-" as "5"
    if (!lo || !hi || *lo > *hi || *hi - *lo + 1 > kMaxRange) {
        return std::nullopt;
    }
    return HostRange{{}, *lo, *hi, static_cast<int>(loText.size()), false};
}

std::optional<std::vector<HostRange>> parseRangeList(std::string_view text)
{
    std::vector<HostRange> ranges;
    while (true) {
        const auto comma = text.find(',');
        const auto range = parseRange(text.substr(0, comma));
        if (!range) {
            return std::nullopt;
        }
        ranges.push_back(*range);
        if (comma == std::string_view::npos) {
            return ranges;
        }
        text.remove_prefix(comma + 1);
    }
}

// Expands `ranges` after `prefix`; brackets left in the prefix ("rack[1-2]n") multiply out,
// the last one outermost, as Slurm's _push_range_list() does.
bool pushRanges(
    std::vector<std::string> &out, std::string_view prefix, const std::vector<HostRange> &ranges)
{
    const auto open = prefix.rfind('[');
    if (open == std::string_view::npos) {
        for (const auto &range : ranges) {
            if (out.size() + (range.hi - range.lo + 1) > kMaxHosts) {
                return false;
            }
            for (auto n = range.lo; n <= range.hi; ++n) {
                out.push_back(std::string(prefix) + padded(n, range.width));
            }
        }
        return true;
    }
    const auto close = prefix.find(']', open);
    const auto outer = parseRangeList(prefix.substr(open + 1, close - open - 1));
    if (!outer) {
        return false;
    }
    std::uint64_t count = 0;
    for (const auto &range : *outer) {
        count += range.hi - range.lo + 1;
    }
    if (count > kMaxRange) {
        return false;
    }
    const auto head = prefix.substr(0, open);
    const auto tail = prefix.substr(close + 1);
    for (const auto &range : *outer) {
        for (auto n = range.lo; n <= range.hi; ++n) {
            const std::string inner
                = std::string(head) + padded(n, range.width) + std::string(tail);
            if (!pushRanges(out, inner, ranges)) {
                return false;
            }
        }
    }
    return true;
}

// Slurm's hostname_create(): the trailing digits are the number, the rest the prefix.
HostRange rangeOfHost(const std::string &name)
{
    const auto digitsAt = name.find_last_not_of("0123456789") + 1; // npos + 1 == 0
    const auto number = toNumber(std::string_view(name).substr(digitsAt));
    if (!number) {
        return HostRange{name, 0, 0, 0, true};
    }
    return HostRange{name.substr(0, digitsAt), *number, *number,
        static_cast<int>(name.size() - digitsAt), false};
}

int zerosToPad(std::uint64_t number, int width)
{
    int digits = 1;
    for (number /= 10; number > 0; number /= 10) {
        ++digits;
    }
    return width > digits ? width - digits : 0;
}

// Slurm's _width_equiv(): two widths are compatible if one of them can print both numbers
// unchanged; on success both widths are set to that one.
bool widthsCombine(HostRange &a, HostRange &b)
{
    if (a.width == b.width) {
        return true;
    }
    const bool aKeeps = zerosToPad(a.lo, a.width) == zerosToPad(a.lo, b.width);
    const bool bKeeps = zerosToPad(b.lo, b.width) == zerosToPad(b.lo, a.width);
    if (!aKeeps && !bKeeps) {
        return false;
    }
    if (!aKeeps) {
        b.width = a.width;
    } else {
        a.width = b.width;
    }
    return true;
}

bool samePrefix(const HostRange &a, const HostRange &b)
{
    return a.prefix == b.prefix && a.single == b.single;
}

// Both numbered hosts with the same prefix: they share one bracket.
bool shareBracket(const HostRange &a, const HostRange &b)
{
    return samePrefix(a, b) && !a.single && !b.single;
}

std::string numbers(const HostRange &range)
{
    std::string text = padded(range.lo, range.width);
    if (range.lo < range.hi) {
        text += '-' + padded(range.hi, range.width);
    }
    return text;
}

} // namespace

std::optional<std::vector<std::string>> expandHostlist(std::string_view text)
{
    if (!bracketsBalanced(text)) {
        return std::nullopt;
    }
    std::vector<std::string> hosts;
    for (const auto token : tokens(text)) {
        const auto open = token.rfind('[');
        if (open == std::string_view::npos) {
            hosts.emplace_back(token);
            continue;
        }
        const auto close = token.find(']', open);
        if (close + 1 != token.size()) { // Slurm 22.05 takes no suffix after the last bracket
            return std::nullopt;
        }
        const auto ranges = parseRangeList(token.substr(open + 1, close - open - 1));
        if (!ranges || !pushRanges(hosts, token.substr(0, open), *ranges)) {
            return std::nullopt;
        }
    }
    return hosts;
}

std::string compressHostlist(const std::vector<std::string> &names)
{
    // Slurm's hostlist_push_host(): a host extends the previous range when it is the next number
    // with the same prefix and a compatible width.
    std::vector<HostRange> ranges;
    for (const auto &name : names) {
        if (name.empty()) {
            continue;
        }
        HostRange range = rangeOfHost(name);
        if (!ranges.empty()) {
            HostRange &last = ranges.back();
            if (range.lo > 0 && last.hi == range.lo - 1 && samePrefix(last, range)
                && widthsCombine(last, range)) {
                last.hi = range.hi;
                continue;
            }
        }
        ranges.push_back(std::move(range));
    }
    // Slurm's hostlist_ranged_string(): neighbouring ranges with one prefix share a bracket.
    std::string text;
    for (std::size_t i = 0; i < ranges.size();) {
        if (i > 0) {
            text += ',';
        }
        const std::size_t first = i;
        const bool bracket = ranges[i].hi > ranges[i].lo
            || (i + 1 < ranges.size() && shareBracket(ranges[i], ranges[i + 1]));
        text += ranges[i].prefix;
        text += bracket ? "[" : "";
        do {
            text += i > first ? "," : "";
            text += ranges[i].single ? std::string() : numbers(ranges[i]);
        } while (++i < ranges.size() && shareBracket(ranges[i], ranges[i - 1]));
        text += bracket ? "]" : "";
    }
    return text;
}

std::string compressCounts(const std::vector<int> &counts)
{
    std::string out;
    for (std::size_t i = 0; i < counts.size();) {
        std::size_t j = i;
        while (j < counts.size() && counts[j] == counts[i]) {
            ++j;
        }
        if (!out.empty()) {
            out += ',';
        }
        out += std::to_string(counts[i]);
        if (j - i > 1) {
            out += "(x" + std::to_string(j - i) + ")";
        }
        i = j;
    }
    return out;
}

std::vector<int> blockTaskCounts(int tasks, int nodes)
{
    if (nodes < 1) {
        return {};
    }
    std::vector<int> counts(static_cast<std::size_t>(nodes), tasks / nodes);
    for (int i = 0; i < tasks % nodes; ++i) {
        counts[static_cast<std::size_t>(i)] += 1;
    }
    return counts;
}

std::vector<int> fillTaskCounts(int tasks, int nodes, int perNode)
{
    if (nodes < 1 || tasks < nodes || perNode < 1
        || static_cast<long long>(nodes) * perNode < tasks) {
        return blockTaskCounts(tasks, nodes);
    }
    std::vector<int> counts(static_cast<std::size_t>(nodes), 1);
    int rest = tasks - nodes;
    for (int &count : counts) {
        const int more = std::min(rest, perNode - 1);
        count += more;
        rest -= more;
    }
    return counts;
}

} // namespace mc::sched
