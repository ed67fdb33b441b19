#pragma once
// IBM Spectrum LSF 10.1's job commands on minicluster's controller: bsub, bjobs, bkill. They
// answer in LSF's words and formats ("Job <12> is submitted to queue <hpc>."); a queue is a
// partition, a job slot a CPU. Options LSF has and minicluster does not implement are refused
// with "<command>: <option> is not supported by minicluster", never ignored.

#include "mc/cmd/context.h"

namespace mc::cmd {

// bsub [options] command [args] | bsub [options] < script: #BSUB lines of the script (before
// its first command), then the command line. Exit 0 when submitted, 255 otherwise.
class Bsub {
public:
    explicit Bsub(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// bjobs [-a] [-p] [-l] [-u user|all] [job_id...]: the caller's unfinished jobs by default.
class Bjobs {
public:
    explicit Bjobs(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// bkill [job_id... | 0]: cancels jobs ("Job <12> is being terminated"); 0 is all of the
// caller's jobs.
class Bkill {
public:
    explicit Bkill(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// bqueues [queue...]: the queues (partitions) and their jobs.
class Bqueues {
public:
    explicit Bqueues(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// bhosts [host...]: the compute hosts (nodes), their slots and jobs.
class Bhosts {
public:
    explicit Bhosts(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// bpeek [job_id]: the output so far of a running job (the caller's latest without an id).
class Bpeek {
public:
    explicit Bpeek(Context &ctx)
        : m_ctx(ctx)
    { }
    int run();

private:
    Context &m_ctx;
};

// bstop / bresume job_id...: suspends or resumes a job of the user's: a pending one is held
// (PSUSP, a user hold here), a started one stopped on its nodes (USUSP, Slurm's SUSPENDED).
// LSF's owner may stop their jobs, where Slurm's scontrol suspend is for operators only.
class Bstop {
public:
    Bstop(Context &ctx, bool resume)
        : m_ctx(ctx)
        , m_resume(resume)
    { }
    int run();

private:
    Context &m_ctx;
    bool m_resume;
};

} // namespace mc::cmd
