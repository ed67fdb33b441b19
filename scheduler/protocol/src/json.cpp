#include "mc/proto/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace mc::proto {

namespace {

const Json kNull;
const Json::Array kEmptyArray;
const Json::Object kEmptyObject;

// True for the characters escapeTo() copies as they are.
bool plain(char c, bool escapeSlash)
{
    return c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20
        && !(escapeSlash && c == '/');
}

void escapeTo(std::string &out, std::string_view s, bool escapeSlash = false)
{
    out += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        std::size_t end = i;
        while (end < s.size() && plain(s[end], escapeSlash)) {
            ++end;
        }
        out.append(s.data() + i, end - i); // the run of plain characters at once
        if (end == s.size()) {
            break;
        }
        i = end;
        const char c = s[i];
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '/':
            out += "\\/";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                out += buf;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

class Parser {
public:
    explicit Parser(std::string_view text)
        : m_text(text)
    { }

    std::optional<Json> document()
    {
        auto v = value(0);
        skipSpace();
        if (!v || m_pos != m_text.size()) {
            return std::nullopt;
        }
        return v;
    }

private:
    static constexpr int kMaxDepth = 128;

    void skipSpace()
    {
        while (m_pos < m_text.size()
            && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t'
                || m_text[m_pos] == '\r')) {
            ++m_pos;
        }
    }

    bool literal(std::string_view word)
    {
        if (m_text.substr(m_pos, word.size()) != word) {
            return false;
        }
        m_pos += word.size();
        return true;
    }

    std::optional<Json> value(int depth)
    {
        if (depth > kMaxDepth) {
            return std::nullopt;
        }
        skipSpace();
        if (m_pos >= m_text.size()) {
            return std::nullopt;
        }
        char c = m_text[m_pos];
        if (c == '{') {
            return object(depth);
        }
        if (c == '[') {
            return array(depth);
        }
        if (c == '"') {
            auto s = string();
            return s ? std::optional<Json>(Json(std::move(*s))) : std::nullopt;
        }
        if (literal("true")) {
            return Json(true);
        }
        if (literal("false")) {
            return Json(false);
        }
        if (literal("null")) {
            return Json();
        }
        return number();
    }

    std::optional<Json> number()
    {
        std::size_t start = m_pos;
        bool isFloat = false;
        if (m_pos < m_text.size() && m_text[m_pos] == '-') {
            ++m_pos;
        }
        while (m_pos < m_text.size()) {
            char c = m_text[m_pos];
            if (c >= '0' && c <= '9') {
                ++m_pos;
            } else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
                isFloat = true;
                ++m_pos;
            } else {
                break;
            }
        }
        std::string_view digits = m_text.substr(start, m_pos - start);
        if (digits.empty() || digits == "-") {
            return std::nullopt;
        }
        if (!isFloat) {
            std::int64_t i = 0;
            auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), i);
            if (ec == std::errc() && end == digits.data() + digits.size()) {
                return Json(i);
            }
        }
        double d = 0;
        auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), d);
        if (ec != std::errc() || end != digits.data() + digits.size()) {
            return std::nullopt;
        }
        return Json(d);
    }

    static void appendUtf8(std::string &out, unsigned cp)
    {
        if (cp < 0x80) {
            out += static_cast<char>(cp);
        } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (cp >> 18));
            out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
        }
    }

    std::optional<unsigned> hex4()
    {
        if (m_pos + 4 > m_text.size()) {
            return std::nullopt;
        }
        unsigned v = 0;
        auto [end, ec] = std::from_chars(m_text.data() + m_pos, m_text.data() + m_pos + 4, v, 16);
        if (ec != std::errc() || end != m_text.data() + m_pos + 4) {
            return std::nullopt;
        }
        m_pos += 4;
        return v;
    }

    std::optional<std::string> string()
    {
        ++m_pos; // opening quote
        std::string out;
        while (m_pos < m_text.size()) {
            // The run of plain characters up to the next quote or escape, appended at once.
            std::size_t end = m_pos;
            while (end < m_text.size() && m_text[end] != '"' && m_text[end] != '\\') {
                ++end;
            }
            out.append(m_text.data() + m_pos, end - m_pos);
            m_pos = end;
            if (m_pos >= m_text.size()) {
                break;
            }
            char c = m_text[m_pos++];
            if (c == '"') {
                return out;
            }
            if (m_pos >= m_text.size()) {
                return std::nullopt;
            }
            char e = m_text[m_pos++];
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'u': {
                auto cp = hex4();
                if (!cp) {
                    return std::nullopt;
                }
                unsigned code = *cp;
                if (code >= 0xD800 && code < 0xDC00 && literal("\\u")) {
                    auto low = hex4();
                    if (!low) {
                        return std::nullopt;
                    }
                    code = 0x10000 + ((code - 0xD800) << 10) + (*low - 0xDC00);
                }
                appendUtf8(out, code);
                break;
            }
            default:
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    std::optional<Json> array(int depth)
    {
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') {
            ++m_pos;
            return Json(Json::Array{});
        }
        // Items gather in a scratch list per depth like object members (below): a `rows`
        // reply is thousands of small arrays.
        const auto level = static_cast<std::size_t>(depth);
        if (m_arrayScratch.size() <= level) {
            m_arrayScratch.resize(level + 1);
        }
        m_arrayScratch[level].clear();
        while (true) {
            auto v = value(depth + 1);
            if (!v) {
                return std::nullopt;
            }
            m_arrayScratch[level].push_back(std::move(*v));
            skipSpace();
            if (m_pos >= m_text.size()) {
                return std::nullopt;
            }
            char c = m_text[m_pos++];
            if (c == ']') {
                auto &done = m_arrayScratch[level];
                Json::Array items(
                    std::make_move_iterator(done.begin()), std::make_move_iterator(done.end()));
                done.clear();
                return Json(std::move(items));
            }
            if (c != ',') {
                return std::nullopt;
            }
        }
    }

    std::optional<Json> object(int depth)
    {
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') {
            ++m_pos;
            return Json(Json::Object{});
        }
        // Members gather in a scratch list per depth, reused across objects, and move once
        // into an exactly sized Object: growing each object's own vector cost a third of the
        // parse of a large `jobs` reply.
        if (m_scratch.size() <= static_cast<std::size_t>(depth)) {
            m_scratch.resize(static_cast<std::size_t>(depth) + 1);
        }
        auto &members = m_scratch[static_cast<std::size_t>(depth)];
        members.clear();
        while (true) {
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos] != '"') {
                return std::nullopt;
            }
            auto key = string();
            skipSpace();
            if (!key || m_pos >= m_text.size() || m_text[m_pos] != ':') {
                return std::nullopt;
            }
            ++m_pos;
            auto v = value(depth + 1);
            if (!v) {
                return std::nullopt;
            }
            m_scratch[static_cast<std::size_t>(depth)].emplace_back(std::move(*key), std::move(*v));
            skipSpace();
            if (m_pos >= m_text.size()) {
                return std::nullopt;
            }
            char c = m_text[m_pos++];
            if (c == '}') {
                auto &done = m_scratch[static_cast<std::size_t>(depth)];
                Json::Object object(
                    std::make_move_iterator(done.begin()), std::make_move_iterator(done.end()));
                done.clear();
                return Json(std::move(object));
            }
            if (c != ',') {
                return std::nullopt;
            }
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
    std::vector<Json::Object> m_scratch; // object members being parsed, one list per depth
    std::vector<Json::Array> m_arrayScratch; // array items being parsed, one list per depth
};

} // namespace

