#include "mc/proto/row_table.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace mc::proto {

namespace {

const RowTable::Cell kNullCell;

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

} // namespace

// Scans the reply's text once; the values of the table become cells, everything else Json.
class RowTableParser {
public:
    RowTableParser(RowTable &table, std::string_view text)
        : m_table(table)
        , m_p(text.data())
        , m_end(text.data() + text.size())
    { }

    bool document(std::string_view rowsKey, std::string_view objectsKey)
    {
        std::string_view rows;
        std::string_view objects;
        bool parsedRows = false;
        if (!expect('{')) {
            return false;
        }
        bool first = true;
        while (true) {
            skipSpace();
            if (m_p < m_end && *m_p == '}') {
                ++m_p;
                break;
            }
            if (!first && !expect(',')) {
                return false;
            }
            first = false;
            skipSpace();
            std::string key;
            if (!keyString(key) || !expect(':')) {
                return false;
            }
            skipSpace();
            if (key == rowsKey && !m_table.m_columns.empty() && !parsedRows) {
                // `columns` came first (as the controller writes them): the rows are read
                // where they are, in one pass over the text.
                if (!rowsAt()) {
                    return false;
                }
                parsedRows = true;
                continue;
            }
            const char *start = m_p;
            if (!skipValue()) {
                return false;
            }
            const std::string_view value(start, static_cast<std::size_t>(m_p - start));
            if (key == rowsKey) {
                rows = value;
            } else if (key == objectsKey) {
                objects = value;
            } else {
                auto json = Json::parse(value);
                if (!json) {
                    return false;
                }
                if (key == "columns") {
                    m_table.m_columns = json->toStringList();
                }
                m_table.m_head.add(key, std::move(*json));
            }
        }
        skipSpace();
        if (m_p != m_end) {
            return false;
        }
        if (parsedRows) {
            return true;
        }
        if (rows.data()) {
            return rowsOf(rows);
        }
        if (objects.data()) {
            return objectsOf(objects);
        }
        m_table.m_stride = m_table.m_columns.size();
        return true;
    }

private:
    void skipSpace()
    {
        while (m_p < m_end && isSpace(*m_p)) {
            ++m_p;
        }
    }

    bool expect(char c)
    {
        skipSpace();
        if (m_p < m_end && *m_p == c) {
            ++m_p;
            return true;
        }
        return false;
    }

    // At a '"': the string's raw characters (escapes left in), `escaped` when it has any.
    bool rawString(std::string_view &raw, bool &escaped)
    {
        if (m_p >= m_end || *m_p != '"') {
            return false;
        }
        const char *start = ++m_p;
        escaped = false;
        while (true) {
            const void *hit = std::memchr(m_p, '"', static_cast<std::size_t>(m_end - m_p));
            if (!hit) {
                return false;
            }
            const char *quote = static_cast<const char *>(hit);
            // The quote ends the string unless an odd number of backslashes precede it.
            std::size_t slashes = 0;
            for (const char *b = quote; b > start && b[-1] == '\\'; --b) {
                ++slashes;
            }
            if (!escaped && std::memchr(start, '\\', static_cast<std::size_t>(quote - start))) {
                escaped = true;
            }
            m_p = quote + 1;
            if (slashes % 2 == 0) {
                raw = std::string_view(start, static_cast<std::size_t>(quote - start));
                return true;
            }
        }
    }

    bool keyString(std::string &key)
    {
        std::string_view raw;
        bool escaped = false;
        const char *start = m_p;
        if (!rawString(raw, escaped)) {
            return false;
        }
        if (!escaped) {
            key.assign(raw);
            return true;
        }
        auto json = Json::parse(std::string_view(start, static_cast<std::size_t>(m_p - start)));
        if (!json) {
            return false;
        }
        key = json->toString();
        return true;
    }

    // Moves past one value of any kind.
    bool skipValue()
    {
        skipSpace();
        if (m_p >= m_end) {
            return false;
        }
        const char c = *m_p;
        if (c == '"') {
            std::string_view raw;
            bool escaped = false;
            return rawString(raw, escaped);
        }
        if (c == '[' || c == '{') {
            int depth = 0;
            while (m_p < m_end) {
                const char d = *m_p;
                if (d == '"') {
                    std::string_view raw;
                    bool escaped = false;
                    if (!rawString(raw, escaped)) {
                        return false;
                    }
                    continue;
                }
                ++m_p;
                if (d == '[' || d == '{') {
                    ++depth;
                } else if (d == ']' || d == '}') {
                    if (--depth == 0) {
                        return true;
                    }
                }
            }
            return false;
        }
        const char *start = m_p;
        while (m_p < m_end && *m_p != ',' && *m_p != ']' && *m_p != '}' && !isSpace(*m_p)) {
            ++m_p;
        }
        return m_p > start;
    }

