#include "mc/emu/shell_history.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace mc::emu {

namespace fs = std::filesystem;

std::vector<HistoryEntry> parseHistory(std::string_view text)
{
    std::vector<HistoryEntry> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            end = text.size();
        }
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        std::vector<std::string_view> parts;
        std::size_t p = 0;
        for (int n = 0; n < 3; ++n) {
            std::size_t tab = line.find('\t', p);
            if (tab == std::string_view::npos) {
                break;
            }
            parts.push_back(line.substr(p, tab - p));
            p = tab + 1;
        }
        if (parts.size() != 3) {
            continue;
        }
        HistoryEntry e;
        e.time = std::strtod(std::string(parts[0]).c_str(), nullptr);
        e.host = std::string(parts[1]);
        e.cwd = std::string(parts[2]);
        e.command = std::string(line.substr(p));
        out.push_back(std::move(e));
    }
    return out;
}

std::string historyLine(const HistoryEntry &e)
{
    std::string cmd = e.command;
    std::replace(cmd.begin(), cmd.end(), '\t', ' ');
    std::replace(cmd.begin(), cmd.end(), '\n', ' ');
    char time[32];
    std::snprintf(time, sizeof time, "%.6f", e.time);
    return std::string(time) + "\t" + e.host + "\t" + e.cwd + "\t" + cmd + "\n";
}

double wallClockNow()
{
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string historyPath(const ClusterLayout &layout, const std::string &user)
{
    return layout.run() + "/history/" + user;
}

bool appendHistory(const ClusterLayout &layout, const std::string &user, const HistoryEntry &entry)
{
    std::error_code ec;
    fs::create_directories(layout.run() + "/history", ec);
    std::ofstream out(historyPath(layout, user), std::ios::app);
    out << historyLine(entry);
    return static_cast<bool>(out);
}

} // namespace mc::emu
