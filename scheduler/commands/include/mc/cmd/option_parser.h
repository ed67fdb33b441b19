#pragma once
// A getopt_long() work-alike driven by a table of option definitions. Each command keeps one
// table (long name, short letter, argument kind, id, whether minicluster supports it) and uses
// it for its command line; sbatch also uses it for the words of #SBATCH lines. Diagnostics are
// glibc's, word for word ("sbatch: unrecognized option '--foo'"), so that errors look exactly
// like Slurm's.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mc::cmd {

enum class ArgKind {
    None, // --hold
    Required, // --time=5, --time 5, -t5, -t 5
    Optional, // --nice, --nice=5, -k, -kVALUE (never the next word)
};

struct OptionDef {
    std::string_view longName; // without "--"; empty for a short-only option
    char shortName = 0; // 0 for a long-only option
    ArgKind arg = ArgKind::None;
    int id = 0; // the command's own option identifier
    bool supported = true; // false: the command refuses it ("not supported by minicluster")
};

struct ParsedOption {
    const OptionDef *def = nullptr;
    std::optional<std::string> value; // nullopt when no argument was given
};

// How non-option words are handled, as getopt's optstring prefix selects.
enum class Ordering {
    Permute, // GNU default: options may follow operands
    StopAtOperand, // "+": the first operand ends the options (sbatch: script args follow)
};

struct ParseResult {
    std::vector<ParsedOption> options; // in command-line order
    std::vector<std::string> operands; // non-option words, in order
    // glibc's diagnostic for the first bad word, newline-terminated; parsing stops there, so it
    // belongs after every entry of `options`. Empty when the command line is well-formed.
    std::string error;

    bool ok() const { return error.empty(); }
};

// Parses `args` (without the program name). Long options may be abbreviated to any unique
// prefix, as getopt_long() allows; `program` prefixes the diagnostics.
ParseResult parseOptions(std::span<const OptionDef> table, std::span<const std::string> args,
    std::string_view program, Ordering ordering = Ordering::Permute);

// The option's name as messages spell it: "--time", or "-t" when it has no long name.
std::string optionName(const OptionDef &def);

} // namespace mc::cmd
