#include "squeue_fields.h"
#include "text.h"

namespace mc::cmd::squeue {
namespace {

// Slurm's _print_str(): right-justified values are cut only when `cut`; left-justified ones
// always are (printf's "%.*s"); width 0 prints the value as it is.
std::string fit(const std::string &value, int width, bool right, bool cut)
{
    if (width <= 0) {
        return value;
    }
    const auto size = static_cast<std::size_t>(width);
    if (right) {
        return (cut && value.size() > size) ? value.substr(0, size) : padLeft(value, size);
    }
    return padRight(value.substr(0, size), size);
}

const Field *byLetter(char letter)
{
    for (const auto &field : fieldTable()) {
        if (field.letter == letter) {
            return &field;
        }
    }
    return nullptr;
}

const Field *byName(std::string_view name)
{
    const std::string lower = toLower(name);
    for (const auto &field : fieldTable()) {
        if (!field.name.empty() && field.name == lower) {
            return &field;
        }
    }
    if (lower.rfind("numtask", 0) == 0) {
        return byName("numtasks");
    }
    return nullptr;
}

} // namespace

std::vector<Column> parseFormat(std::string_view format, std::string &errors)
{
    std::vector<Column> columns;
    const std::vector<std::string> tokens = splitList(format, '%');
    std::size_t first = 0;
    if (!format.empty() && format.front() != '%' && !tokens.empty()) {
        columns.push_back(Column{nullptr, 0, false, tokens.front()});
        first = 1;
    }
    for (std::size_t t = first; t < tokens.size(); ++t) {
        const std::string &token = tokens[t];
        Column column;
        std::size_t i = 0;
        if (i < token.size() && token[i] == '.') {
            column.right = true;
            ++i;
        }
        while (i < token.size() && token[i] >= '0' && token[i] <= '9') {
            column.width = column.width * 10 + (token[i++] - '0');
        }
        const char letter = i < token.size() ? token[i++] : '\0';
        column.field = byLetter(letter);
        column.suffix = token.substr(std::min(i, token.size()));
        if (!column.field) {
            errors
                += errorLine("squeue", std::string("Invalid job format specification: ") + letter);
            column.suffix = "%" + token;
        }
        columns.push_back(std::move(column));
    }
    return columns;
}

std::vector<Column> parseLongFormat(std::string_view format, std::string &errors)
{
    std::vector<Column> columns;
    for (const auto &token : splitList(format, ',')) {
        Column column;
        std::string name = token;
        const std::size_t colon = token.find(':');
        if (colon == std::string::npos) {
            column.width = 20;
        } else {
            name = token.substr(0, colon);
            std::string_view spec = std::string_view(token).substr(colon + 1);
            if (!spec.empty() && spec.front() == '.') {
                column.right = true;
                spec.remove_prefix(1);
            }
            std::string_view rest;
            column.width = static_cast<int>(parseLeadingInteger(spec, &rest));
            column.suffix = std::string(rest);
        }
        column.field = byName(name);
        if (!column.field) {
            errors += errorLine("squeue", "Invalid job format specification: " + name);
        }
        columns.push_back(std::move(column));
    }
    return columns;
}

std::string renderLine(const std::vector<Column> &columns, const JobRow *row)
{
    std::string line;
    for (const auto &column : columns) {
        if (column.field) {
            if (row) {
                const Cell cell = column.field->value(*row);
                line += fit(cell.text, column.width, column.right, cell.cut);
            } else {
                line += fit(std::string(column.field->header), column.width, column.right,
                    column.field->cutHeader);
            }
        }
        line += column.suffix;
    }
    line += '\n';
    return line;
}

} // namespace mc::cmd::squeue
