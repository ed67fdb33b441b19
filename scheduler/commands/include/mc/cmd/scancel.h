#pragma once
// scancel: cancels or signals jobs by id, or every active job that matches -u/--me, -n, -p,
// -A, -q, -t and -w, with Slurm 22.05's messages and exit codes: an unknown or finished job id
// is silent unless -v (for a plain cancel), "Access/permission denied" exits 210 (Slurm's errno
// 2002 as an exit status), bad ids and missing job identification exit 1.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Scancel {
public:
    explicit Scancel(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs the command once; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
