#pragma once
// seff JOBID: the efficiency report of a job (Slurm's contribs/seff), from the controller's
// accounting records: CPU time against core-walltime, MaxRSS against the memory requested.
// Its words and exit codes are the Perl script's: -h prints the usage and exits 1, an unknown
// or malformed job id is "Job not found." with exit 2.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Seff {
public:
    explicit Seff(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs the command once; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
