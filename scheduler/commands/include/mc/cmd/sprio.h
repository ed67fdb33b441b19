#pragma once
// sprio: the priority factors of pending jobs (the controller's `priorities` op), in Slurm
// 22.05's layout: only the factors whose PriorityWeight* is not zero get a column, weighted
// values by default, normalized ones with -n, the weights themselves with -w.

#include "mc/cmd/context.h"

namespace mc::cmd {

class Sprio {
public:
    explicit Sprio(Context &ctx)
        : m_ctx(ctx)
    { }

    // Prints the factors; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
