#pragma once
// squeue -s: the running job steps, in Slurm's default step format.

#include "../shared/outcome.h"
#include "mc/cmd/context.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mc::cmd::squeue {

// The steps of the running jobs (of `jobIds`, all when empty; of `users` when set), or only
// `steps` ("12.0", "12.batch") when given, as "%.15i %.8j %.9P %.8u %.9M %N" lines under their
// header (none with `noHeader`). Slurm's order: by job, its numbered steps, batch, extern.
Outcome listSteps(Context &ctx, const std::vector<std::int64_t> &jobIds,
    const std::optional<std::vector<std::string>> &users, const std::vector<std::string> &steps,
    bool noHeader);

} // namespace mc::cmd::squeue
