#pragma once
// --json of squeue, sinfo and sacct (issue #6): Slurm 22.05's OpenAPI v0.0.38 data (squeue's
// `jobs`, sinfo's `nodes`) and dbv0.0.38 data (sacct's `jobs`), every key Slurm 22.05.8 prints,
// in its order and with its value types, filled from the controller's replies. What minicluster
// does not model gets the value Slurm prints when the feature is not configured ("", null, 0).
// Each command calls its function once its own options are read, as Slurm does; --yaml gives
// the same data as Slurm's YAML (json_out.h).

#include "json_out.h"
#include "mc/cmd/context.h"
#include "mc/cmd/option_parser.h"
#include "outcome.h"

#include <cstdint>

namespace mc::cmd {

namespace sacct {
struct Settings;
}

// Whether the command line holds the option of id `id` (--json).
bool hasOption(const ParseResult &cli, int id);

// squeue --json: every job the controller lists (as in Slurm 22.05, the filter, format and sort
// options are read but do not apply). Exit 0, also when the controller cannot be reached: the
// failure is then in "errors", as Slurm's handler puts it.
Outcome squeueJson(Context &ctx, DataFormat format = DataFormat::Json);

// sinfo --json: every node (node-centric; partition and state filters do not apply in 22.05).
Outcome sinfoJson(Context &ctx, DataFormat format = DataFormat::Json);

// sacct --json: the jobs `s` selects in [start, end], with their steps (all users' jobs:
// Slurm 22.05 does not pass -u/--user, nor the caller's own uid, to its query). "Nothing found"
// is an entry of "errors" with exit 0; a controller that cannot be reached is sacct's usual
// error and exit 1.
Outcome sacctJson(Context &ctx, const sacct::Settings &s, std::int64_t start, std::int64_t end,
    DataFormat format = DataFormat::Json);

} // namespace mc::cmd