    // One value as a cell.
    bool cell(RowTable::Cell &out)
    {
        using Kind = RowTable::Cell::Kind;
        skipSpace();
        if (m_p >= m_end) {
            return false;
        }
        const char c = *m_p;
        if (c == '"') {
            std::string_view raw;
            bool escaped = false;
            const char *start = m_p;
            if (!rawString(raw, escaped)) {
                return false;
            }
            out.kind = Kind::String;
            if (!escaped) {
                out.integer = m_table.locate(raw);
                return true;
            }
            auto json = Json::parse(std::string_view(start, static_cast<std::size_t>(m_p - start)));
            if (!json) {
                return false;
            }
            out.integer = m_table.keepUnescaped(json->view());
            return true;
        }
        const char *start = m_p;
        if (!skipValue()) {
            return false;
        }
        const std::string_view text(start, static_cast<std::size_t>(m_p - start));
        if (c == '[' || c == '{') {
            out.kind = Kind::Nested;
            out.integer = m_table.locate(text);
        } else if (text == "null") {
            out.kind = Kind::Null;
        } else if (text == "true" || text == "false") {
            out.kind = Kind::Bool;
            out.integer = text == "true";
        } else {
            std::int64_t value = 0;
            auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
            if (ec == std::errc{} && end == text.data() + text.size()) {
                out.kind = Kind::Int;
                out.integer = value;
            } else {
                out.kind = Kind::Double;
                out.integer = m_table.locate(text);
            }
        }
        return true;
    }

    // `[[v, ...], ...]`: one row per array, as many cells as columns (missing ones null).
    bool rowsOf(std::string_view text)
    {
        m_p = text.data();
        m_end = text.data() + text.size();
        return rowsAt();
    }

    // The same, at m_p: moves past the rows' closing bracket.
    bool rowsAt()
    {
        const std::size_t stride = m_table.m_columns.size();
        m_table.m_stride = stride;
        auto &cells = m_table.m_cells;
        // Room for as many rows as the rest of the text could hold (each value takes at least 2
        // bytes), reserved, not touched: the cells are written once, never copied by growth.
        const auto left = static_cast<std::size_t>(m_end - m_p);
        cells.reserve(left / (2 * std::max<std::size_t>(stride, 1) + 1) * stride);
        if (!expect('[')) {
            return false;
        }
        if (expect(']')) {
            return true;
        }
        do {
            if (!expect('[')) {
                return false;
            }
            const std::size_t base = cells.size();
            cells.resize(base + stride);
            std::size_t i = 0;
            if (!expect(']')) {
                do {
                    RowTable::Cell value;
                    if (!cell(value)) {
                        return false;
                    }
                    if (i < stride) {
                        cells[base + i] = value;
                    }
                    ++i;
                } while (expect(','));
                if (!expect(']')) {
                    return false;
                }
            }
            ++m_table.m_rows;
        } while (expect(','));
        return expect(']');
    }

    // `[{k: v, ...}, ...]`: columns in the order their names first appear.
    bool objectsOf(std::string_view text)
    {
        m_p = text.data();
        m_end = text.data() + text.size();
        std::vector<std::vector<std::pair<int, RowTable::Cell>>> objects;
        if (!expect('[')) {
            return false;
        }
        if (!expect(']')) {
            do {
                if (!expect('{')) {
                    return false;
                }
                auto &members = objects.emplace_back();
                if (!expect('}')) {
                    do {
                        skipSpace();
                        std::string key;
                        RowTable::Cell value;
                        if (!keyString(key) || !expect(':') || !cell(value)) {
                            return false;
                        }
                        members.emplace_back(m_table.addColumn(key), value);
                    } while (expect(','));
                    if (!expect('}')) {
                        return false;
                    }
                }
            } while (expect(','));
            if (!expect(']')) {
                return false;
            }
        }
        const std::size_t stride = m_table.m_columns.size();
        m_table.m_stride = stride;
        m_table.m_rows = objects.size();
        m_table.m_cells.assign(objects.size() * stride, RowTable::Cell{});
        for (std::size_t row = 0; row < objects.size(); ++row) {
            for (const auto &[column, value] : objects[row]) {
                m_table.m_cells[row * stride + static_cast<std::size_t>(column)] = value;
            }
        }
        return true;
    }

    RowTable &m_table;
    const char *m_p;
    const char *m_end;
};

std::optional<RowTable> RowTable::parse(
    std::string text, std::string_view rowsKey, std::string_view objectsKey)
{
    RowTable table;
    table.m_text = std::make_unique<std::string>(std::move(text));
    RowTableParser parser(table, *table.m_text);
    if (!parser.document(rowsKey, objectsKey)) {
        return std::nullopt;
    }
    return table;
}

