#pragma once
// The shell history the lessons read: every command typed in a shell of the cluster (login1,
// and compute nodes through `srun --pty bash`) or of the workstation, one line each in
// <cluster>/run/history/<user>, written by the login profile, the workstation's bashrc and the
// launcher (`minicluster shell -c`, `minicluster workstation -c`).

#include "mc/emu/cluster_layout.h"

#include <string>
#include <string_view>
#include <vector>

namespace mc::emu {

// One command typed in a shell of the cluster or the workstation, as the login profile notes
// it in <cluster>/run/history/<user>: "epoch<TAB>host<TAB>cwd<TAB>command", the time with
// microseconds (bash's $EPOCHREALTIME), so that a command typed just before a lesson started
// is told apart from one typed just after.
struct HistoryEntry {
    double time = 0; // wall clock, seconds since the epoch
    std::string host; // login1, cn01, laptop, ...
    std::string cwd;
    std::string command;
};

std::vector<HistoryEntry> parseHistory(std::string_view text);
// The line the profile writes for `entry` (tabs and newlines in the command become blanks).
std::string historyLine(const HistoryEntry &entry);
// Where the history of `user` is kept: <cluster>/run/history/<user>.
std::string historyPath(const emu::ClusterLayout &layout, const std::string &user);
// Appends one entry (the launcher does this for `minicluster shell -c`).
bool appendHistory(
    const emu::ClusterLayout &layout, const std::string &user, const HistoryEntry &entry);
// This computer's clock, in seconds with microseconds.
double wallClockNow();

} // namespace mc::emu
