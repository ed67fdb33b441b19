#pragma once
// etc/minicluster.conf, read in one place: what slurm.conf has no key for. Each line is
// `Key=Value` words (as in slurm.conf, '#' starts a comment); its first key names the kind of
// line. This reader knows every kind and every key each kind takes:
//
//   User=NAME UID= GID= DefaultAccount= Accounts= Name=          users and accounts (site_conf.h)
//   QOS=NAME Priority=                                            the QOS table (site_conf.h)
//   Filesystem=NAME Quota= Files= PurgeAfterDays= PurgeNoticeDays= storage (emulator/storage)
//   StorageCheckInterval=S   SharedFsLatency=D                    storage daemon (emulator/storage)
//   LoginPolicy=ACTION CpuShare= Window= Grace= ThrottleShare= MemoryMax= TasksMax=
//                                                                login node (emulator/model)
//   MemoryOverrun=MODE RebootTime=                                node daemons (emulator/noded)
//
// Keys match without regard to case. A line of an unknown kind, a key its kind does not take
// and a word that is not Key=Value are reported here, with the file name and line number:
// `minicluster.conf:12: unknown key "SharedFsLatncy"`. Each kind's own reader then takes its
// lines (`linesOf`) and reports the values it cannot read, in the same form (ConfLine::where).
// A new key is added to the table in minicluster_conf.cpp and read by its kind's reader.

#include "mc/sched/conf_text.h"

#include <string>
#include <string_view>
#include <vector>

namespace mc::sched {

enum class SiteKey {
    User,
    Qos,
    Filesystem,
    StorageCheckInterval,
    SharedFsLatency,
    LoginPolicy,
    MemoryOverrun,
};

// One known line: its kind, number and text, and its words (splitConfWords).
struct SiteConfLine {
    SiteKey kind = SiteKey::User;
    ConfLine line;
    std::vector<std::string> words;
};

struct SiteConf {
    std::vector<SiteConfLine> lines; // the lines of a known kind, in file order
    // "minicluster.conf:12: unknown key \"SharedFsLatncy\"", in file order.
    std::vector<std::string> problems;

    // The lines of one kind, in file order.
    std::vector<SiteConfLine> linesOf(SiteKey kind) const;
};

// Reads the whole text; never fails (what it cannot read is in `problems`).
SiteConf readSiteConf(std::string_view text);

// The keys a line of `kind` may carry, its own first ("MemoryOverrun", "RebootTime"), as the
// documentation writes them.
std::vector<std::string_view> siteKeysOf(SiteKey kind);

} // namespace mc::sched
