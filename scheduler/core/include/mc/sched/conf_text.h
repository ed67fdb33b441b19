#pragma once
// Reading etc/minicluster.conf, the pieces its readers share (minicluster_conf.h reads the
// file, the readers of each kind of line read their values): its lines with comments cut,
// Key=Value words, whole-text numbers.

#include <charconv>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace mc::sched {

// One line of the file with its '#' comment cut, and its 1-based number.
struct ConfLine {
    int number = 0;
    std::string text;

    // "minicluster.conf:N: ", the prefix of every problem reported about this line.
    std::string where() const;
};

// Every line of `text`, blank ones included (so the numbers are those an editor shows).
std::vector<ConfLine> confLines(std::string_view text);

// Words separated by blanks (space, tab); a "quoted" run keeps its blanks, the quotes dropped.
std::vector<std::string> splitConfWords(std::string_view line);

// The whole of `text` as a non-negative number (int, long or double); false (and `out`
// unspecified) for anything else: empty, a sign, trailing text, a negative value.
template <class Number> bool parseNonNegative(std::string_view text, Number &out)
{
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

} // namespace mc::sched
