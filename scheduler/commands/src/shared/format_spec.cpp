#include "format_spec.h"

#include "text.h"

#include <algorithm>

namespace mc::cmd {

ShortFormat tokenizeShortFormat(std::string_view format, bool allowFitToData)
{
    ShortFormat out;
    const std::vector<std::string> tokens = splitList(format, '%');
    std::size_t first = 0;
    if (!format.empty() && format.front() != '%' && !tokens.empty()) {
        out.prefix = tokens.front();
        first = 1;
    }
    for (std::size_t t = first; t < tokens.size(); ++t) {
        const std::string &token = tokens[t];
        FormatToken spec;
        spec.raw = token;
        std::size_t i = 0;
        if (i < token.size() && token[i] == '.') {
            spec.right = true;
            ++i;
        }
        if (allowFitToData && i < token.size() && token[i] == '#') {
            spec.fitToData = true;
            ++i;
        }
        while (i < token.size() && token[i] >= '0' && token[i] <= '9') {
            spec.width = spec.width * 10 + (token[i++] - '0');
        }
        spec.letter = i < token.size() ? token[i++] : '\0';
        spec.suffix = token.substr(std::min(i, token.size()));
        out.tokens.push_back(std::move(spec));
    }
    return out;
}

std::vector<FormatToken> tokenizeLongFormat(std::string_view format, int defaultWidth)
{
    std::vector<FormatToken> out;
    for (const auto &token : splitList(format, ',')) {
        FormatToken spec;
        const std::size_t colon = token.find(':');
        if (colon == std::string::npos) {
            spec.name = token;
            spec.width = defaultWidth;
        } else {
            spec.name = token.substr(0, colon);
            std::string_view rest = std::string_view(token).substr(colon + 1);
            if (!rest.empty() && rest.front() == '.') {
                spec.right = true;
                rest.remove_prefix(1);
            }
            std::string_view after;
            spec.width = static_cast<int>(parseLeadingInteger(rest, &after));
            spec.suffix = std::string(after);
        }
        out.push_back(std::move(spec));
    }
    return out;
}

std::string fitToWidth(const std::string &value, int width, bool right, bool cut)
{
    std::string out;
    appendFitted(out, value, width, right, cut);
    return out;
}

void appendFitted(std::string &out, std::string_view value, int width, bool right, bool cut)
{
    if (width <= 0) {
        out += value;
        return;
    }
    const auto size = static_cast<std::size_t>(width);
    if (right) {
        if (cut && value.size() > size) {
            out += value.substr(0, size);
            return;
        }
        if (value.size() < size) {
            out.append(size - value.size(), ' ');
        }
        out += value;
        return;
    }
    value = value.substr(0, size);
    out += value;
    out.append(size - value.size(), ' ');
}

} // namespace mc::cmd
