#include "memory_overrun.h"

#include "mc/sched/conf_text.h"

namespace mc::emu {

MemoryOverrunPolicy parseMemoryOverrun(std::string_view confText)
{
    MemoryOverrunPolicy policy;
    for (const sched::ConfLine &line : sched::confLines(confText)) {
        const auto words = sched::splitConfWords(line.text);
        if (words.empty() || sched::lowerCase(words[0]).rfind("memoryoverrun=", 0) != 0) {
            continue;
        }
        for (const auto &word : words) {
            const auto eq = word.find('=');
            if (eq == std::string::npos) {
                policy.problems.push_back(line.where() + "'" + word + "' is not Key=Value");
                continue;
            }
            const std::string key = sched::lowerCase(word.substr(0, eq));
            const std::string value = word.substr(eq + 1);
            if (key == "memoryoverrun") {
                const std::string mode = sched::lowerCase(value);
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
            } else {
                policy.problems.push_back(line.where() + "unknown key " + word.substr(0, eq) + "=");
            }
        }
    }
    return policy;
}

} // namespace mc::emu
