#pragma once
// squeue -v: Slurm's dump of the options it read (opts.c _print_options()), printed before the
// listing on stdout.

#include <map>
#include <optional>
#include <string>

namespace mc::cmd::squeue {

struct VerboseFacts {
    std::map<int, std::string> given; // each option's last value as typed, by option id
    std::optional<std::string> format, sort; // -o and -S, with --start's defaults applied
    std::string me; // --me: the user's uid, as Slurm lists it
    int verbose = 0; // how many -v
};

// The dump, between its two dashed lines, then the two empty lines after it.
std::string optionDump(const VerboseFacts &facts);

} // namespace mc::cmd::squeue
