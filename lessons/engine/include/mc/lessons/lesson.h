#pragma once
// A lesson: lessons/<lang>/NN-slug.md. A front matter block (`---` ... `---`: title, files,
// preset, needs), an introduction, then steps (each `## ` heading starts one) with their text,
// their ```check blocks and their ```hint blocks. The Markdown is shown as written; checks and
// hints are taken out of it.

#include "mc/lessons/check.h"

#include <string>
#include <string_view>
#include <vector>

namespace mc::lessons {

struct Step {
    std::string title; // the `## ` heading
    std::string text; // Markdown, without check and hint blocks
    std::vector<Check> checks;
    std::vector<std::string> hints; // shown one at a time, on demand
};

struct Lesson {
    std::string id; // "02-first-job" (the file name without .md)
    std::string number; // "02"
    std::string lang; // "en", "fr"
    std::string title;
    std::string preset = "default"; // the site preset the lesson runs on
    std::vector<std::string> files; // sample_jobs/ files copied into the user's home at start
    std::vector<std::string> laptopFiles; // sample_jobs/ files copied into the workstation home
    std::vector<std::string> needs; // features the lesson needs that may be missing ("srun")
    std::string intro; // Markdown before the first step
    std::vector<Step> steps;
};

struct LessonParse {
    Lesson lesson;
    std::vector<std::string> problems; // "line 12: unknown check 'jbo'"; empty when clean
};

// `id` and `lang` come from the file's name and folder.
LessonParse parseLesson(std::string_view text, std::string id, std::string lang);

// The lesson as `user` reads it: `{user}` in its introduction, steps and hints becomes the user's
// name (an ~/.ssh/config's `User` line, a path under /scratch typed on the laptop).
void personalize(Lesson &lesson, const std::string &user);

// How many columns `text` (UTF-8) takes in a terminal: one per character, not per byte, so that
// accented titles line up.
std::size_t displayWidth(std::string_view text);

} // namespace mc::lessons
