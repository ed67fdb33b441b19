#pragma once
// How a command run ends, and the one answer every command gives to an option of its man page
// that minicluster does not implement.

#include "mc/cmd/option_parser.h"

#include <optional>
#include <string>
#include <string_view>

namespace mc::cmd {

struct Context;

// What to print on stdout and stderr, and the exit code.
struct Outcome {
    std::string out;
    std::string err;
    int exitCode = 0;
};

// "<program>: error: <what> is not supported by minicluster" with `exitCode` (Slurm's
// error_exit is 1).
Outcome notSupported(std::string_view program, std::string_view what, int exitCode = 1);

// Writes `outcome` to the context's stdout and stderr and returns its exit code: the last step
// of every command's run().
int deliver(const Context &ctx, const Outcome &outcome);

// Slurm's hint after a bad command line: "Try \"<program> --help\" for more information\n".
std::string tryHelp(std::string_view program);

// Hands each parsed option, in order, to `apply` (`std::optional<Outcome>(const ParsedOption &)`),
// whose Outcome ends the run early (--help, --version...). An option minicluster refuses
// (`supported` false) ends it first with notSupported(); a malformed command line ends it
// after the options before the bad word, with glibc's diagnostic and the "Try" hint (exit 1).
// nullopt: the run goes on.
template <class Apply>
std::optional<Outcome> applyOptions(const ParseResult &cli, std::string_view program, Apply &&apply)
{
    for (const auto &option : cli.options) {
        if (!option.def->supported) {
            return notSupported(program, optionName(*option.def));
        }
        if (std::optional<Outcome> end = apply(option)) {
            return end;
        }
    }
    if (!cli.ok()) {
        return Outcome{{}, cli.error + tryHelp(program), 1};
    }
    return std::nullopt;
}

} // namespace mc::cmd
