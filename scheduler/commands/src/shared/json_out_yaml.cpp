// --yaml of squeue, sinfo and sacct: the --json document written as Slurm 22.05's serializer/yaml
// plugin writes it, through libyaml 0.2.5's emitter with its defaults (indent 2, width 80, no
// unicode). Slurm hands the emitter every node with an explicit tag and "any" style, so every
// value prints as `!!tag value`, collections in block style, empty ones as `[]` / `{}`, and
// each scalar in the first of plain, 'single' or "double" quoting that libyaml allows for it,
// folded at spaces past column 80 as libyaml folds it. This file reproduces that emitter for
// those events only (no anchors, no flow collections with content, no block scalars).

#include "json_out.h"

#include <cinttypes>
#include <cstdio>

namespace mc::cmd {
namespace {

using proto::Json;

constexpr int kBestIndent = 2;
constexpr int kBestWidth = 80;
constexpr std::size_t kMaxSimpleKey = 128;

// The bytes of a UTF-8 character that starts with `lead` (1 for a stray byte).
std::size_t widthOf(unsigned char lead)
{
    if ((lead & 0x80) == 0x00) {
        return 1;
    }
    if ((lead & 0xE0) == 0xC0) {
        return 2;
    }
    if ((lead & 0xF0) == 0xE0) {
        return 3;
    }
    return (lead & 0xF8) == 0xF0 ? 4 : 1;
}

// libyaml's character classes on the byte at `i` of `s` (the end reads as NUL, as in C).
unsigned char at(std::string_view s, std::size_t i)
{
    return i < s.size() ? static_cast<unsigned char>(s[i]) : 0;
}

bool isSpace(std::string_view s, std::size_t i)
{
    return at(s, i) == ' ';
}

bool isBreak(std::string_view s, std::size_t i)
{
    const unsigned char c = at(s, i);
    return c == '\r' || c == '\n' || (c == 0xC2 && at(s, i + 1) == 0x85)
        || (c == 0xE2 && at(s, i + 1) == 0x80 && (at(s, i + 2) == 0xA8 || at(s, i + 2) == 0xA9));
}

bool isBlankZ(std::string_view s, std::size_t i)
{
    return at(s, i) == ' ' || at(s, i) == '\t' || isBreak(s, i) || i >= s.size();
}

bool isPrintable(std::string_view s, std::size_t i)
{
    const unsigned char c = at(s, i);
    const unsigned char n = at(s, i + 1);
    return c == 0x0A || (c >= 0x20 && c <= 0x7E) || (c == 0xC2 && n >= 0xA0)
        || (c > 0xC2 && c < 0xED) || (c == 0xED && n < 0xA0) || c == 0xEE
        || (c == 0xEF && !(n == 0xBB && at(s, i + 2) == 0xBF)
            && !(n == 0xBF && (at(s, i + 2) == 0xBE || at(s, i + 2) == 0xBF)));
}

// What yaml_emitter_analyze_scalar() finds out about a value.
struct ScalarTraits {
    bool multiline = false;
    bool blockPlainAllowed = true;
    bool singleQuotedAllowed = true;
};

ScalarTraits analyze(std::string_view s)
{
    ScalarTraits t;
    if (s.empty()) {
        return t;
    }
    bool blockIndicators = s.starts_with("---") || s.starts_with("...");
    bool lineBreaks = false;
    bool special = false;
    bool leadingSpace = false;
    bool leadingBreak = false;
    bool trailingSpace = false;
    bool trailingBreak = false;
    bool breakSpace = false;
    bool spaceBreak = false;
    bool precededByWhitespace = true;
    bool previousSpace = false;
    bool previousBreak = false;
    std::size_t i = 0;
    bool followedByWhitespace = isBlankZ(s, widthOf(at(s, 0)));
    while (i < s.size()) {
        const unsigned char c = at(s, i);
        const std::size_t width = widthOf(c);
        if (i == 0) {
            if (std::string_view("#,[]{}&*!|>'\"%@`").find(static_cast<char>(c))
                != std::string_view::npos) {
                blockIndicators = true;
            }
            if ((c == '?' || c == ':' || c == '-') && followedByWhitespace) {
                blockIndicators = true;
            }
        } else if ((c == ':' && followedByWhitespace) || (c == '#' && precededByWhitespace)) {
            blockIndicators = true;
        }
        if (!isPrintable(s, i) || c >= 0x80) {
            special = true; // libyaml's emitter escapes all but ASCII unless told "unicode"
        }
        if (isBreak(s, i)) {
            lineBreaks = true;
        }
        if (isSpace(s, i)) {
            leadingSpace = leadingSpace || i == 0;
            trailingSpace = trailingSpace || i + width == s.size();
            breakSpace = breakSpace || previousBreak;
            previousSpace = true;
            previousBreak = false;
        } else if (isBreak(s, i)) {
            leadingBreak = leadingBreak || i == 0;
            trailingBreak = trailingBreak || i + width == s.size();
            spaceBreak = spaceBreak || previousSpace;
            previousSpace = false;
            previousBreak = true;
        } else {
            previousSpace = false;
            previousBreak = false;
        }
        precededByWhitespace = isBlankZ(s, i);
        i += width;
        if (i < s.size()) {
            followedByWhitespace = isBlankZ(s, i + widthOf(at(s, i)));
        }
    }
    t.multiline = lineBreaks;
    if (leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks
        || blockIndicators) {
        t.blockPlainAllowed = false;
    }
    if (breakSpace || spaceBreak || special) {
        t.blockPlainAllowed = false;
        t.singleQuotedAllowed = false;
    }
    return t;
}

class Emitter {
public:
    std::string take() { return std::move(m_out); }

