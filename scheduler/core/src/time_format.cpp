#include "mc/sched/time_format.h"

#include "mc/base/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <limits>

namespace mc::sched {
namespace {

using base::equalsIgnoreCase;
using base::startsWithIgnoreCase;

constexpr Seconds kMinute = 60;
constexpr Seconds kHour = 60 * kMinute;
constexpr Seconds kDay = 24 * kHour;
constexpr Seconds kYear = 365 * kDay; // squeue prints longer durations as INVALID
constexpr Seconds kMaxLimit = 2147483647; // Slurm computes time limits in a C int
constexpr Seconds kMinEpoch = 1000000; // "uts<epoch>" below this is refused

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// Digits only; empty is 0. nullopt on anything else or on a value past `max`.
std::optional<Seconds> parseField(std::string_view digits, Seconds max = kMaxLimit)
{
    Seconds value = 0;
    if (digits.empty()) {
        return value;
    }
    const auto *end = digits.data() + digits.size();
    const auto [ptr, ec] = std::from_chars(digits.data(), end, value);
    if (ec != std::errc{} || ptr != end || value > max) {
        return std::nullopt;
    }
    return value;
}

// Slurm's _is_valid_timespec(): digits, at most one '-' and two ':', no '-' after a ':', and
// one digit group per field.
bool isValidTimespec(std::string_view text)
{
    int groups = 0;
    int dashes = 0;
    int colons = 0;
    bool inDigits = false;
    for (const char c : text) {
        if (isDigit(c)) {
            groups += inDigits ? 0 : 1;
            inDigits = true;
        } else if (c == '-') {
            if (colons > 0) {
                return false;
            }
            ++dashes;
            inDigits = false;
        } else if (c == ':') {
            ++colons;
            inDigits = false;
        } else {
            return false;
        }
    }
    if (groups == 0 || dashes > 1 || colons > 2) {
        return false;
    }
    return colons == 0 || groups >= colons + (dashes > 0 ? 2 : 1);
}

// Slurm's time_str2secs() on a valid timespec: "d-h:m:s" forms, "h:m:s", "m:s" or "m".
std::optional<Seconds> timespecSeconds(std::string_view text)
{
    if (text.front() == '-') { // "-N" reads as N negative days
        const auto days = parseField(text.substr(1));
        return days && *days == 0 ? std::optional<Seconds>(0) : std::nullopt;
    }
    Seconds days = 0;
    const auto dash = text.find('-');
    if (dash != std::string_view::npos) {
        const auto parsed = parseField(text.substr(0, dash));
        if (!parsed) {
            return std::nullopt;
        }
        days = *parsed;
        text.remove_prefix(dash + 1);
    }
    std::array<Seconds, 3> fields{};
    std::size_t count = 0;
    while (!text.empty()) {
        const auto colon = text.find(':');
        const auto parsed = parseField(text.substr(0, colon));
        if (!parsed) {
            return std::nullopt;
        }
        fields[count++] = *parsed;
        text.remove_prefix(colon == std::string_view::npos ? text.size() : colon + 1);
    }
    Seconds total = days * kDay;
    if (dash != std::string_view::npos || count == 3) {
        total += fields[0] * kHour + fields[1] * kMinute + fields[2];
    } else {
        total += fields[0] * kMinute + fields[1];
    }
    return total;
}

// "D-HH:MM:SS" past a day, else "H:MM:SS" with the hours zero-padded to `hourWidth` digits.
std::string printDuration(Seconds seconds, int hourWidth)
{
    std::array<char, 64> buffer{};
    const auto days = static_cast<long long>(seconds / kDay);
    const auto hours = static_cast<long long>(seconds / kHour % 24);
    const auto minutes = static_cast<long long>(seconds / kMinute % 60);
    const auto secs = static_cast<long long>(seconds % 60);
    if (days > 0) {
        std::snprintf(
            buffer.data(), buffer.size(), "%lld-%02lld:%02lld:%02lld", days, hours, minutes, secs);
    } else {
        std::snprintf(
            buffer.data(), buffer.size(), "%0*lld:%02lld:%02lld", hourWidth, hours, minutes, secs);
    }
    return buffer.data();
}

// The broken-down fields parseTimeSpec() fills in, with Slurm's "not given" markers.
struct SpecFields {
    int hour = -1;
    int minute = -1;
    int second = 0;
    int month = -1; // 0-based
    int mday = -1;
    int year = -1; // years since 1900
};

std::tm localTm(Seconds epoch)
{
    const auto t = static_cast<std::time_t>(epoch);
    std::tm tm{};
    localtime_r(&t, &tm);
    return tm;
}

void setDate(SpecFields &f, const std::tm &tm)
{
    f.month = tm.tm_mon;
    f.mday = tm.tm_mday;
    f.year = tm.tm_year;
}

class SpecParser {
public:
    SpecParser(std::string_view text, Seconds now, TimeSpecFill fill)
        : m_text(text)
        , m_now(now)
        , m_nowTm(localTm(now))
        , m_past(fill == TimeSpecFill::Past)
    { }

