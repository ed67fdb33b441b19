#pragma once
// scontrol's commands that change jobs and nodes (hold, uhold, release, requeue, requeuehold,
// update) and `show steps`, with Slurm 22.05's messages: per-job failures as
// "<error> for job <id>", then the summary line Slurm adds for some commands.

#include "../shared/outcome.h"
#include "mc/cmd/context.h"

#include <string>
#include <vector>

namespace mc::cmd::scontrol {

enum class HoldKind { Admin, User, Release };

// scontrol hold|uhold|release <job_list>: the `hold` / `release` ops.
Outcome holdJobs(Context &ctx, HoldKind kind, const std::vector<std::string> &args);

// scontrol requeue|requeuehold <job_list>: the `requeue` op.
Outcome requeueJobs(Context &ctx, bool hold, const std::vector<std::string> &args);

// scontrol update <Key=Value>...: a job (JobId=) through `update`, a node (NodeName=) through
// `node_update`. What a user may change of a job; the rest is refused in plain words.
Outcome update(Context &ctx, const std::vector<std::string> &args);

// scontrol show steps [<job_id>[.<step_id>]]: the `steps` op.
Outcome showSteps(Context &ctx, bool oneLiner, const std::vector<std::string> &args);

} // namespace mc::cmd::scontrol
