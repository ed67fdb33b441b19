#include "mc/launch/lesson_shell.h"

#include "mc/emu/cluster_layout.h"

#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

namespace mc::launch {

namespace fs = std::filesystem;

std::optional<std::string> lessonDirInShell(const std::string &user, std::string &error)
{
    const char *socket = std::getenv("MINICLUSTER_SOCKET");
    if (socket == nullptr || *socket == '\0') {
        return std::nullopt;
    }
    const std::string run = emu::kSandboxRun;
    if (std::string_view(socket).rfind(run + "/", 0) != 0) {
        return fs::path(socket).parent_path().parent_path().string(); // plain mode
    }
    const fs::path dir = "/tmp/.minicluster-lesson-" + std::to_string(::getuid());
    const std::vector<std::pair<std::string, std::string>> links = {
        {"home", "/home"},
        {"project", "/project"},
        {"scratch", "/scratch"},
        {"datasets", "/datasets"},
        {"run", run},
        {"etc", emu::kSandboxEtc},
        {"state/lessons", emu::kSandboxLessonProgress},
        {"workstation/home/" + user, emu::kSandboxLessonLaptop},
    };
    std::error_code ec;
    for (const auto &[name, target] : links) {
        const fs::path link = dir / name;
        fs::create_directories(link.parent_path(), ec);
        if (fs::is_symlink(link, ec) && fs::read_symlink(link, ec) == target) {
            continue;
        }
        fs::remove(link, ec);
        fs::create_directory_symlink(target, link, ec);
        if (ec) {
            error = link.string() + ": " + ec.message();
            return std::nullopt;
        }
    }
    return dir.string();
}

} // namespace mc::launch
