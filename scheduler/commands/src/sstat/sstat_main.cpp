#include "mc/cmd/sstat.h"

int main(int argc, char **argv)
{
    mc::cmd::Context ctx = mc::cmd::systemContext(argc, argv);
    return mc::cmd::Sstat(ctx).run();
}
