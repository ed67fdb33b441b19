#pragma once
// squeue: lists the controller's jobs in Slurm 22.05's formats (default, -l, --start, -o, -O),
// filtered by -j/-u/--me/-t/-p/-n/-A/-q/-w and sorted by -S (default: partition, state,
// priority descending). Jobs that already finished are shown only with -t (e.g. -t all), and
// only while the controller still lists them (MinJobAge). Exit codes are Slurm's: 0, or 1 for
// bad options and load errors.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Squeue {
public:
    explicit Squeue(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs the command once; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
