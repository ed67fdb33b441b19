#include "mc/sched/memory.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace mc::sched {
namespace {

constexpr MiB kMiBPerGiB = 1024;
constexpr MiB kMiBPerTiB = 1024 * 1024;

// Slurm's _end_on_byte(): the unit letter may be followed by one 'B' and nothing else.
bool endsAfterUnit(std::string_view rest)
{
    return rest.size() == 1 || (rest.size() == 2 && (rest[1] == 'B' || rest[1] == 'b'));
}

} // namespace

std::optional<MiB> parseMemory(std::string_view text)
{
    // strtoll() as str_to_mbytes() uses it: leading blanks, an optional sign, decimal digits.
    std::size_t pos = 0;
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])) != 0) {
        ++pos;
    }
    bool negative = false;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        negative = text[pos] == '-';
        ++pos;
    }
    const std::size_t digitsStart = pos;
    MiB value = 0;
    constexpr MiB kMax = std::numeric_limits<MiB>::max();
    for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
        const int d = text[pos] - '0';
        if (value > (kMax - d) / 10) {
            return std::nullopt;
        }
        value = value * 10 + d;
    }
    if (pos == digitsStart || (negative && value != 0)) {
        return std::nullopt;
    }
    const auto rest = text.substr(pos);
    if (rest.empty()) {
        return value;
    }
    if (!endsAfterUnit(rest)) {
        return std::nullopt;
    }
    switch (rest.front()) {
    case 'k':
    case 'K':
        return (value + 1023) / 1024;
    case 'm':
    case 'M':
        return value;
    case 'g':
    case 'G':
        return value <= kMax / kMiBPerGiB ? std::optional<MiB>(value * kMiBPerGiB) : std::nullopt;
    case 't':
    case 'T':
        return value <= kMax / kMiBPerTiB ? std::optional<MiB>(value * kMiBPerTiB) : std::nullopt;
    default:
        return std::nullopt;
    }
}

std::string formatMemory(MiB mib)
{
    // Slurm's convert_num_unit() with CONVERT_NUM_UNIT_EXACT, starting from MiB: divide by 1024
    // while the value is a whole multiple of 512, so half units ("1.50G") still count as exact.
    static constexpr std::array kUnits{'M', 'G', 'T', 'P', '?'};
    if (mib == 0) {
        return "0";
    }
    if (mib < 0) {
        return std::to_string(mib) + "M";
    }
    auto value = static_cast<double>(mib);
    std::size_t unit = 0;
    while (value >= 1024.0 && static_cast<std::uint64_t>(value) % 512 == 0) {
        value /= 1024.0;
        ++unit;
    }
    const char symbol = kUnits[std::min(unit, kUnits.size() - 1)]; // past P: Slurm's '?'
    const auto whole = static_cast<std::uint64_t>(value);
    std::array<char, 48> buffer{};
    if (static_cast<double>(whole) == value) {
        std::snprintf(
            buffer.data(), buffer.size(), "%llu%c", static_cast<unsigned long long>(whole), symbol);
    } else {
        std::snprintf(buffer.data(), buffer.size(), "%.2f%c", value, symbol);
    }
    return buffer.data();
}

} // namespace mc::sched
