#include "mc/base/text.h"

#include <algorithm>
#include <cctype>

namespace mc::base {
namespace {

char lower(char c)
{
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

} // namespace

std::string trim(std::string_view text, std::string_view blanks)
{
    const auto first = text.find_first_not_of(blanks);
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(blanks);
    return std::string(text.substr(first, last - first + 1));
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && startsWithIgnoreCase(a, b);
}

bool startsWithIgnoreCase(std::string_view text, std::string_view prefix)
{
    return text.size() >= prefix.size()
        && std::equal(prefix.begin(), prefix.end(), text.begin(),
            [](char a, char b) { return lower(a) == lower(b); });
}

std::string toLower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), lower);
    return out;
}

std::string toUpper(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
        [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
    return out;
}

std::vector<std::string> splitList(std::string_view text, char separator)
{
    std::vector<std::string> pieces;
    while (!text.empty()) {
        const auto at = text.find(separator);
        if (at != 0) {
            pieces.emplace_back(text.substr(0, at));
        }
        text.remove_prefix(at == std::string_view::npos ? text.size() : at + 1);
    }
    return pieces;
}

std::vector<std::string> splitWords(std::string_view text)
{
    std::vector<std::string> words;
    std::size_t at = 0;
    while (true) {
        while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])) != 0) {
            ++at;
        }
        if (at == text.size()) {
            return words;
        }
        const std::size_t start = at;
        while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])) == 0) {
            ++at;
        }
        words.emplace_back(text.substr(start, at - start));
    }
}

} // namespace mc::base
