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

// scontrol suspend|resume <job_list>: the `suspend` / `resume` ops. Operators only (the
// controller refuses the others, job by job, "Access/permission denied for job <id>").
Outcome suspendJobs(Context &ctx, bool resume, const std::vector<std::string> &args);

// scontrol top <job_list>: an operator's command, refused to users with Slurm's words (a
// user's only with SchedulerParameters=enable_user_top); not supported for the operators.
Outcome operatorOnly(Context &ctx, std::string_view command, const std::vector<std::string> &args);

// scontrol write batch_script <job_id> [<file>|-]: the script the controller keeps of a queued
// job (the `job_scripts` op, `live`), into slurm-<id>.sh, the file named, or stdout for "-".
Outcome writeBatchScript(Context &ctx, const std::vector<std::string> &args);

// scontrol listpids [<job_id>[.<step_id>]]: on a host that is no node (the login node) no step
// runs, as Slurm says; on a node, not supported.
Outcome listPids(Context &ctx, const std::vector<std::string> &args);

// scontrol requeue|requeuehold <job_list>: the `requeue` op.
Outcome requeueJobs(Context &ctx, bool hold, const std::vector<std::string> &args);

// scontrol update <Key=Value>...: a job (JobId=) through `update`, a node (NodeName=) through
// `node_update`. What a user may change of a job; the rest is refused in plain words.
Outcome update(Context &ctx, const std::vector<std::string> &args);

// scontrol show assoc_mgr flags=users [users=a,b]: the user records of the association
// manager (the site's users, and root), as Slurm prints them; its association and QOS records
// are not supported by minicluster.
Outcome showAssocManager(Context &ctx, const std::vector<std::string> &args);

// scontrol show steps [<job_id>[.<step_id>]]: the `steps` op.
Outcome showSteps(Context &ctx, bool oneLiner, const std::vector<std::string> &args);

} // namespace mc::cmd::scontrol