    std::optional<Seconds> parse();

private:
    char at(std::size_t i) const { return i < m_text.size() ? m_text[i] : '\0'; }
    int digit(std::size_t i) const { return at(i) - '0'; }
    bool atEnd() const { return m_pos >= m_text.size() || m_text[m_pos] == '\n'; }
    bool keyword(std::string_view word, int hour);
    bool parseNow();
    bool parseClock();
    bool parseDate();
    std::optional<Seconds> resolve();

    std::string_view m_text;
    Seconds m_now;
    std::tm m_nowTm;
    bool m_past; // sacct's parse_time(text, 1)
    std::size_t m_pos = 0;
    SpecFields m_f;
};

// "midnight", "noon", "fika", "teatime": a clock time without a date.
bool SpecParser::keyword(std::string_view word, int hour)
{
    if (!startsWithIgnoreCase(m_text.substr(m_pos), word)) {
        return false;
    }
    m_f.hour = hour;
    m_f.minute = 0;
    m_f.second = 0;
    m_pos += word.size();
    return true;
}

// "now[{+|-}count[seconds|minutes|hours|days|weeks]]", at m_pos.
bool SpecParser::parseNow()
{
    static constexpr std::array<std::pair<std::string_view, Seconds>, 10> kUnits{{
        {"seconds", 1},
        {"second", 1},
        {"minutes", kMinute},
        {"minute", kMinute},
        {"hours", kHour},
        {"hour", kHour},
        {"days", kDay},
        {"day", kDay},
        {"weeks", 7 * kDay},
        {"week", 7 * kDay},
    }};
    m_pos += 3;
    while (isBlank(at(m_pos))) {
        ++m_pos;
    }
    Seconds delta = 0;
    if (at(m_pos) == '+' || at(m_pos) == '-') {
        const bool negative = at(m_pos) == '-';
        bool anyDigit = false;
        for (++m_pos; !atEnd(); ++m_pos) {
            const char c = at(m_pos);
            if (isSpace(c)) {
                continue;
            }
            const auto rest = m_text.substr(m_pos);
            const auto *unit = std::find_if(kUnits.begin(), kUnits.end(),
                [&](const auto &u) { return startsWithIgnoreCase(rest, u.first); });
            if (unit != kUnits.end()) {
                m_pos += unit->first.size();
                delta *= unit->second;
                break;
            }
            if (!isDigit(c) || delta > kMaxLimit) {
                return false;
            }
            delta = delta * 10 + (c - '0');
            anyDigit = true;
        }
        if (!anyDigit) {
            return false;
        }
        delta = negative ? -delta : delta;
    } else if (!atEnd()) {
        return false;
    }
    const std::tm later = localTm(m_now + delta);
    setDate(m_f, later);
    m_f.hour = later.tm_hour;
    m_f.minute = later.tm_min;
    m_f.second = later.tm_sec;
    return true;
}

// "HH:MM[:SS] [AM|PM]", at m_pos (a digit).
bool SpecParser::parseClock()
{
    int hour = digit(m_pos++);
    if (at(m_pos) != ':') {
        if (!isDigit(at(m_pos))) {
            return false;
        }
        hour = hour * 10 + digit(m_pos++);
    }
    if (hour > 23 || at(m_pos) != ':' || !isDigit(at(m_pos + 1)) || !isDigit(at(m_pos + 2))) {
        return false;
    }
    const int minute = digit(m_pos + 1) * 10 + digit(m_pos + 2);
    m_pos += 3;
    int second = 0;
    if (at(m_pos) == ':') {
        if (!isDigit(at(m_pos + 1)) || !isDigit(at(m_pos + 2))) {
            return false;
        }
        second = digit(m_pos + 1) * 10 + digit(m_pos + 2);
        m_pos += 3;
    }
    if (minute > 59 || second > 59) {
        return false;
    }
    while (isSpace(at(m_pos))) {
        ++m_pos;
    }
    const auto rest = m_text.substr(std::min(m_pos, m_text.size()));
    if (startsWithIgnoreCase(rest, "pm")) {
        hour += 12;
        if (hour > 24) {
            return false;
        }
        hour = hour == 24 ? 12 : hour;
        m_pos += 2;
    } else if (startsWithIgnoreCase(rest, "am")) {
        if (hour > 12) {
            return false;
        }
        hour = hour == 12 ? 0 : hour;
        m_pos += 2;
    }
    m_f.hour = hour;
    m_f.minute = minute;
    m_f.second = second;
    return true;
}

// "YYYY-MM-DD" or "MMDD[YY]", "MM/DD[/YY]", "MM.DD[.YY]", at m_pos (a digit).
bool SpecParser::parseDate()
{
    const auto oneOrTwoDigits = [this](int &value) {
        if (!isDigit(at(m_pos))) {
            return false;
        }
        value = digit(m_pos++);
        if (isDigit(at(m_pos))) {
            value = value * 10 + digit(m_pos++);
        }
        return true;
    };
    int month = 0;
    int day = 0;
    if (at(m_pos + 4) == '-' && at(m_pos + 7) == '-') {
        int year = 0;
        for (int i = 0; i < 4; ++i) {
            if (!isDigit(at(m_pos))) {
                return false;
            }
            year = year * 10 + digit(m_pos++);
        }
        ++m_pos; // '-'
        if (!oneOrTwoDigits(month) || month < 1 || month > 12) {
            return false;
        }
        ++m_pos; // '-'
        if (!oneOrTwoDigits(day) || day < 1 || day > 31) {
            return false;
        }
        m_f.year = year - 1900;
    } else {
        const auto separator = [this] {
            if (at(m_pos) == '.' || at(m_pos) == '/') {
                ++m_pos;
            }
        };
        if (!oneOrTwoDigits(month) || month < 1 || month > 12) {
            return false;
        }
        separator();
        if (!oneOrTwoDigits(day) || day < 1 || day > 31) {
            return false;
        }
        separator();
        if (isDigit(at(m_pos))) {
            if (!isDigit(at(m_pos + 1))) {
                return false;
            }
            const int year = digit(m_pos) * 10 + digit(m_pos + 1);
            m_pos += 2;
            if (year != 0) { // Slurm reads "00" as no year
                m_f.year = year + 100;
            }
        }
    }
    m_f.month = month - 1;
    m_f.mday = day;
    return true;
}

// Fills what was not given as Slurm's parse_time() does, looking ahead or back.
std::optional<Seconds> SpecParser::resolve()
{
    const std::tm &now = m_nowTm;
    if (m_f.hour == -1 && m_f.month == -1) {
        return std::nullopt;
    }
    if (m_f.hour == -1) {
        m_f.hour = 0;
        m_f.minute = 0;
    } else if (m_f.month == -1) {
        const bool laterToday
            = m_f.hour > now.tm_hour || (m_f.hour == now.tm_hour && m_f.minute > now.tm_min);
        setDate(m_f, m_past || laterToday ? now : localTm(m_now + kDay));
    }
    if (m_f.year == -1 && m_past) {
        m_f.year = now.tm_year - (m_f.month > now.tm_mon ? 1 : 0);
    } else if (m_f.year == -1) {
        const auto key = [](int mon, int mday, int hour, int min) {
            return std::array{mon, mday, hour, min};
        };
        const bool thisYear = key(m_f.month, m_f.mday, m_f.hour, m_f.minute)
            > key(now.tm_mon, now.tm_mday, now.tm_hour, now.tm_min);
        m_f.year = now.tm_year + (thisYear ? 0 : 1);
    }
    std::tm result{};
    result.tm_sec = m_f.second;
    result.tm_min = m_f.minute;
    result.tm_hour = m_f.hour;
    result.tm_mday = m_f.mday;
    result.tm_mon = m_f.month;
    result.tm_year = m_f.year;
    result.tm_isdst = -1;
    const std::time_t t = std::mktime(&result);
    if (t == static_cast<std::time_t>(-1)) {
        return std::nullopt;
    }
    return static_cast<Seconds>(t);
}

std::optional<Seconds> SpecParser::parse()
{
    if (startsWithIgnoreCase(m_text, "uts")) {
        const auto epoch = parseField(m_text.substr(3), std::numeric_limits<Seconds>::max());
        if (m_text.size() == 3 || !epoch || *epoch < kMinEpoch) {
            return std::nullopt;
        }
        return epoch;
    }
    while (!atEnd()) {
        const char c = at(m_pos);
        const auto rest = m_text.substr(m_pos);
        if (isBlank(c) || c == '-' || c == 'T') {
            ++m_pos;
        } else if (startsWithIgnoreCase(rest, "today")) {
            setDate(m_f, m_nowTm);
            m_pos += 5;
        } else if (startsWithIgnoreCase(rest, "tomorrow")) {
            setDate(m_f, localTm(m_now + kDay));
            m_pos += 8;
        } else if (keyword("midnight", 0) || keyword("noon", 12) || keyword("fika", 15)
            || keyword("teatime", 16)) {
            continue;
        } else if (startsWithIgnoreCase(rest, "now")) {
            if (!parseNow()) {
                return std::nullopt;
            }
        } else if (!isDigit(c)) {
            return std::nullopt;
        } else if (at(m_pos + 1) == ':' || at(m_pos + 2) == ':') {
            if (!parseClock()) {
                return std::nullopt;
            }
        } else if (!parseDate()) {
            return std::nullopt;
        }
    }
    return resolve();
}

} // namespace

std::optional<Seconds> parseTimeLimit(std::string_view text)
{
    if (text.empty()) {
        return std::nullopt;
    }
    if (text == "-1" || equalsIgnoreCase(text, "INFINITE") || equalsIgnoreCase(text, "UNLIMITED")) {
        return kInfinite;
    }
    if (!isValidTimespec(text)) {
        return std::nullopt;
    }
    const auto seconds = timespecSeconds(text);
    if (!seconds || *seconds > kMaxLimit) {
        return std::nullopt;
    }
    return (*seconds + kMinute - 1) / kMinute * kMinute; // time_str2mins() rounds up
}

std::string formatElapsed(Seconds seconds)
{
    if (seconds == kInfinite) {
        return "UNLIMITED";
    }
    if (seconds < 0 || seconds > kYear) {
        return "INVALID";
    }
    if (seconds >= kHour) {
        return printDuration(seconds, 1);
    }
    std::array<char, 32> buffer{};
    std::snprintf(buffer.data(), buffer.size(), "%lld:%02lld",
        static_cast<long long>(seconds / kMinute), static_cast<long long>(seconds % 60));
    return buffer.data();
}

std::string formatHms(Seconds seconds)
{
    if (seconds == kInfinite) {
        return "UNLIMITED";
    }
    if (seconds < 0) {
        return "INVALID";
    }
    return printDuration(seconds, 2);
}

std::string formatTimestamp(Seconds epoch)
{
    if (epoch <= 0) {
        return "Unknown";
    }
    const std::tm tm = localTm(epoch);
    std::array<char, 64> buffer{};
    std::strftime(buffer.data(), buffer.size(), "%Y-%m-%dT%H:%M:%S", &tm);
    return buffer.data();
}

std::optional<Seconds> parseTimeSpec(std::string_view text, Seconds now, TimeSpecFill fill)
{
    return SpecParser(text, now, fill).parse();
}

} // namespace mc::sched
