#pragma once
// What a student who follows a lesson to the letter leaves behind (the jobs the controller
// reports, the commands in the shell history, the files), written into any world that can hold
// it: the engine's facts in memory (content.lesson_checks), a cluster folder behind a stand-in
// controller for the Lessons dock (gui.lessons_dock_walkthrough). One list of right answers
// for both. The student is bob of account def-prof1: not alice, whom the lessons once assumed.

#include "mc/lessons/facts.h"
#include "mc/lessons/lesson.h"
#include "mc/proto/json.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mc::lessons::test {

inline constexpr const char *kUser = "bob";
inline constexpr const char *kAccount = "def-prof1";
// The shipped lessons, 01 to kLessonCount.
inline constexpr int kLessonCount = 15;

// Where a student's work goes. The job numbers and times are the controller's clock: submitted
// at 1000 + 10 × id, so after a lesson started at 900 and before `now` = 5000.
class Student {
public:
    virtual ~Student() = default;
    // A job as the controller reports it; the reference stays valid until the next job.
    virtual mc::proto::Json &add(mc::proto::Json job) = 0;
    // `command` typed on `host` (login1, cn01, laptop), in the order of the calls.
    virtual void typed(const char *host, const std::string &command) = 0;
    // The student's files: where file() and dir() write.
    virtual const mc::lessons::FileView &files() const = 0;

    mc::proto::Json &job(std::int64_t id, const char *name, const char *state);
    // `path` as the student sees it: ~/..., $SCRATCH/..., laptop:~/...; written in files().
    virtual void file(const std::string &path, const std::string &content);
    virtual void dir(const std::string &path);
};

// Shipped lesson `number` ("01" ... "15") in `lang`, when it parses without a problem.
std::optional<mc::lessons::Lesson> shippedLesson(
    const std::string &lang, const std::string &number);

// Lesson `number` ("01" ... "15") done right, step by step in the lesson's order: the work of
// step k comes before the work of step k + 1.
void doRight(const std::string &number, Student &w);

} // namespace mc::lessons::test