    void document(const Json &root)
    {
        indicator("%YAML", true, false, false);
        indicator("1.1", true, false, false);
        writeIndent();
        writeIndent();
        indicator("---", true, false, false);
        node(root, Context::Root);
        writeIndent();
        indicator("...", true, false, false);
        writeIndent();
    }

private:
    enum class Context { Root, Sequence, Mapping, SimpleKey };
    enum class Style { Plain, Single, Double };

    void put(char c)
    {
        m_out += c;
        ++m_column;
    }

    void putBreak()
    {
        m_out += '\n';
        m_column = 0;
    }

    void writeIndent()
    {
        const int indent = m_indent >= 0 ? m_indent : 0;
        if (!m_indention || m_column > indent || (m_column == indent && !m_whitespace)) {
            putBreak();
        }
        while (m_column < indent) {
            put(' ');
        }
        m_whitespace = true;
        m_indention = true;
    }

    void indicator(std::string_view text, bool needWhitespace, bool isWhitespace, bool isIndention)
    {
        if (needWhitespace && !m_whitespace) {
            put(' ');
        }
        for (char c : text) {
            put(c);
        }
        m_whitespace = isWhitespace;
        m_indention = m_indention && isIndention;
    }

    void tag(std::string_view suffix)
    {
        if (!m_whitespace) {
            put(' ');
        }
        put('!');
        put('!');
        for (char c : suffix) {
            put(c);
        }
        m_whitespace = false;
        m_indention = false;
    }

    void pushIndent(bool flow, bool indentless)
    {
        m_indents.push_back(m_indent);
        if (m_indent < 0) {
            m_indent = flow ? kBestIndent : 0;
        } else if (!indentless) {
            m_indent += kBestIndent;
        }
    }

    void popIndent()
    {
        m_indent = m_indents.back();
        m_indents.pop_back();
    }

    void node(const Json &value, Context context)
    {
        if (value.isArray()) {
            sequence(value, context);
        } else if (value.isObject()) {
            mapping(value);
        } else if (value.isNull()) {
            scalar("null", "null", context);
        } else if (value.isBool()) {
            scalar("bool", value.toBool() ? "true" : "false", context);
        } else if (value.isInt()) {
            scalar("int", std::to_string(value.toInt()), context);
        } else if (value.isNumber()) {
            char buffer[512];
            std::snprintf(buffer, sizeof buffer, "%lf", value.toDouble());
            scalar("float", buffer, context);
        } else {
            scalar("str", value.view(), context);
        }
    }

