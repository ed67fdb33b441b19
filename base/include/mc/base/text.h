#pragma once
// Small text helpers shared by every folder (std only, ASCII): case, trimming, lists. One copy
// here instead of one per file (issue #14).

#include <string>
#include <string_view>
#include <vector>

namespace mc::base {

// Blanks the helpers below trim by default: space, tab, CR, LF.
inline constexpr std::string_view kBlanks = " \t\r\n";

// `text` without the leading and trailing characters of `blanks`.
std::string trim(std::string_view text, std::string_view blanks = kBlanks);

// ASCII case-insensitive equality ("PENDING" == "pending").
bool equalsIgnoreCase(std::string_view a, std::string_view b);
// ASCII case-insensitive prefix test.
bool startsWithIgnoreCase(std::string_view text, std::string_view prefix);

// ASCII lower-case and upper-case copies.
std::string toLower(std::string_view text);
std::string toUpper(std::string_view text);

// Splits on `separator` and drops empty pieces, as strtok() does ("a,,b," -> a b).
std::vector<std::string> splitList(std::string_view text, char separator = ',');
// The words of `text` between runs of white space (as `std::istream >> word` reads them).
std::vector<std::string> splitWords(std::string_view text);

} // namespace mc::base
