#pragma once
// Each user's progress through the lessons, kept in <cluster>/state/lessons/<user>.json: which
// lesson is current, when each was started (cluster clock and wall clock: only jobs and
// commands from then on count), how many hints were shown, whether it was completed, and when
// a step was started again.

#include "mc/emu/cluster_layout.h"
#include "mc/lessons/evaluate.h"

#include <map>
#include <string>

namespace mc::lessons {

struct LessonProgress {
    long long started = 0; // cluster clock
    double wallStarted = 0; // wall clock, seconds with microseconds
    int hintsShown = 0; // of the current step
    std::size_t hintStep = 0; // the step those hints belong to
    std::size_t shownStep = 0; // the last step whose text was printed (start, then check)
    bool complete = false;
    std::map<std::size_t, StepStart> stepStarts; // steps started again (`reset-step`)
};

class ProgressStore {
public:
    ProgressStore(const emu::ClusterLayout &layout, std::string user);

    // Reads the file (a missing file is an empty progress). False when it cannot be read.
    bool load();
    bool save() const;

    std::string current; // id of the current lesson, "" when none was started
    std::map<std::string, LessonProgress> lessons;

    const std::string &path() const { return m_path; }

private:
    std::string m_path;
};

} // namespace mc::lessons
