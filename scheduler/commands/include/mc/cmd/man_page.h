#pragma once
// Man pages of the commands: a small Markdown source per command (docs/man/<cmd>.md) turned
// into roff, with the OPTIONS section generated from the command's option table so that the
// page always says which options minicluster implements and which it refuses.

#include "mc/cmd/option_parser.h"

#include <map>
#include <span>
#include <string>
#include <string_view>

namespace mc::cmd {

// The --help text of `command` (sq: squeue's); empty for commands without one.
std::string_view commandHelpText(std::string_view command);

// One-line descriptions of the options in a --help text, keyed "--name" (or "-x" for a
// short-only option): the words after an option's spelling, with its continuation lines.
std::map<std::string, std::string> helpDescriptions(std::string_view help);

// The option table of `command` (sbatch, srun, salloc, squeue, scancel, sacct, sinfo, scontrol;
// sq shares squeue's); empty for commands without one.
std::span<const OptionDef> commandOptionTable(std::string_view command);

// Converts the Markdown subset of docs/man: "# name(1) -- summary", "## SECTION", paragraphs,
// "- " bullets, indented code blocks, `code`, **bold**. A line "@OPTIONS@" becomes the option
// list of `options`, each described by `help` (a --help text) and marked implemented or not
// supported; lines "--name: text" under "## OPTION NOTES" (not printed as a section) add text
// to that option's entry.
std::string markdownToMan(
    std::string_view markdown, std::span<const OptionDef> options, std::string_view help = {});

} // namespace mc::cmd
