#pragma once
// OpenPBS's commands on minicluster's controller: qsub, qstat, qdel, pbsnodes. Job ids are
// "<seq>.<server>", the server being the cluster's name; a queue is a partition, a chunk of
// -l select= a node. Options minicluster does not implement are refused with
// "<command>: <option> is not supported by minicluster", never ignored.

#include "mc/cmd/context.h"

namespace mc::cmd {

// qsub [options] [script]: #PBS lines of the script (before its first command), then the
// command line; the script from standard input without one. Prints the job id.
class Qsub {
public:
    explicit Qsub(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// qstat [-a | -f | -q] [-u user] [-x] [job_id...]: every user's unfinished jobs by default.
class Qstat {
public:
    explicit Qstat(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// qdel job_id...: silent on success.
class Qdel {
public:
    explicit Qdel(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// pbsnodes -a | pbsnodes node...: the nodes, their state and resources.
class Pbsnodes {
public:
    explicit Pbsnodes(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

} // namespace mc::cmd
