#pragma once
// sstat -j JOBID[.STEP]: usage of running job steps (.batch, .extern and srun's numbered
// steps), as the node daemons sample it every 250 ms and pass it on to the controller about
// once a second (srun for its steps, the batch host for the batch step). As Slurm's, without a
// step it shows the lowest numbered one (-a: every step); a step not running is an error line
// but not a failure.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Sstat {
public:
    explicit Sstat(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs the command once; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
