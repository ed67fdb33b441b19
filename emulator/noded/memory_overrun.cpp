#include "memory_overrun.h"

#include "mc/base/text.h"
#include "mc/sched/minicluster_conf.h"

namespace mc::emu {

MemoryOverrunPolicy parseMemoryOverrun(std::string_view confText)
{
    MemoryOverrunPolicy policy;
    const auto conf = sched::readSiteConf(confText);
    for (const auto &[kind, line, words] : conf.linesOf(sched::SiteKey::MemoryOverrun)) {
        for (const auto &word : words) {
            const auto eq = word.find('=');
            if (eq == std::string::npos) {
                continue; // readSiteConf() reports it
            }
            const std::string key = base::toLower(word.substr(0, eq));
            const std::string value = word.substr(eq + 1);
            if (key == "memoryoverrun") {
                const std::string mode = base::toLower(value);
                if (mode == "reboot-node" || mode == "kill-job") {
                    policy.rebootNode = mode == "reboot-node";
                } else {
                    policy.problems.push_back(line.where()
                        + "MemoryOverrun= is kill-job or reboot-node, not '" + value + "'");
                }
            } else if (key == "reboottime") {
                int seconds = 0;
                if (sched::parseNonNegative(value, seconds) && seconds >= 1 && seconds <= 600) {
                    policy.rebootSeconds = seconds;
                } else {
                    policy.problems.push_back(
                        line.where() + "RebootTime= needs whole seconds from 1 to 600");
                }
            }
        }
    }
    return policy;
}

} // namespace mc::emu
