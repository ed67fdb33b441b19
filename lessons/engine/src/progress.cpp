#include "mc/lessons/progress.h"

#include "mc/base/file.h"
#include "mc/proto/json.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mc::lessons {

using proto::Json;

ProgressStore::ProgressStore(const emu::ClusterLayout &layout, std::string user)
    : m_path(layout.state() + "/lessons/" + user + ".json")
{ }

bool ProgressStore::load()
{
    current.clear();
    lessons.clear();
    const auto text = base::readFile(m_path);
    if (!text) {
        return true;
    }
    auto j = Json::parse(*text);
    if (!j) {
        return false;
    }
    current = (*j)["current"].toString();
    for (const auto &[id, p] : (*j)["lessons"].members()) {
        LessonProgress lp;
        lp.started = p["started"].toInt();
        lp.wallStarted = p["wall_started"].toDouble();
        lp.hintsShown = static_cast<int>(p["hints_shown"].toInt());
        lp.hintStep = static_cast<std::size_t>(p["hint_step"].toInt());
        lp.shownStep = static_cast<std::size_t>(p["shown_step"].toInt());
        lp.complete = p["complete"].toBool();
        for (const auto &[step, start] : p["step_starts"].members()) {
            lp.stepStarts[static_cast<std::size_t>(std::strtoul(step.c_str(), nullptr, 10))]
                = StepStart{start["started"].toInt(), start["wall_started"].toDouble()};
        }
        lessons[id] = lp;
    }
    return true;
}

bool ProgressStore::save() const
{
    Json j = Json::object();
    j.set("current", current);
    Json all = Json::object();
    for (const auto &[id, lp] : lessons) {
        Json p = Json::object();
        p.set("started", static_cast<std::int64_t>(lp.started));
        p.set("wall_started", lp.wallStarted);
        p.set("hints_shown", lp.hintsShown);
        p.set("hint_step", static_cast<std::int64_t>(lp.hintStep));
        p.set("shown_step", static_cast<std::int64_t>(lp.shownStep));
        p.set("complete", lp.complete);
        Json starts = Json::object();
        for (const auto &[step, start] : lp.stepStarts) {
            Json one = Json::object();
            one.set("started", static_cast<std::int64_t>(start.since));
            one.set("wall_started", start.wallSince);
            starts.set(std::to_string(step), one);
        }
        p.set("step_starts", starts);
        all.set(id, p);
    }
    j.set("lessons", all);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(m_path).parent_path(), ec);
    std::string tmp = m_path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << j.dump() << '\n';
        if (!out) {
            return false;
        }
    }
    std::filesystem::rename(tmp, m_path, ec);
    return !ec;
}

} // namespace mc::lessons