    void sequence(const Json &value, Context context)
    {
        tag("seq");
        if (value.items().empty()) {
            indicator("[", true, true, false);
            indicator("]", false, false, false);
            return;
        }
        pushIndent(false, context == Context::Mapping && !m_indention);
        for (const auto &item : value.items()) {
            writeIndent();
            indicator("-", true, false, true);
            node(item, Context::Sequence);
        }
        popIndent();
    }

    void mapping(const Json &value)
    {
        tag("map");
        if (value.members().empty()) {
            indicator("{", true, true, false);
            indicator("}", false, false, false);
            return;
        }
        pushIndent(false, false);
        for (const auto &[key, member] : value.members()) {
            writeIndent();
            // A key over 128 characters (with its tag) or on several lines is a complex key.
            if (key.size() + 5 <= kMaxSimpleKey && !analyze(key).multiline) {
                scalar("str", key, Context::SimpleKey);
                indicator(":", false, false, false);
            } else {
                indicator("?", true, false, true);
                scalar("str", key, Context::Mapping);
                writeIndent();
                indicator(":", true, false, true);
            }
            node(member, Context::Mapping);
        }
        popIndent();
    }

    void scalar(std::string_view tagSuffix, std::string_view text, Context context)
    {
        const ScalarTraits traits = analyze(text);
        const bool simpleKey = context == Context::SimpleKey;
        Style style = Style::Plain;
        if (simpleKey && traits.multiline) {
            style = Style::Double;
        }
        if (style == Style::Plain && (!traits.blockPlainAllowed || (text.empty() && simpleKey))) {
            style = Style::Single;
        }
        if (style == Style::Single && !traits.singleQuotedAllowed) {
            style = Style::Double;
        }
        tag(tagSuffix);
        pushIndent(true, false);
        switch (style) {
        case Style::Plain:
            plain(text, !simpleKey);
            break;
        case Style::Single:
            singleQuoted(text, !simpleKey);
            break;
        case Style::Double:
            doubleQuoted(text, !simpleKey);
            break;
        }
        popIndent();
    }

    void plain(std::string_view s, bool allowBreaks)
    {
        if (!m_whitespace && !s.empty()) {
            put(' ');
        }
        bool spaces = false;
        for (std::size_t i = 0; i < s.size();) {
            if (isSpace(s, i)) {
                if (allowBreaks && !spaces && m_column > kBestWidth && !isSpace(s, i + 1)) {
                    writeIndent();
                } else {
                    put(' ');
                }
                ++i;
                spaces = true;
            } else {
                // No line breaks here: a scalar with one is never plain.
                const std::size_t width = widthOf(at(s, i));
                m_out.append(s.substr(i, width));
                ++m_column;
                i += width;
                m_indention = false;
                spaces = false;
            }
        }
        m_whitespace = false;
        m_indention = false;
    }

    void singleQuoted(std::string_view s, bool allowBreaks)
    {
        indicator("'", true, false, false);
        bool spaces = false;
        bool breaks = false;
        for (std::size_t i = 0; i < s.size();) {
            if (isSpace(s, i)) {
                if (allowBreaks && !spaces && m_column > kBestWidth && i != 0 && i != s.size() - 1
                    && !isSpace(s, i + 1)) {
                    writeIndent();
                } else {
                    put(' ');
                }
                ++i;
                spaces = true;
            } else if (s[i] == '\n') {
                // The only break a single-quoted scalar can hold (the others are not ASCII
                // or not printable, so they are double-quoted).
                if (!breaks) {
                    putBreak();
                }
                putBreak();
                ++i;
                m_indention = true;
                breaks = true;
            } else {
                if (breaks) {
                    writeIndent();
                }
                if (s[i] == '\'') {
                    put('\'');
                }
                put(s[i]);
                ++i;
                m_indention = false;
                spaces = false;
                breaks = false;
            }
        }
        if (breaks) {
            writeIndent();
        }
        indicator("'", false, false, false);
        m_whitespace = false;
        m_indention = false;
    }

