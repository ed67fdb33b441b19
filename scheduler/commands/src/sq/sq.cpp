#include "mc/cmd/sq.h"

#include "mc/cmd/squeue.h"

namespace mc::cmd {

int Sq::run()
{
    Context ctx = m_ctx;
    ctx.args.insert(ctx.args.begin(), {"-u", ctx.user.name});
    if (!ctx.getenv("SQUEUE_FORMAT") && !ctx.getenv("SQUEUE_FORMAT2")) {
        ctx.environment.push_back("SQUEUE_FORMAT=" + std::string(kSqFormat));
    }
    return Squeue(ctx).run();
}

} // namespace mc::cmd
