#include "mc/cmd/option_parser.h"

namespace mc::cmd {
namespace {

class Parser {
public:
    Parser(std::span<const OptionDef> table, std::span<const std::string> args,
        std::string_view program)
        : m_table(table)
        , m_args(args)
        , m_program(program)
    { }

    ParseResult run(Ordering ordering)
    {
        while (m_index < m_args.size() && m_result.ok()) {
            const std::string &word = m_args[m_index];
            if (word == "--") {
                ++m_index;
                break;
            }
            if (word.size() < 2 || word[0] != '-') {
                if (ordering == Ordering::StopAtOperand) {
                    break;
                }
                m_result.operands.push_back(word);
                ++m_index;
                continue;
            }
            ++m_index;
            if (word[1] == '-') {
                parseLong(std::string_view(word).substr(2));
            } else {
                parseShortCluster(std::string_view(word).substr(1));
            }
        }
        if (m_result.ok()) {
            for (; m_index < m_args.size(); ++m_index) {
                m_result.operands.push_back(m_args[m_index]);
            }
        }
        return std::move(m_result);
    }

private:
    void fail(const std::string &message)
    {
        m_result.error = std::string(m_program) + ": " + message + "\n";
    }

    void add(const OptionDef &def, std::optional<std::string> value)
    {
        m_result.options.push_back(ParsedOption{&def, std::move(value)});
    }

    // glibc's process_long_option(): exact match first, else a unique prefix (options that
    // differ only in name but agree in argument kind and id do not make a prefix ambiguous).
    void parseLong(std::string_view text)
    {
        const std::size_t eq = text.find('=');
        const std::string_view name = text.substr(0, eq);
        const OptionDef *found = nullptr;
        for (const auto &def : m_table) {
            if (!def.longName.empty() && def.longName == name) {
                found = &def;
                break;
            }
        }
        if (!found) {
            std::vector<const OptionDef *> ambiguous;
            for (const auto &def : m_table) {
                if (def.longName.empty() || def.longName.substr(0, name.size()) != name) {
                    continue;
                }
                if (!found) {
                    found = &def;
                } else if (found->arg != def.arg || found->id != def.id) {
                    if (ambiguous.empty()) {
                        ambiguous.push_back(found);
                    }
                    ambiguous.push_back(&def);
                }
            }
            if (!ambiguous.empty()) {
                std::string message
                    = "option '--" + std::string(text) + "' is ambiguous; possibilities:";
                for (const OptionDef *def : ambiguous) {
                    message += " '--" + std::string(def->longName) + "'";
                }
                fail(message);
                return;
            }
        }
        if (!found || name.empty()) {
            fail("unrecognized option '--" + std::string(text) + "'");
            return;
        }
        if (eq != std::string_view::npos) {
            if (found->arg == ArgKind::None) {
                fail("option '--" + std::string(found->longName) + "' doesn't allow an argument");
                return;
            }
            add(*found, std::string(text.substr(eq + 1)));
            return;
        }
        if (found->arg == ArgKind::Required) {
            if (m_index >= m_args.size()) {
                fail("option '--" + std::string(found->longName) + "' requires an argument");
                return;
            }
            add(*found, m_args[m_index++]);
            return;
        }
        add(*found, std::nullopt);
    }

    void parseShortCluster(std::string_view letters)
    {
        for (std::size_t i = 0; i < letters.size(); ++i) {
            const char letter = letters[i];
            const OptionDef *found = nullptr;
            for (const auto &def : m_table) {
                if (def.shortName != 0 && def.shortName == letter) {
                    found = &def;
                    break;
                }
            }
            if (!found) {
                fail(std::string("invalid option -- '") + letter + "'");
                return;
            }
            const std::string_view rest = letters.substr(i + 1);
            switch (found->arg) {
            case ArgKind::None:
                add(*found, std::nullopt);
                break;
            case ArgKind::Optional:
                add(*found, rest.empty() ? std::nullopt : std::optional<std::string>(rest));
                return;
            case ArgKind::Required:
                if (!rest.empty()) {
                    add(*found, std::string(rest));
                } else if (m_index < m_args.size()) {
                    add(*found, m_args[m_index++]);
                } else {
                    fail(std::string("option requires an argument -- '") + letter + "'");
                }
                return;
            }
        }
    }

    std::span<const OptionDef> m_table;
    std::span<const std::string> m_args;
    std::string_view m_program;
    std::size_t m_index = 0;
    ParseResult m_result;
};

} // namespace

ParseResult parseOptions(std::span<const OptionDef> table, std::span<const std::string> args,
    std::string_view program, Ordering ordering)
{
    return Parser(table, args, program).run(ordering);
}

std::string optionName(const OptionDef &def)
{
    if (!def.longName.empty()) {
        return "--" + std::string(def.longName);
    }
    return std::string("-") + def.shortName;
}

} // namespace mc::cmd
