// A Slurm command minicluster does not provide yet (MC_COMMAND_NAME): it says so in plain words
// and names the commands that work, instead of the shell's "command not found".
#include <cstdio>

int main()
{
    std::fprintf(stderr,
        "%s: error: minicluster does not provide %s yet.\n"
        "%s: error: Available now: sbatch, squeue, scancel, sacct, sinfo, scontrol, sq.\n",
        MC_COMMAND_NAME, MC_COMMAND_NAME, MC_COMMAND_NAME);
    return 1;
}
