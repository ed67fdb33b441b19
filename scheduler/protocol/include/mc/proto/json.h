#pragma once
// A small JSON value for the controller protocol: one message per line, objects keep their key
// order. Std-only so that every command starts fast (Qt's load alone costs 1.5 ms).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mc::proto {

class Json {
public:
    using Array = std::vector<Json>;
    using Object = std::vector<std::pair<std::string, Json>>;

    Json() = default;
    Json(std::nullptr_t) { }
    Json(bool b)
        : m_value(b)
    { }
    Json(int i)
        : m_value(std::int64_t{i})
    { }
    Json(unsigned i)
        : m_value(std::int64_t{i})
    { }
    Json(std::int64_t i)
        : m_value(i)
    { }
    Json(double d)
        : m_value(d)
    { }
    Json(const char *s)
        : m_value(std::string(s))
    { }
    Json(std::string s)
        : m_value(std::move(s))
    { }
    Json(std::string_view s)
        : m_value(std::string(s))
    { }
    Json(Array a)
        : m_value(std::move(a))
    { }
    Json(Object o)
        : m_value(std::move(o))
    { }
    Json(const Json &) = default;
    Json(Json &&) noexcept = default;
    // Through a copy, so that `j = j["member"]` (the source inside the target) is safe.
    Json &operator=(const Json &other)
    {
        if (this != &other) {
            Json copy(other);
            m_value = std::move(copy.m_value);
        }
        return *this;
    }
    Json &operator=(Json &&other) noexcept = default;
    ~Json() = default;

    static Json object() { return Json(Object{}); }
    static Json array() { return Json(Array{}); }
    // A value already serialized (valid JSON text, no newline): dump() copies it as it is. For
    // replies built as text (large `jobs` and `acct` rows); none of the typed reads sees into it.
    static Json raw(std::string text);

    bool isNull() const { return std::holds_alternative<std::monostate>(m_value); }
    bool isBool() const { return std::holds_alternative<bool>(m_value); }
    bool isInt() const { return std::holds_alternative<std::int64_t>(m_value); }
    bool isNumber() const { return isInt() || std::holds_alternative<double>(m_value); }
    bool isString() const { return std::holds_alternative<std::string>(m_value); }
    bool isArray() const { return std::holds_alternative<Array>(m_value); }
    bool isObject() const { return std::holds_alternative<Object>(m_value); }

    // Typed reads with a fallback when the value has another type (or is missing).
    bool toBool(bool fallback = false) const;
    std::int64_t toInt(std::int64_t fallback = 0) const;
    double toDouble(double fallback = 0.0) const;
    std::string toString(std::string_view fallback = {}) const;
    // A string's characters without a copy (valid while this value lives); empty otherwise.
    std::string_view view() const;
    std::vector<std::string> toStringList() const;

    // Object member or a null value when absent (or when this is not an object).
    const Json &operator[](std::string_view key) const;
    bool contains(std::string_view key) const;
    // Sets a member of an object (turning a null into an object), replacing an existing key.
    Json &set(std::string_view key, Json value);
    // Appends a member without looking for an existing one: for encoders whose keys are
    // distinct by construction (set() is linear in the object's size, add() is not).
    Json &add(std::string_view key, Json value);
    // Reserves room for `members` members (an object) or items (an array).
    void reserve(std::size_t count);
    // Appends to an array (turning a null into an array).
    Json &push(Json value);

    const Array &items() const;
    // The array's items to change or move out of; nullptr when this is not an array.
    Array *mutableItems();
    // An object member to change or move out of; nullptr when absent.
    Json *mutableMember(std::string_view key);
    const Object &members() const;
    std::size_t size() const;

    // Compact, single-line text (newlines in strings are escaped).
    std::string dump() const;
    void dumpTo(std::string &out) const;
    // nullopt on malformed text or trailing garbage.
    static std::optional<Json> parse(std::string_view text);

    friend bool operator==(const Json &, const Json &) = default;

private:
    struct Raw {
        std::string text;
        friend bool operator==(const Raw &, const Raw &) = default;
    };
    std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object, Raw>
        m_value;
};

Json stringList(const std::vector<std::string> &list);

// Appends `s` as a JSON string literal (quoted, escaped) to `out`; `escapeSlash` writes '/' as
// "\/" as Slurm's own JSON output does.
void appendQuoted(std::string &out, std::string_view s, bool escapeSlash = false);

} // namespace mc::proto
