#include "text.h"

#include <cctype>
#include <charconv>

namespace mc::cmd {

std::string invalidTimeLine(std::string_view text)
{
    return "Invalid time specification (pos=0): " + std::string(text) + "\n";
}

std::string errorLine(std::string_view program, std::string_view message)
{
    std::string line(program);
    line += ": error: ";
    line += message;
    line += '\n';
    return line;
}

std::vector<std::string> splitJobIdList(std::string_view text)
{
    std::vector<std::string> ids;
    std::string current;
    int depth = 0;
    for (const char c : text) {
        depth += c == '[' ? 1 : (c == ']' ? -1 : 0);
        if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n')) {
            if (!current.empty()) {
                ids.push_back(std::move(current));
                current.clear();
            }
            continue;
        }
        current += c;
    }
    if (!current.empty()) {
        ids.push_back(std::move(current));
    }
    return ids;
}

std::optional<std::int64_t> parseInteger(std::string_view text)
{
    std::int64_t value = 0;
    const char *begin = text.data();
    const char *end = text.data() + text.size();
    if (begin != end && *begin == '+') {
        ++begin;
    }
    auto [ptr, ec] = std::from_chars(begin, end, value);
    if (begin == end || ec != std::errc{} || ptr != end) {
        return std::nullopt;
    }
    return value;
}

std::int64_t parseLeadingInteger(std::string_view text, std::string_view *rest)
{
    std::size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) {
        ++i;
    }
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        negative = text[i] == '-';
        ++i;
    }
    const std::size_t digits = i;
    std::int64_t value = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        if (value < (std::int64_t{1} << 60)) {
            value = value * 10 + (text[i] - '0');
        }
        ++i;
    }
    if (i == digits) {
        if (rest) {
            *rest = text;
        }
        return 0;
    }
    if (rest) {
        *rest = text.substr(i);
    }
    return negative ? -value : value;
}

std::string padLeft(std::string_view text, std::size_t width)
{
    std::string padded;
    if (text.size() < width) {
        padded.assign(width - text.size(), ' ');
    }
    padded += text;
    return padded;
}

std::string padRight(std::string_view text, std::size_t width)
{
    std::string padded(text);
    if (padded.size() < width) {
        padded.append(width - padded.size(), ' ');
    }
    return padded;
}

std::string absolutePath(std::string_view path, std::string_view base)
{
    if (!path.empty() && path.front() == '/') {
        return std::string(path);
    }
    std::string full(base);
    if (full.empty() || full.back() != '/') {
        full += '/';
    }
    full += path;
    return full;
}

std::string baseName(std::string_view path)
{
    const std::size_t slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

namespace {

std::string tableCell(const TableColumn &column, const std::string &value, int parsable)
{
    if (parsable) {
        return value;
    }
    const std::string cut = column.markCut && value.size() > column.width
        ? value.substr(0, column.width - 1) + "+"
        : value.substr(0, column.width);
    return column.right ? padLeft(cut, column.width) : padRight(cut, column.width);
}

std::string tableLine(
    const std::vector<TableColumn> &columns, const std::vector<std::string> &values, int parsable)
{
    std::string text;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        text += tableCell(columns[i], values[i], parsable);
        if (parsable != 2 || i + 1 < columns.size()) {
            text += parsable ? "|" : " ";
        }
    }
    return text + "\n";
}

} // namespace

std::string tableText(const std::vector<TableColumn> &columns,
    const std::vector<std::string> &headers, const std::vector<std::vector<std::string>> &rows,
    bool noHeader, int parsable)
{
    std::string out;
    if (!noHeader) {
        out += tableLine(columns, headers, parsable);
        if (!parsable) {
            std::vector<std::string> rule;
            for (const auto &column : columns) {
                rule.emplace_back(column.width, '-');
            }
            out += tableLine(columns, rule, 0);
        }
    }
    for (const auto &row : rows) {
        out += tableLine(columns, row, parsable);
    }
    return out;
}

} // namespace mc::cmd
