#pragma once
// What slurmctld checks in every submission whatever its client (sbatch's own checks are not
// the only gate, issue #18): the length of its strings, the script's size (max_script_size,
// 4 MB by default) and the range of its numbers.

#include "mc/proto/json.h"
#include "mc/sched/job.h"

#include <cstddef>
#include <optional>

namespace mc::ctl {

// SchedulerParameters=max_script_size's default, in bytes.
inline constexpr std::size_t kMaxScriptSize = std::size_t{4} << 20;

// The failure reply for a submitted job object whose members have the wrong type (a number
// sent as text, a list as a number: only a raw protocol client can send them), or nullopt.
std::optional<proto::Json> checkSubmitTypes(const proto::Json &job, std::string &why);

// The failure reply for a spec out of Slurm's limits (and a line for the controller's log in
// `why`), or nullopt.
std::optional<proto::Json> checkSubmitLimits(const sched::JobSpec &spec, std::string &why);

} // namespace mc::ctl
