#include "outcome.h"

#include "text.h"

namespace mc::cmd {

Outcome notSupported(std::string_view program, std::string_view what, int exitCode)
{
    return {
        {}, errorLine(program, std::string(what) + " is not supported by minicluster"), exitCode};
}

} // namespace mc::cmd
