#pragma once
// sq: the Alliance (Compute Canada) clusters' shortcut for `squeue -u $USER`, with the sites'
// default columns (account, time left, CPUs, memory) unless SQUEUE_FORMAT/SQUEUE_FORMAT2 or a
// format option says otherwise. Every squeue option works, with squeue's words and exit codes.

#include "mc/cmd/context.h"

#include <string_view>

namespace mc::cmd {

// The column layout sq uses when SQUEUE_FORMAT is unset (an squeue -o format).
inline constexpr std::string_view kSqFormat
    = "%.10i %.8u %.12a %.14j %.3t %.10L %.5D %.4C %.10b %.7m %N (%r)";

class Sq {
public:
    explicit Sq(Context &ctx)
        : m_ctx(ctx)
    { }

    // Runs squeue for the calling user; returns the process exit code.
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
