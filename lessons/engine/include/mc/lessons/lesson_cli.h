#pragma once
// `minicluster lesson list | start ID | check [ID] | hint [ID] | show [ID] | reset [ID] |
// reset-step [ID]`:
// the lessons from a terminal, with the same engine the app uses.

#include "mc/emu/cluster_layout.h"

#include <string>
#include <vector>

namespace mc::lessons {

struct LessonContext {
    emu::ClusterLayout layout;
    std::string user; // the emulated user
    std::string account; // the user's default account (for $PROJECT)
    std::string lessonsDir; // lessons/ (holding en/ and fr/)
    std::string samplesDir; // sample_jobs/
    std::string lang; // "" : from --lang, else $LANG
};

// `args` are the words after `lesson`. Prints to stdout/stderr; returns the exit status
// (check: 0 when the lesson is complete, 1 when a step is left, 2 on a usage error).
int runLessonCommand(const LessonContext &context, const std::vector<std::string> &args);

// "fr" when $LC_ALL, $LC_MESSAGES or $LANG starts with fr, else "en".
std::string languageFromEnvironment();

} // namespace mc::lessons
