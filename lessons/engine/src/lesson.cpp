#include "mc/lessons/lesson.h"

#include "mc/base/text.h"
#include "mc/lessons/evaluate.h"

#include <algorithm>
#include <sstream>

namespace mc::lessons {

namespace {

using base::trim;

std::vector<std::string> list(std::string_view value)
{
    std::vector<std::string> out;
    std::istringstream in{std::string(value)};
    for (std::string w; in >> w;) {
        if (!w.empty() && w.back() == ',') {
            w.pop_back();
        }
        if (!w.empty()) {
            out.push_back(w);
        }
    }
    return out;
}

// Field names a check may use, so that a typo is reported when the lesson is read, not when a
// student runs the check.
void validate(const Check &c, int line, std::vector<std::string> &problems)
{
    for (const auto &cond : c.conditions) {
        bool known = c.kind == CheckKind::Job ? isJobField(cond.field) : isNodeField(cond.field);
        if (!known) {
            problems.push_back("line " + std::to_string(line) + ": unknown field '" + cond.field
                + "' in `" + c.source + "`");
        }
    }
}

} // namespace

LessonParse parseLesson(std::string_view text, std::string id, std::string lang)
{
    LessonParse result;
    Lesson &lesson = result.lesson;
    lesson.id = std::move(id);
    lesson.lang = std::move(lang);
    lesson.number = lesson.id.substr(0, lesson.id.find('-'));

    std::vector<std::string> lines;
    {
        std::string cur;
        for (char c : text) {
            if (c == '\n') {
                lines.push_back(cur);
                cur.clear();
            } else {
                cur += c;
            }
        }
        if (!cur.empty()) {
            lines.push_back(cur);
        }
    }
    std::size_t i = 0;
    if (!lines.empty() && trim(lines[0]) == "---") {
        for (i = 1; i < lines.size() && trim(lines[i]) != "---"; ++i) {
            auto colon = lines[i].find(':');
            if (colon == std::string::npos) {
                continue;
            }
            std::string key = trim(std::string_view(lines[i]).substr(0, colon));
            std::string value = trim(std::string_view(lines[i]).substr(colon + 1));
            if (key == "title") {
                lesson.title = value;
            } else if (key == "preset") {
                lesson.preset = value;
            } else if (key == "files") {
                lesson.files = list(value);
            } else if (key == "laptop_files") {
                lesson.laptopFiles = list(value);
            } else if (key == "needs") {
                lesson.needs = list(value);
            } else {
                result.problems.push_back(
                    "line " + std::to_string(i + 1) + ": unknown front matter key '" + key + "'");
            }
        }
        if (i >= lines.size()) {
            result.problems.push_back("the front matter (---) is not closed");
        }
        ++i;
    }

    std::string *textOut = &lesson.intro;
    Step *step = nullptr;
    for (; i < lines.size(); ++i) {
        const std::string &l = lines[i];
        if (l.rfind("## ", 0) == 0) {
            lesson.steps.push_back(Step{});
            step = &lesson.steps.back();
            step->title = trim(std::string_view(l).substr(3));
            textOut = &step->text;
            continue;
        }
        if (l.rfind("# ", 0) == 0 && lesson.title.empty()) {
            lesson.title = trim(std::string_view(l).substr(2));
        }
        std::string fence = trim(l);
        if (fence == "```check" || fence == "```hint") {
            bool isCheck = fence == "```check";
            int startLine = static_cast<int>(i) + 1;
            std::string hint;
            for (++i; i < lines.size() && trim(lines[i]) != "```"; ++i) {
                int lineNo = static_cast<int>(i) + 1;
                if (!isCheck) {
                    hint += lines[i] + "\n";
                    continue;
                }
                std::string t = trim(lines[i]);
                if (t.empty() || t[0] == '#') {
                    continue;
                }
                if (!step) {
                    result.problems.push_back(
                        "line " + std::to_string(lineNo) + ": a check before the first step");
                    continue;
                }
                if (t.rfind("explain:", 0) == 0) {
                    if (step->checks.empty()) {
                        result.problems.push_back(
                            "line " + std::to_string(lineNo) + ": `explain:` must follow a check");
                    } else {
                        auto &e = step->checks.back().explain;
                        e += (e.empty() ? "" : " ") + trim(std::string_view(t).substr(8));
                    }
                    continue;
                }
                auto parsed = parseCheck(t);
                if (!parsed.check) {
                    result.problems.push_back(
                        "line " + std::to_string(lineNo) + ": " + parsed.error + " in `" + t + "`");
                    continue;
                }
                parsed.check->line = lineNo;
                validate(*parsed.check, lineNo, result.problems);
                step->checks.push_back(*parsed.check);
            }
            if (i >= lines.size()) {
                result.problems.push_back(
                    "line " + std::to_string(startLine) + ": the ``` block is not closed");
            }
            if (!isCheck) {
                if (step) {
                    step->hints.push_back(trim(hint));
                } else {
                    result.problems.push_back(
                        "line " + std::to_string(startLine) + ": a hint before the first step");
                }
            }
            continue;
        }
        *textOut += l + "\n";
    }
    if (lesson.title.empty()) {
        result.problems.push_back("no title (front matter `title:` or a `# ` heading)");
    }
    for (auto &s : lesson.steps) {
        s.text = trim(s.text);
    }
    lesson.intro = trim(lesson.intro);
    return result;
}

void personalize(Lesson &lesson, const std::string &user)
{
    auto fill = [&](std::string &text) {
        for (std::size_t at = 0; (at = text.find("{user}", at)) != std::string::npos;
             at += user.size()) {
            text.replace(at, 6, user);
        }
    };
    fill(lesson.intro);
    for (auto &step : lesson.steps) {
        fill(step.text);
        for (auto &h : step.hints) {
            fill(h);
        }
    }
}

std::size_t displayWidth(std::string_view text)
{
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(),
        [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

} // namespace mc::lessons
