#pragma once
// sshare: the fair-share tree (the controller's `shares` op) as Slurm 22.05 prints it: root,
// each account, and under it the calling user's association (-a: every user's).

#include "mc/cmd/context.h"

namespace mc::cmd {

class Sshare {
public:
    explicit Sshare(Context &ctx)
        : m_ctx(ctx)
    { }

    // Prints the associations; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
