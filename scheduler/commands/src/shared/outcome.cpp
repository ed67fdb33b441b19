#include "outcome.h"

#include "mc/cmd/context.h"
#include "text.h"

#include <ostream>

namespace mc::cmd {

Outcome notSupported(std::string_view program, std::string_view what, int exitCode)
{
    return {
        {}, errorLine(program, std::string(what) + " is not supported by minicluster"), exitCode};
}

int deliver(const Context &ctx, const Outcome &outcome)
{
    *ctx.out << outcome.out;
    *ctx.err << outcome.err;
    return outcome.exitCode;
}

std::string tryHelp(std::string_view program)
{
    return "Try \"" + std::string(program) + " --help\" for more information\n";
}

} // namespace mc::cmd
