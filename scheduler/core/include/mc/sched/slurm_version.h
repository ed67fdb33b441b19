#pragma once
// The one Slurm release minicluster answers as: every command's --version, the OpenAPI
// `meta.Slurm` of --json, the slurmd version of sinfo and scontrol show node, scontrol show
// config's SLURM_VERSION. Output is compared with this release (tests/differential).

#include <string_view>

namespace mc::sched {

inline constexpr int kSlurmMajor = 22;
inline constexpr int kSlurmMinor = 5;
inline constexpr int kSlurmMicro = 8;
// The same release as Slurm writes it ("22.05.8").
inline constexpr std::string_view kSlurmRelease = "22.05.8";

} // namespace mc::sched
