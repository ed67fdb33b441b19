#pragma once
// sbatch --array index expressions: "1-100", "1,3,5", "0-20:2", each with an optional "%N"
// limit on tasks running at once. Pure.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::sched {

struct ArraySpec {
    std::vector<std::uint32_t> taskIds; // ascending, no duplicates
    int maxRunning = 0; // %N; 0: no limit
};

// Largest task id accepted (Slurm's MaxArraySize default 1001 allows 0-1000).
inline constexpr std::uint32_t kMaxArrayTaskId = 1000;

// nullopt when malformed, empty or past kMaxArrayTaskId (sbatch: "Invalid job array
// specification").
std::optional<ArraySpec> parseArraySpec(std::string_view text);

// squeue's compact form of the tasks still pending: "[3-10%2]", "[1,3,5]", "[0-20:2]" is
// shown as "[0,2,4,...]" ranges of consecutive ids: "[0,2,4-6]".
std::string formatArrayTasks(const std::vector<std::uint32_t> &taskIds, int maxRunning);

// A job id as scancel, scontrol, squeue -j and sacct -j read it: "12" (the job; for an array,
// the whole array), "12_3" (one task), "12_[1-3,5]" (some tasks, any --array form without
// a "%" limit). nullopt when malformed.
struct JobIdSpec {
    std::uint32_t job = 0;
    std::vector<std::uint32_t> tasks; // ascending; empty: the whole job
};
std::optional<JobIdSpec> parseJobIdSpec(std::string_view text);

} // namespace mc::sched
