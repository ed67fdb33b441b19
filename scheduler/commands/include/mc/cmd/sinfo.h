#pragma once
// sinfo: the partitions and nodes of the cluster in Slurm 22.05's formats (default, -l, -N,
// -N -l, -s, -R, -o, -O, SINFO_FORMAT), filtered by -p/-n/-t/-d/-r and sorted by -S (default:
// partitions in slurm.conf order, then node state descending; -N: by node name). Data comes
// from the controller's `cluster` request and slurm.conf. Exit codes are Slurm's: 0, or 1 for
// bad options and load errors.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Sinfo {
public:
    explicit Sinfo(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs the command once; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
