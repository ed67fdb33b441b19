#include "mc/sched/conf_text.h"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace mc::sched {

std::string ConfLine::where() const
{
    return "minicluster.conf:" + std::to_string(number) + ": ";
}

std::vector<ConfLine> confLines(std::string_view text)
{
    std::vector<ConfLine> lines;
    std::istringstream in{std::string(text)};
    std::string line;
    while (std::getline(in, line)) {
        if (auto hash = line.find('#'); hash != std::string::npos) {
            line.erase(hash);
        }
        lines.push_back({static_cast<int>(lines.size()) + 1, std::move(line)});
    }
    return lines;
}

std::vector<std::string> splitConfWords(std::string_view line)
{
    std::vector<std::string> words;
    std::string current;
    bool quoted = false;
    for (char c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if ((c == ' ' || c == '\t') && !quoted) {
            if (!current.empty()) {
                words.push_back(std::move(current));
                current.clear();
            }
        } else {
            current += c;
        }
    }
    if (!current.empty()) {
        words.push_back(std::move(current));
    }
    return words;
}

} // namespace mc::sched
