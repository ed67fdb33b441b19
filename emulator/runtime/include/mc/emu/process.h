#pragma once
// Starting a job's process: files opened first (so a missing output directory is a launch
// failure the controller can report), then fork, a new session, exec.

#include <string>
#include <sys/types.h>
#include <vector>

namespace mc::emu {

struct SpawnSpec {
    std::vector<std::string> argv;
    std::vector<std::string> env;
    std::string stdinPath = "/dev/null"; // host paths
    std::string stdoutPath;
    std::string stderrPath; // empty or equal to stdout: one file for both
    bool append = false; // --open-mode=append
    std::string chdir; // host path; empty: unchanged
};

// Returns the child's pid (also its process group and session id), or -1 with `error` set to
// the path and reason when a file cannot be opened or the fork fails.
pid_t spawnProcess(const SpawnSpec &spec, std::string &error);

// Directory of the running executable (/proc/self/exe).
std::string executableDir();

} // namespace mc::emu
