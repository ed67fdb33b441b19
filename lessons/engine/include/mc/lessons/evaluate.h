#pragma once
// Judging checks on a snapshot of facts, with the reason for a failure in plain words (English
// or French, the lesson's language). Pure: no I/O beyond reading files through Facts::files.

#include "mc/lessons/check.h"
#include "mc/lessons/facts.h"
#include "mc/lessons/lesson.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mc::lessons {

struct CheckResult {
    bool passed = false;
    std::string explanation; // why it failed, in the lesson's language; empty when passed
    std::vector<std::int64_t> jobIds; // the jobs that matched (for the app to highlight)
};

CheckResult evaluate(const Check &check, const Facts &facts, std::string_view lang);

struct StepStatus {
    std::vector<CheckResult> results; // one per check of the step
    bool passed = false; // every check passed
};

struct LessonStatus {
    std::vector<StepStatus> steps;
    std::size_t currentStep = 0; // the first step not passed (== steps.size() when complete)
    bool complete = false;
};

// When a step was started again (`minicluster lesson reset-step`): its checks count only jobs
// and commands from then on, so a forbidden command typed earlier no longer blocks it.
struct StepStart {
    long long since = 0; // cluster clock
    double wallSince = 0; // wall clock, seconds with microseconds
};

// Evaluates every check of every step; `restarts` maps a step's index to its new start.
LessonStatus evaluateLesson(const Lesson &lesson, const Facts &facts,
    const std::map<std::size_t, StepStart> &restarts = {});

// The fields `job` and `node` checks know (lessons/README.md lists them).
bool isJobField(std::string_view field);
bool isNodeField(std::string_view field);

} // namespace mc::lessons
