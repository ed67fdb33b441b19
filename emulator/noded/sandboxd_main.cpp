// minicluster-sandboxd --fd N: runs inside a node's sandbox and forks the node's jobs there on
// its daemon's request (sandbox_host.h). Not meant to be started by hand.
#include "mc/emu/sandbox_host.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char **argv)
{
    if (argc != 3 || std::strcmp(argv[1], "--fd") != 0) {
        std::fprintf(stderr, "usage: minicluster-sandboxd --fd N (started by minicluster-noded)\n");
        return 2;
    }
    return mc::emu::runSandboxServer(std::atoi(argv[2]));
}
