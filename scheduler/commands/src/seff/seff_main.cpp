#include "mc/cmd/seff.h"

int main(int argc, char **argv)
{
    mc::cmd::Context ctx = mc::cmd::systemContext(argc, argv);
    return mc::cmd::Seff(ctx).run();
}
