#pragma once
// How a command run ends, and the one answer every command gives to an option of its man page
// that minicluster does not implement.

#include <string>
#include <string_view>

namespace mc::cmd {

// What to print on stdout and stderr, and the exit code.
struct Outcome {
    std::string out;
    std::string err;
    int exitCode = 0;
};

// "<program>: error: <what> is not supported by minicluster" with `exitCode` (Slurm's
// error_exit is 1).
Outcome notSupported(std::string_view program, std::string_view what, int exitCode = 1);

} // namespace mc::cmd
