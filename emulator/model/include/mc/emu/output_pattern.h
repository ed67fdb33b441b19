#pragma once
// sbatch's filename patterns for --output/--error/--input (man sbatch, "filename pattern").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mc::emu {

struct PatternFields {
    std::uint32_t jobId = 0;
    std::optional<std::uint32_t> arrayJobId; // %A (the job id when not an array)
    std::optional<std::uint32_t> arrayTaskId; // %a (4294967294 when not an array, as Slurm)
    std::uint32_t stepId = 0; // %s (batch step prints "batch")
    bool batchStep = true;
    std::string jobName; // %x
    std::string user; // %u
    std::string node; // %N
    int nodeIndex = 0; // %n
    int taskId = 0; // %t
};

// Replaces %% %A %a %J %j %N %n %s %t %u %x; a number after '%' zero-pads numeric fields
// ("%4j" -> 0042). Unknown letters are kept as they are, like Slurm.
std::string expandOutputPattern(std::string_view pattern, const PatternFields &fields);

} // namespace mc::emu