bool Json::toBool(bool fallback) const
{
    if (auto *b = std::get_if<bool>(&m_value)) {
        return *b;
    }
    return fallback;
}

std::int64_t Json::toInt(std::int64_t fallback) const
{
    if (auto *i = std::get_if<std::int64_t>(&m_value)) {
        return *i;
    }
    if (auto *d = std::get_if<double>(&m_value)) {
        return static_cast<std::int64_t>(*d);
    }
    return fallback;
}

double Json::toDouble(double fallback) const
{
    if (auto *d = std::get_if<double>(&m_value)) {
        return *d;
    }
    if (auto *i = std::get_if<std::int64_t>(&m_value)) {
        return static_cast<double>(*i);
    }
    return fallback;
}

std::string Json::toString(std::string_view fallback) const
{
    if (auto *s = std::get_if<std::string>(&m_value)) {
        return *s;
    }
    return std::string(fallback);
}

std::string_view Json::view() const
{
    if (auto *s = std::get_if<std::string>(&m_value)) {
        return *s;
    }
    return {};
}

std::vector<std::string> Json::toStringList() const
{
    std::vector<std::string> out;
    for (const auto &item : items()) {
        out.push_back(item.toString());
    }
    return out;
}

const Json &Json::operator[](std::string_view key) const
{
    if (auto *o = std::get_if<Object>(&m_value)) {
        for (const auto &[k, v] : *o) {
            if (k == key) {
                return v;
            }
        }
    }
    return kNull;
}

