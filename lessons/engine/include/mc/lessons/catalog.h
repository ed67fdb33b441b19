#pragma once
// The lessons shipped in one folder: <dir>/<lang>/NN-slug.md, found by number ("2", "02"), by
// full id ("02-first-job") or by slug ("first-job").

#include "mc/lessons/lesson.h"

#include <optional>
#include <string>
#include <vector>

namespace mc::lessons {

struct LessonEntry {
    std::string id; // 02-first-job
    std::string path; // the .md file
};

// Lessons of `lang`, in number order; English ones stand in for those `lang` lacks.
std::vector<LessonEntry> listLessons(const std::string &dir, const std::string &lang);

// nullopt when no lesson matches `key`; otherwise the parse (with its problems).
std::optional<LessonParse> loadLesson(
    const std::string &dir, const std::string &lang, const std::string &key);

// The lessons folder shipped with the binaries (<bin>/../share/minicluster/lessons), and the
// sample jobs beside it.
std::string lessonsDir(const std::string &binDir);
std::string sampleJobsDir(const std::string &binDir);

} // namespace mc::lessons
