#pragma once
// A large reply read without building a JSON tree: the `columns` and `rows` of a `jobs` or
// `acct` reply with `form: "rows"` (docs/protocol.md), or the objects of its `jobs` array (a
// controller that sends whole objects), as one flat table of cells. Strings without escapes
// and nested values (arrays, objects) stay slices of the reply's text, which the table owns;
// a nested value is parsed only when read. The reply's other members (`ok`, `now`, `error`,
// ...) are parsed as usual (head()).

#include "mc/proto/json.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::proto {

class RowTable {
public:
    // One value, 16 bytes (a table of 5,000 jobs holds 100,000 of them); a default cell is null
    // (an absent member). Read it through the table's typed reads below.
    struct Cell {
        enum class Kind : std::uint8_t { Null, Bool, Int, Double, String, Nested };
        std::int64_t integer = 0; // Bool (0/1) and Int; for the others, where their text is
        Kind kind = Kind::Null;

        bool isNull() const { return kind == Kind::Null; }
        bool isInt() const { return kind == Kind::Int; }
        static Cell ofInt(std::int64_t value) { return Cell{value, Kind::Int}; }
    };

    // The typed reads of Json, with the same fallbacks, for a cell of this table.
    bool toBool(const Cell &cell, bool fallback = false) const;
    std::int64_t toInt(const Cell &cell, std::int64_t fallback = 0) const;
    std::string toString(const Cell &cell, std::string_view fallback = {}) const;
    std::vector<std::string> toStringList(const Cell &cell) const;
    // A string's characters (empty for other kinds), valid while the table lives.
    std::string_view view(const Cell &cell) const;
    // The value as a Json tree (nested values parsed now).
    Json toJson(const Cell &cell) const;

    // nullopt when `text` is not a JSON object. `rowsKey` names the member holding rows of
    // values (with `columns`), `objectsKey` the member holding objects; whichever is present
    // becomes the table.
    static std::optional<RowTable> parse(
        std::string text, std::string_view rowsKey = "rows", std::string_view objectsKey = "jobs");

    // The reply's members other than the table's.
    const Json &head() const { return m_head; }
    const std::vector<std::string> &columns() const { return m_columns; }
    std::size_t rowCount() const { return m_stride ? m_cells.size() / m_stride : m_rows; }
    // Column index of `name`, -1 when absent. Fast for repeated lookups of the same names.
    int column(std::string_view name) const;
    // The cell, or a null cell when `column` is -1.
    const Cell &cell(std::size_t row, int column) const;

    // Adds a column of nulls (or returns the existing one).
    int addColumn(std::string_view name);
    // Appends a copy of `row`; returns the new row's index.
    std::size_t copyRow(std::size_t row);
    void setCell(std::size_t row, int column, Cell value);

private:
    std::unique_ptr<std::string> m_text; // the reply: cells point into it (stable when moved)
    std::string m_unescaped; // strings that had escapes, one after the other
    Json m_head = Json::object();
    std::vector<std::string> m_columns;
    std::size_t m_stride = 0; // == m_columns.size() once built
    std::size_t m_rows = 0; // rows while m_stride is 0 (no columns)
    std::vector<Cell> m_cells; // row-major
    struct CacheEntry {
        const char *data = nullptr;
        std::size_t size = 0;
        int column = -1;
    };
    mutable std::array<CacheEntry, 64> m_cache{};

    // A text cell's location: offset << 32 | size, offset's top bit for m_unescaped.
    static constexpr std::int64_t kUnescaped = std::int64_t{1} << 62;
    std::int64_t locate(std::string_view text) const;
    std::int64_t keepUnescaped(std::string_view text);
    // Double and Nested: the JSON text; String: the characters.
    std::string_view textOf(const Cell &cell) const;

    friend class RowTableParser;
};

} // namespace mc::proto
