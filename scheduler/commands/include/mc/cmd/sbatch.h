#pragma once
// sbatch: submits a batch script (a file, stdin or --wrap) to the controller, exactly as Slurm
// 22.05's sbatch does for the options minicluster implements. Options are applied in Slurm's
// order: #SBATCH directives, then SBATCH_* environment variables, then the command line, each
// overriding the one before. Options minicluster does not implement are refused with
// "sbatch: error: --<name> is not supported by minicluster" (exit 1), never ignored.
//
// Exit codes are Slurm's: 0 on success; 1 for script, submission and "not supported" errors;
// 255 for malformed options (getopt errors, bad --time/--mem), which Slurm ends with exit(-1).

#include "mc/cmd/context.h"

namespace mc::cmd {

class Sbatch {
public:
    explicit Sbatch(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs the command once; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
