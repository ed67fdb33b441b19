#pragma once
// sacct: the accounting records of jobs and their steps, in Slurm 22.05's layout (columns
// right-justified by default, JobID left, long text cut with a '+'; -p/-P parsable). By
// default: the caller's jobs eligible since 00:00 today; -j selects jobs of any user since the
// epoch; -s with no -S looks at "now" only, as Slurm does.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Sacct {
public:
    explicit Sacct(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs the command once; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