    void escape(std::uint32_t value)
    {
        put('\\');
        switch (value) {
        case 0x00:
            put('0');
            return;
        case 0x07:
            put('a');
            return;
        case 0x08:
            put('b');
            return;
        case 0x09:
            put('t');
            return;
        case 0x0A:
            put('n');
            return;
        case 0x0B:
            put('v');
            return;
        case 0x0C:
            put('f');
            return;
        case 0x0D:
            put('r');
            return;
        case 0x1B:
            put('e');
            return;
        case 0x22:
            put('"');
            return;
        case 0x5C:
            put('\\');
            return;
        case 0x85:
            put('N');
            return;
        case 0xA0:
            put('_');
            return;
        case 0x2028:
            put('L');
            return;
        case 0x2029:
            put('P');
            return;
        default:
            break;
        }
        int digits = 8;
        if (value <= 0xFF) {
            put('x');
            digits = 2;
        } else if (value <= 0xFFFF) {
            put('u');
            digits = 4;
        } else {
            put('U');
        }
        for (int k = (digits - 1) * 4; k >= 0; k -= 4) {
            const auto digit = static_cast<int>((value >> k) & 0x0F);
            put(static_cast<char>(digit < 10 ? '0' + digit : 'A' + digit - 10));
        }
    }

    void doubleQuoted(std::string_view s, bool allowBreaks)
    {
        indicator("\"", true, false, false);
        bool spaces = false;
        for (std::size_t i = 0; i < s.size();) {
            const unsigned char c = at(s, i);
            const bool bom = c == 0xEF && at(s, i + 1) == 0xBB && at(s, i + 2) == 0xBF;
            if (!isPrintable(s, i) || c >= 0x80 || bom || isBreak(s, i) || c == '"' || c == '\\') {
                std::size_t width = widthOf(c);
                std::uint32_t value = c;
                if (width > 1 && i + width <= s.size()) {
                    value = c & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07);
                    for (std::size_t k = 1; k < width; ++k) {
                        value = (value << 6) + (at(s, i + k) & 0x3F);
                    }
                } else {
                    width = 1; // not UTF-8 (libyaml refuses it): the byte itself
                }
                i += width;
                escape(value);
                spaces = false;
            } else if (c == ' ') {
                if (allowBreaks && !spaces && m_column > kBestWidth && i != 0
                    && i != s.size() - 1) {
                    writeIndent();
                    if (isSpace(s, i + 1)) {
                        put('\\');
                    }
                } else {
                    put(' ');
                }
                ++i;
                spaces = true;
            } else {
                put(static_cast<char>(c));
                ++i;
                spaces = false;
            }
        }
        indicator("\"", false, false, false);
        m_whitespace = false;
        m_indention = false;
    }

    std::string m_out;
    int m_column = 0;
    int m_indent = -1;
    std::vector<int> m_indents;
    bool m_whitespace = true;
    bool m_indention = true;
};

// squeue's and sinfo's "" are strings Slurm never set (NULL), which its JSON writer prints as
// "" and its YAML writer as null.
Json nullForEmpty(const Json &value)
{
    if (value.isString() && value.view().empty()) {
        return Json();
    }
    if (value.isArray()) {
        Json out = Json::array();
        for (const auto &item : value.items()) {
            out.push(nullForEmpty(item));
        }
        return out;
    }
    if (value.isObject()) {
        Json out = Json::object();
        for (const auto &[key, member] : value.members()) {
            out.add(key, nullForEmpty(member));
        }
        return out;
    }
    return value;
}

} // namespace

std::string slurmYamlText(const Json &value, EmptyStrings empty)
{
    Emitter emitter;
    emitter.document(empty == EmptyStrings::AreNull ? nullForEmpty(value) : value);
    return emitter.take();
}

std::string slurmDataText(const Json &value, DataFormat format, EmptyStrings empty)
{
    return format == DataFormat::Yaml ? slurmYamlText(value, empty) : slurmJsonText(value);
}

std::optional<DataFormat> dataFormat(const ParseResult &cli, int jsonId, int yamlId)
{
    std::optional<DataFormat> format;
    for (const auto &option : cli.options) {
        if (option.def->id == jsonId) {
            format = DataFormat::Json;
        } else if (option.def->id == yamlId) {
            format = DataFormat::Yaml;
        }
    }
    return format;
}

} // namespace mc::cmd
