#pragma once
// What checks are judged on: a snapshot of the user's jobs, the cluster's nodes, the shell
// history and a view of the files, taken at one moment (collector.h gathers it). Checks never
// talk to the controller themselves, so they can be evaluated (and tested) on any snapshot.

#include "mc/emu/cluster_layout.h"
#include "mc/emu/shell_history.h"
#include "mc/proto/json.h"
#include "mc/record/job_object.h"

#include <optional>
#include <string>
#include <vector>

namespace mc::lessons {

// The shell history's format lives with the emulated machines that write it (mc_emu_model).
using emu::appendHistory;
using emu::HistoryEntry;
using emu::historyLine;
using emu::historyPath;
using emu::parseHistory;
using emu::wallClockNow;

struct FileInfo {
    std::string path; // as the user sees it (/home/alice/hello-3.out)
    std::string hostPath; // where it is on this computer
    bool isDir = false;
    long long mtime = 0; // seconds since the epoch
    long long size = 0;
};

// The user's paths as a shell on the cluster sees them (~, $HOME, $SCRATCH, $PROJECT, /home,
// /scratch, /project, symbolic links between them), mapped onto the cluster directory. A path
// starting with `laptop:` is on the workstation (its own home).
class FileView {
public:
    FileView(emu::ClusterLayout layout, std::string user, std::string account);

    // Every existing file or directory matching `pattern` (shell globs allowed), sorted.
    std::vector<FileInfo> match(const std::string &pattern) const;
    // `pattern` with ~ and variables expanded, as shown in messages.
    std::string expand(const std::string &pattern) const;
    // The host path behind a path as the user sees it (links followed).
    std::string hostPath(const std::string &userPath) const;
    // At most `maxBytes` of a file's content.
    static std::string read(const std::string &hostPath, std::size_t maxBytes = 1 << 20);

    const emu::ClusterLayout &layout() const { return m_layout; }
    // The workstation's home for this user: <cluster>/workstation/home/<user>.
    std::string laptopHome() const;

private:
    emu::ClusterLayout m_layout;
    std::string m_user;
    std::string m_account;
    std::vector<emu::Mount> m_mounts;
};

struct Facts {
    std::string user;
    long long now = 0; // the cluster clock (the controller's `now`)
    long long wallNow = 0; // this computer's clock
    long long since = 0; // cluster clock when the lesson started: older jobs do not count
    double wallSince = 0; // wall clock when the lesson started: older history does not count
    // The user's jobs, each decoded once: the accounting's record (with its `steps`), its live
    // members from the queue while the controller still lists it.
    std::vector<record::JobObject> jobs;
    std::vector<proto::Json> nodes; // node objects of the `cluster` reply
    std::vector<HistoryEntry> history;
    const FileView *files = nullptr; // null: file checks fail and say why
};

} // namespace mc::lessons
