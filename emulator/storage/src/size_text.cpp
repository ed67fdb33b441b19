#include "mc/storage/size_text.h"

#include <array>
#include <charconv>
#include <cstdio>

namespace mc::storage {

namespace {

std::optional<std::int64_t> parseScaled(std::string_view text, std::int64_t base)
{
    if (text == "none" || text == "None" || text == "NONE") {
        return 0;
    }
    std::int64_t value = 0;
    auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || value < 0) {
        return std::nullopt;
    }
    std::string_view unit(p, static_cast<std::size_t>(text.data() + text.size() - p));
    if (unit == "B" || unit.empty()) {
        return value;
    }
    static constexpr std::string_view kUnits = "kmgtp";
    char u = unit[0];
    if (u >= 'A' && u <= 'Z') {
        u = static_cast<char>(u - 'A' + 'a');
    }
    auto pos = kUnits.find(u);
    if (pos == std::string_view::npos || unit.size() > 2 || (unit.size() == 2 && unit[1] != 'B')) {
        return std::nullopt;
    }
    for (std::size_t i = 0; i <= pos; ++i) {
        value *= base;
    }
    return value;
}

std::string formatScaled(std::int64_t value, std::int64_t base)
{
    static constexpr std::array<const char *, 6> kSuffix = {"", "k", "M", "G", "T", "P"};
    std::size_t unit = 0;
    std::int64_t scaled = value;
    while (scaled >= 10000 && unit + 1 < kSuffix.size()) {
        scaled /= base;
        ++unit;
    }
    return std::to_string(scaled) + kSuffix[unit];
}

} // namespace

std::optional<std::int64_t> parseSize(std::string_view text)
{
    return parseScaled(text, 1024);
}

std::optional<std::int64_t> parseCount(std::string_view text)
{
    return parseScaled(text, 1000);
}

std::string formatSize(std::int64_t bytes)
{
    return formatScaled(bytes, 1024);
}

std::string formatCount(std::int64_t count)
{
    return formatScaled(count, 1000);
}

std::string humanSize(std::int64_t bytes)
{
    static constexpr std::array<const char *, 5> kUnit = {"bytes", "KB", "MB", "GB", "TB"};
    if (bytes < 1024) {
        return std::to_string(bytes) + " bytes";
    }
    double v = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (v >= 1024.0 && unit + 1 < kUnit.size()) {
        v /= 1024.0;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnit[unit]);
    return buf;
}

} // namespace mc::storage