bool Json::contains(std::string_view key) const
{
    if (auto *o = std::get_if<Object>(&m_value)) {
        for (const auto &member : *o) {
            if (member.first == key) {
                return true;
            }
        }
    }
    return false;
}

Json &Json::set(std::string_view key, Json value)
{
    if (!isObject()) {
        m_value = Object{};
    }
    auto &o = std::get<Object>(m_value);
    for (auto &[k, v] : o) {
        if (k == key) {
            v = std::move(value);
            return *this;
        }
    }
    o.emplace_back(std::string(key), std::move(value));
    return *this;
}

Json &Json::add(std::string_view key, Json value)
{
    if (!isObject()) {
        m_value = Object{};
    }
    std::get<Object>(m_value).emplace_back(std::string(key), std::move(value));
    return *this;
}

void Json::reserve(std::size_t count)
{
    if (auto *o = std::get_if<Object>(&m_value)) {
        o->reserve(count);
    } else if (auto *a = std::get_if<Array>(&m_value)) {
        a->reserve(count);
    }
}

Json &Json::push(Json value)
{
    if (!isArray()) {
        m_value = Array{};
    }
    std::get<Array>(m_value).push_back(std::move(value));
    return *this;
}

Json::Array *Json::mutableItems()
{
    return std::get_if<Array>(&m_value);
}

Json *Json::mutableMember(std::string_view key)
{
    if (auto *o = std::get_if<Object>(&m_value)) {
        for (auto &[k, v] : *o) {
            if (k == key) {
                return &v;
            }
        }
    }
    return nullptr;
}

const Json::Array &Json::items() const
{
    if (auto *a = std::get_if<Array>(&m_value)) {
        return *a;
    }
    return kEmptyArray;
}

const Json::Object &Json::members() const
{
    if (auto *o = std::get_if<Object>(&m_value)) {
        return *o;
    }
    return kEmptyObject;
}

std::size_t Json::size() const
{
    if (auto *a = std::get_if<Array>(&m_value)) {
        return a->size();
    }
    if (auto *o = std::get_if<Object>(&m_value)) {
        return o->size();
    }
    return 0;
}

void Json::dumpTo(std::string &out) const
{
    switch (m_value.index()) {
    case 0:
        out += "null";
        break;
    case 1:
        out += std::get<bool>(m_value) ? "true" : "false";
        break;
    case 2: {
        char buf[24];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, std::get<std::int64_t>(m_value));
        out.append(buf, end);
        break;
    }
    case 3: {
        double d = std::get<double>(m_value);
        if (!std::isfinite(d)) {
            out += "null";
            break;
        }
        char buf[32];
        auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
        out.append(buf, end);
        break;
    }
    case 4:
        escapeTo(out, std::get<std::string>(m_value));
        break;
    case 5: {
        out += '[';
        bool first = true;
        for (const auto &item : std::get<Array>(m_value)) {
            if (!first) {
                out += ',';
            }
            first = false;
            item.dumpTo(out);
        }
        out += ']';
        break;
    }
    case 6: {
        out += '{';
        bool first = true;
        for (const auto &[k, v] : std::get<Object>(m_value)) {
            if (!first) {
                out += ',';
            }
            first = false;
            escapeTo(out, k);
            out += ':';
            v.dumpTo(out);
        }
        out += '}';
        break;
    }
    case 7:
        out += std::get<Raw>(m_value).text;
        break;
    default:
        break;
    }
}

Json Json::raw(std::string text)
{
    Json json;
    json.m_value = Raw{std::move(text)};
    return json;
}

void appendQuoted(std::string &out, std::string_view s, bool escapeSlash)
{
    escapeTo(out, s, escapeSlash);
}

std::string Json::dump() const
{
    std::string out;
    dumpTo(out);
    return out;
}

std::optional<Json> Json::parse(std::string_view text)
{
    return Parser(text).document();
}

Json stringList(const std::vector<std::string> &list)
{
    Json::Array a;
    a.reserve(list.size());
    for (const auto &s : list) {
        a.emplace_back(s);
    }
    return Json(std::move(a));
}

} // namespace mc::proto
