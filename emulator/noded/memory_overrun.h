#pragma once
// What a node does when a job goes over its memory: the `MemoryOverrun=` line of
// etc/minicluster.conf (a site's policy; slurm.conf has no key for it).
//
//   MemoryOverrun=kill-job                     the default, Slurm's way: the job alone is
//                                              killed and ends OUT_OF_MEMORY
//   MemoryOverrun=reboot-node [RebootTime=5]   the Inserm platform's: the node's system
//                                              restarts the whole node (every job on it is
//                                              killed), down for RebootTime seconds; the job
//                                              ends CANCELLED, the overrun in its Comment

#include <string>
#include <string_view>
#include <vector>

namespace mc::emu {

struct MemoryOverrunPolicy {
    bool rebootNode = false;
    int rebootSeconds = 5; // RebootTime=, 1 to 600
    std::vector<std::string> problems; // "line 3: MemoryOverrun= is kill-job or reboot-node ..."
};

// Reads the `MemoryOverrun=` line of minicluster.conf text (the default without one).
MemoryOverrunPolicy parseMemoryOverrun(std::string_view confText);

} // namespace mc::emu
