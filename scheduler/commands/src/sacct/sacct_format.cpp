#include "../shared/text.h"
#include "mc/sched/time_format.h"
#include "sacct_fields.h"

#include <cstdio>
#include <cstdlib>

namespace mc::cmd::sacct {
namespace {

// Slurm's secs2time_str(): [D-]HH:MM:SS; "INVALID" for a negative duration.
std::string durationText(std::int64_t secs)
{
    if (secs < 0) {
        return "INVALID";
    }
    char buffer[64];
    const long long days = secs / 86400;
    const long long h = secs / 3600 % 24;
    const long long m = secs / 60 % 60;
    const long long s = secs % 60;
    if (days > 0) {
        std::snprintf(buffer, sizeof buffer, "%lld-%02lld:%02lld:%02lld", days, h, m, s);
    } else {
        std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld", h, m, s);
    }
    return buffer;
}

// One padded cell and its separating blank, as Slurm's print_fields_*(), appended to `out`.
void appendCell(std::string &out, const Column &column, const Value &value)
{
    const auto size = static_cast<std::size_t>(std::abs(column.width));
    std::string converted;
    std::string_view text = value ? std::string_view(*value) : std::string_view(" ");
    switch (column.field->kind) {
    case Kind::Text:
        if (value && text.size() > size && size > 0) {
            converted = std::string(text.substr(0, size - 1)) + "+";
            text = converted;
        }
        break;
    case Kind::Number:
        break;
    case Kind::Seconds:
        if (value) {
            converted = durationText(std::atoll(value->c_str()));
            text = converted;
        }
        break;
    case Kind::Date:
        converted = sched::formatTimestamp(std::atoll(value.value_or("0").c_str()));
        text = std::string_view(converted).substr(0, size);
        break;
    }
    const std::size_t pad = text.size() < size ? size - text.size() : 0;
    if (column.width < 0) {
        out += text;
        out.append(pad, ' ');
    } else {
        out.append(pad, ' ');
        out += text;
    }
    out += ' ';
}

std::string parsableValue(const Column &column, const Value &value)
{
    switch (column.field->kind) {
    case Kind::Seconds:
        return value ? durationText(std::atoll(value->c_str())) : std::string();
    case Kind::Date:
        return sched::formatTimestamp(std::atoll(value.value_or("0").c_str()));
    default:
        return value.value_or("");
    }
}

template <typename Text>
std::string joinParsable(const std::vector<Column> &columns, const Layout &layout, Text text)
{
    std::string line;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        line += text(columns[i]);
        if (layout.trailingDelimiter || i + 1 < columns.size()) {
            line += layout.delimiter;
        }
    }
    return line + "\n";
}

} // namespace

ColumnsOrError parseFieldList(std::string_view list)
{
    ColumnsOrError result;
    for (const auto &raw : splitList(list, ',')) {
        std::string_view spec = raw;
        while (!spec.empty() && (spec.front() == ' ' || spec.front() == '\t')) {
            spec.remove_prefix(1);
        }
        if (spec.empty()) {
            continue;
        }
        std::optional<int> width;
        if (const std::size_t percent = spec.find('%'); percent != std::string_view::npos) {
            width = static_cast<int>(parseLeadingInteger(spec.substr(percent + 1)));
            spec = spec.substr(0, percent);
        }
        if (equalsIgnoreCase(spec, std::string_view("ALL").substr(0, spec.size()))
            && !spec.empty()) {
            for (const auto &field : fieldTable()) {
                result.columns.push_back(Column{&field, width.value_or(field.width)});
            }
            continue;
        }
        const Field *found = nullptr;
        for (const auto &field : fieldTable()) {
            if (field.name.size() >= spec.size()
                && equalsIgnoreCase(field.name.substr(0, spec.size()), spec)) {
                found = &field;
                break;
            }
        }
        if (!found) {
            result.unknown = std::string(spec);
            return result;
        }
        result.columns.push_back(Column{found, width.value_or(found->width)});
    }
    return result;
}

std::string renderHeader(const std::vector<Column> &columns, const Layout &layout)
{
    if (layout.parsable) {
        return joinParsable(
            columns, layout, [](const Column &c) { return std::string(c.field->name); });
    }
    std::string names;
    std::string dashes;
    for (const auto &column : columns) {
        const auto size = static_cast<std::size_t>(std::abs(column.width));
        const std::string name(column.field->name.substr(0, size));
        names += (column.width < 0 ? padRight(name, size) : padLeft(name, size)) + " ";
        dashes += std::string(size, '-') + " ";
    }
    return names + "\n" + dashes + "\n";
}

void appendRow(
    std::string &out, const std::vector<Column> &columns, const Layout &layout, const AcctRow &row)
{
    if (layout.parsable) {
        out += joinParsable(columns, layout,
            [&row](const Column &c) { return parsableValue(c, c.field->value(row)); });
        return;
    }
    for (const auto &column : columns) {
        appendCell(out, column, column.field->value(row));
    }
    out += '\n';
}

std::string helpFormat()
{
    std::string text;
    for (std::size_t i = 0; i < fieldTable().size(); ++i) {
        if (i % 4 != 0) {
            text += ' ';
        } else if (i > 0) {
            text += '\n';
        }
        text += padRight(fieldTable()[i].name, 19);
    }
    return text + "\n";
}

} // namespace mc::cmd::sacct
