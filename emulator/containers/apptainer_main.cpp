// apptainer (singularity, run-singularity): containers on minicluster's nodes, offline.
#include "mc/containers/apptainer_cli.h"

int main(int argc, char **argv)
{
    return mc::containers::apptainerMain(argc, argv);
}
