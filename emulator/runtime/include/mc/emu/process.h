#pragma once
// Starting a job's process: files opened first (so a missing output directory is a launch
// failure the controller can report), then fork, a new session, exec.

#include <string>
#include <sys/types.h>
#include <utility>
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
    // Limits the child applies to itself before exec: cgroup.procs files it joins (a failure
    // ends it with status 126 and a message on its stderr), rlimits, and the number of CPUs
    // it may run on (0: all), from the node's CPU index `firstCpu` (bindToCpus).
    std::vector<std::string> joinFiles;
    std::vector<std::pair<int, long long>> rlimits; // resource, soft = hard limit
    int cpuCount = 0;
    int firstCpu = 0;
    // When >= 0, the files are opened as this real uid and gid (setfsuid), as slurmstepd opens
    // them as the job's user: a job writes only where its user may (isolated users).
    // Paths under `fileRoot` (the cluster directory) are opened from it, so the user's ids
    // need not reach the directories above it.
    int fileUid = -1;
    int fileGid = -1;
    std::string fileRoot;
};

// Opens the spec's stdin, stdout and stderr (stderr a duplicate of stdout when they are one
// file), close-on-exec; false with `error` naming the path when one cannot be opened.
bool openStdio(const SpawnSpec &spec, std::vector<int> &fds, std::string &error);

// Returns the child's pid (also its process group and session id), or -1 with `error` set to
// the path and reason when a file cannot be opened or the fork fails.
pid_t spawnProcess(const SpawnSpec &spec, std::string &error);

// Binds the calling process (and what it starts) to `count` CPUs from `first`, modulo the CPUs
// it may use (a job's CPUs: nproc, os.sched_getaffinity), as hostCpus() of mc/emu/cpu_slots.h
// counts them. 0: unchanged. A job with more CPUs than it may use keeps them all.
void bindToCpus(int count, int first);

// Directory of the running executable (/proc/self/exe).
std::string executableDir();

} // namespace mc::emu
