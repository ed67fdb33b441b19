#pragma once
// Running a helper program (unsquashfs, mksquashfs, cp, bwrap) to completion, and small file
// helpers the container commands share.

#include <string>
#include <vector>

namespace mc::containers {

// Runs argv[0] (looked up on PATH) with the given arguments, stdout and stderr inherited unless
// `quiet` (then they go to /dev/null). Returns its exit status, 127 when it cannot start, 128+N
// when killed by signal N.
int runProgram(const std::vector<std::string> &argv, bool quiet = false);

bool isDirectory(const std::string &path);
bool pathExists(const std::string &path); // lstat
std::string readText(const std::string &path); // empty when unreadable
bool writeText(const std::string &path, const std::string &text, unsigned mode = 0644);
std::string absolutePath(const std::string &path); // against the working directory, lexical
bool makeDirs(const std::string &path); // mkdir -p
bool removeTree(const std::string &path); // rm -rf

} // namespace mc::containers
