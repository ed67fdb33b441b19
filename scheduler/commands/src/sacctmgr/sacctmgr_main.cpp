#include "mc/cmd/sacctmgr.h"

int main(int argc, char **argv)
{
    mc::cmd::Context ctx = mc::cmd::systemContext(argc, argv);
    return mc::cmd::Sacctmgr(ctx).run();
}
