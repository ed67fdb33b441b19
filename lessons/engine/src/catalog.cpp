#include "mc/lessons/catalog.h"

#include "mc/base/file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace mc::lessons {

namespace fs = std::filesystem;

namespace {

std::vector<LessonEntry> filesOf(const std::string &dir)
{
    std::vector<LessonEntry> out;
    std::error_code ec;
    for (const auto &e : fs::directory_iterator(dir, ec)) {
        if (e.path().extension() == ".md") {
            out.push_back({e.path().stem().string(), e.path().string()});
        }
    }
    std::sort(out.begin(), out.end(),
        [](const LessonEntry &a, const LessonEntry &b) { return a.id < b.id; });
    return out;
}

std::string numberOf(const std::string &id)
{
    return id.substr(0, id.find('-'));
}

} // namespace

std::vector<LessonEntry> listLessons(const std::string &dir, const std::string &lang)
{
    auto own = filesOf(dir + "/" + lang);
    if (lang != "en") {
        for (const auto &e : filesOf(dir + "/en")) {
            bool has = std::any_of(own.begin(), own.end(),
                [&](const LessonEntry &o) { return numberOf(o.id) == numberOf(e.id); });
            if (!has) {
                own.push_back(e);
            }
        }
        std::sort(own.begin(), own.end(),
            [](const LessonEntry &a, const LessonEntry &b) { return a.id < b.id; });
    }
    return own;
}

std::optional<LessonParse> loadLesson(
    const std::string &dir, const std::string &lang, const std::string &key)
{
    std::string k = key;
    if (k.size() == 1 && std::isdigit(static_cast<unsigned char>(k[0]))) {
        k = "0" + k;
    }
    for (const auto &e : listLessons(dir, lang)) {
        std::string slug = e.id.substr(e.id.find('-') + 1);
        if (e.id == k || numberOf(e.id) == k || slug == k) {
            std::string fileLang = fs::path(e.path).parent_path().filename().string();
            return parseLesson(base::fileText(e.path), e.id, fileLang);
        }
    }
    return std::nullopt;
}

std::string lessonsDir(const std::string &binDir)
{
    return binDir + "/../share/minicluster/lessons";
}

std::string sampleJobsDir(const std::string &binDir)
{
    return binDir + "/../share/minicluster/sample_jobs";
}

} // namespace mc::lessons
