#pragma once
// sacctmgr, read-only: `list|show associations|user|account` from the site's users and
// accounts (etc/minicluster.conf) in Slurm 22.05's table layout. Commands that change the
// accounting database say plainly that minicluster's accounts are read-only.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Sacctmgr {
public:
    explicit Sacctmgr(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs one sacctmgr command line; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
