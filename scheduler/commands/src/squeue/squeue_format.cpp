#include "../shared/format_spec.h"
#include "../shared/text.h"
#include "squeue_fields.h"

namespace mc::cmd::squeue {
namespace {

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
    ShortFormat spec = tokenizeShortFormat(format, false);
    if (!spec.prefix.empty()) {
        columns.push_back(Column{nullptr, 0, false, spec.prefix});
    }
    for (auto &token : spec.tokens) {
        Column column{byLetter(token.letter), token.width, token.right, std::move(token.suffix)};
        if (!column.field) {
            errors += errorLine(
                "squeue", std::string("Invalid job format specification: ") + token.letter);
            column.suffix = "%" + token.raw;
        }
        columns.push_back(std::move(column));
    }
    return columns;
}

std::vector<Column> parseLongFormat(std::string_view format, std::string &errors)
{
    std::vector<Column> columns;
    for (auto &token : tokenizeLongFormat(format)) {
        Column column{byName(token.name), token.width, token.right, std::move(token.suffix)};
        if (!column.field) {
            errors += errorLine("squeue", "Invalid job format specification: " + token.name);
        }
        columns.push_back(std::move(column));
    }
    return columns;
}

std::string renderLine(const std::vector<Column> &columns, const JobRow *row)
{
    std::string line;
    appendLine(line, columns, row);
    return line;
}

void appendLine(std::string &out, const std::vector<Column> &columns, const JobRow *row)
{
    for (const auto &column : columns) {
        if (column.field) {
            if (row) {
                const Cell cell = column.field->value ? column.field->value(*row)
                                                      : Cell{std::string(column.field->fixed)};
                appendFitted(out, cell.text, column.width, column.right, cell.cut);
            } else {
                appendFitted(
                    out, column.field->header, column.width, column.right, column.field->cutHeader);
            }
        }
        out += column.suffix;
    }
    out += '\n';
}

} // namespace mc::cmd::squeue
