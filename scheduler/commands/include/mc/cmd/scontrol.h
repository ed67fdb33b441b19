#pragma once
// scontrol: the read-only half of Slurm 22.05's scontrol. `show job|node|partition|config|
// hostnames|hostlist|hostlistsorted`, `ping` and `version` print Slurm's records (one field per
// `Key=Value`, -o/--oneliner one record per line, -d details) from the controller's `jobs` and
// `cluster` requests and slurm.conf. Commands that change state (hold, release, update,
// requeue, ...) and interactive mode say they are not supported by minicluster, exit 1.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Scontrol {
public:
    explicit Scontrol(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs the command once; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