int RowTable::column(std::string_view name) const
{
    const auto slot = (reinterpret_cast<std::uintptr_t>(name.data()) >> 3 ^ name.size()) & 63;
    CacheEntry &entry = m_cache[slot];
    if (entry.column >= 0 && entry.data == name.data() && entry.size == name.size()
        && std::memcmp(
               name.data(), m_columns[static_cast<std::size_t>(entry.column)].data(), name.size())
            == 0) {
        return entry.column;
    }
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        if (m_columns[i] == name) {
            entry = CacheEntry{name.data(), name.size(), static_cast<int>(i)};
            return static_cast<int>(i);
        }
    }
    return -1;
}

const RowTable::Cell &RowTable::cell(std::size_t row, int column) const
{
    if (column < 0 || static_cast<std::size_t>(column) >= m_stride) {
        return kNullCell;
    }
    return m_cells[row * m_stride + static_cast<std::size_t>(column)];
}

int RowTable::addColumn(std::string_view name)
{
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        if (m_columns[i] == name) {
            return static_cast<int>(i);
        }
    }
    m_columns.emplace_back(name);
    if (m_stride > 0 || !m_cells.empty()) { // a built table: widen every row
        const std::size_t rows = rowCount();
        std::vector<Cell> cells(rows * (m_stride + 1));
        for (std::size_t r = 0; r < rows; ++r) {
            for (std::size_t c = 0; c < m_stride; ++c) {
                cells[r * (m_stride + 1) + c] = m_cells[r * m_stride + c];
            }
        }
        m_cells = std::move(cells);
        m_stride += 1;
    } else if (m_rows > 0) { // rows without columns so far: all null
        m_stride = m_columns.size();
        m_cells.assign(m_rows * m_stride, Cell{});
    }
    return static_cast<int>(m_columns.size() - 1);
}

std::size_t RowTable::copyRow(std::size_t row)
{
    const std::size_t index = rowCount();
    if (m_stride == 0) {
        ++m_rows;
        return index;
    }
    m_cells.reserve(m_cells.size() + m_stride);
    for (std::size_t c = 0; c < m_stride; ++c) {
        m_cells.push_back(m_cells[row * m_stride + c]);
    }
    return index;
}

void RowTable::setCell(std::size_t row, int column, Cell value)
{
    if (column >= 0 && static_cast<std::size_t>(column) < m_stride) {
        m_cells[row * m_stride + static_cast<std::size_t>(column)] = value;
    }
}

std::int64_t RowTable::locate(std::string_view text) const
{
    const auto offset = static_cast<std::int64_t>(text.data() - m_text->data());
    return offset << 32 | static_cast<std::int64_t>(text.size());
}

std::int64_t RowTable::keepUnescaped(std::string_view text)
{
    const auto offset = static_cast<std::int64_t>(m_unescaped.size());
    m_unescaped += text;
    return kUnescaped | offset << 32 | static_cast<std::int64_t>(text.size());
}

std::string_view RowTable::textOf(const Cell &cell) const
{
    const std::int64_t bits = cell.integer;
    const char *base = (bits & kUnescaped) ? m_unescaped.data() : m_text->data();
    const auto offset = static_cast<std::size_t>((bits & ~kUnescaped) >> 32);
    const auto size = static_cast<std::size_t>(bits & 0xffffffff);
    return std::string_view(base + offset, size);
}

bool RowTable::toBool(const Cell &cell, bool fallback) const
{
    return cell.kind == Cell::Kind::Bool ? cell.integer != 0 : fallback;
}

std::int64_t RowTable::toInt(const Cell &cell, std::int64_t fallback) const
{
    if (cell.kind == Cell::Kind::Int) {
        return cell.integer;
    }
    if (cell.kind == Cell::Kind::Double) {
        return toJson(cell).toInt(fallback);
    }
    return fallback;
}

std::string_view RowTable::view(const Cell &cell) const
{
    return cell.kind == Cell::Kind::String ? textOf(cell) : std::string_view();
}

std::string RowTable::toString(const Cell &cell, std::string_view fallback) const
{
    return std::string(cell.kind == Cell::Kind::String ? textOf(cell) : fallback);
}

std::vector<std::string> RowTable::toStringList(const Cell &cell) const
{
    if (cell.kind != Cell::Kind::Nested || textOf(cell) == "[]") {
        return {};
    }
    return toJson(cell).toStringList();
}

Json RowTable::toJson(const Cell &cell) const
{
    switch (cell.kind) {
    case Cell::Kind::Null:
        return Json();
    case Cell::Kind::Bool:
        return Json(cell.integer != 0);
    case Cell::Kind::Int:
        return Json(cell.integer);
    case Cell::Kind::String:
        return Json(textOf(cell));
    case Cell::Kind::Double:
    case Cell::Kind::Nested:
        return Json::parse(textOf(cell)).value_or(Json());
    }
    return Json();
}

} // namespace mc::proto
