#pragma once
// Slurm's memory sizes: --mem style input and the M/G output used by squeue, scontrol, sacct.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mc::sched {

// Mebibytes, Slurm's unit for memory.
using MiB = std::int64_t;

// "500" (MiB), "500K", "500M", "2G", "1T" (case-insensitive suffix, integral count, K rounded
// up to whole MiB). nullopt for an empty, negative, fractional or malformed value.
std::optional<MiB> parseMemory(std::string_view text);

// As Slurm prints a request: "200M", "4000M", "2G" when a whole number of GiB, "1T" likewise;
// a whole number of half GiB still converts ("1536" -> "1.50G"), and 0 prints "0".
std::string formatMemory(MiB mib);

} // namespace mc::sched
