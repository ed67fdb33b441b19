#include "mc/sched/batch_script.h"

#include "mc/base/text.h"

#include <cctype>
#include <optional>

namespace mc::sched {
namespace {

using base::startsWithIgnoreCase;

bool isSpace(char c)
{
    return std::isspace(static_cast<unsigned char>(c)) != 0;
}

std::string_view skipSpaces(std::string_view text)
{
    while (!text.empty() && isSpace(text.front())) {
        text.remove_prefix(1);
    }
    return text;
}

// A "hetjob" (or older "packjob") word separating heterogeneous job components.
bool isHetJobSeparator(std::string_view directive)
{
    for (const std::string_view word : {"hetjob", "packjob"}) {
        if (startsWithIgnoreCase(directive, word)
            && (directive.size() == word.size() || isSpace(directive[word.size()]))) {
            return true;
        }
    }
    return false;
}

// sbatch's get_argument(): the next word of `rest`, consumed from it. Backslash escapes one
// character, '…' and "…" group, an unquoted '#' ends the line. nullopt when no word is left
// (an empty word such as "" also ends the line, as in sbatch).
std::optional<std::string> nextWord(std::string_view &rest)
{
    rest = skipSpaces(rest);
    std::string word;
    bool escaped = false;
    char quote = '\0';
    std::size_t i = 0;
    for (; i < rest.size() && (quote != '\0' || !isSpace(rest[i])); ++i) {
        const char c = rest[i];
        if (escaped) {
            escaped = false;
        } else if (c == '\\') {
            escaped = true;
            continue;
        } else if (quote != '\0') {
            if (c == quote) {
                quote = '\0';
                continue;
            }
        } else if (c == '"' || c == '\'') {
            quote = c;
            continue;
        } else if (c == '#') {
            break;
        }
        word += c;
    }
    rest.remove_prefix(i);
    if (word.empty()) {
        return std::nullopt;
    }
    return word;
}

// True when the line is blank or a comment, i.e. does not end the directive block.
bool isBlankOrComment(std::string_view line)
{
    line = skipSpaces(line);
    return line.empty() || line.front() == '#';
}

} // namespace

bool hasShebang(std::string_view script)
{
    return script.size() >= 2 && script[0] == '#' && script[1] == '!';
}

std::vector<std::string> parseDirectives(std::string_view script, std::string_view prefix)
{
    constexpr std::string_view kDefaultPrefix = "#SBATCH";
    constexpr std::string_view kOldPrefix = "#SLURM"; // still read by sbatch, with a warning
    std::vector<std::string> words;
    while (!script.empty()) {
        const auto newline = script.find('\n');
        const auto line = script.substr(0, newline);
        script.remove_prefix(newline == std::string_view::npos ? script.size() : newline + 1);

        std::string_view rest;
        if (line.starts_with(prefix)) {
            rest = line.substr(prefix.size());
        } else if (prefix == kDefaultPrefix && line.starts_with(kOldPrefix)) {
            rest = line.substr(kOldPrefix.size());
        } else if (isBlankOrComment(line)) {
            continue;
        } else {
            break;
        }
        if (isHetJobSeparator(skipSpaces(rest))) {
            break;
        }
        while (auto word = nextWord(rest)) {
            words.push_back(std::move(*word));
        }
    }
    return words;
}

} // namespace mc::sched
