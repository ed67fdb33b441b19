#!/bin/bash
#SBATCH --job-name=mpi-pi
#SBATCH --ntasks=8
#SBATCH --time=00:10:00
#SBATCH --mem-per-cpu=500M
#SBATCH --output=%x-%j.out
# Teaching point (lesson 12): mpirun (or srun) starts one copy of the program per task that
# Slurm gave the job (--ntasks: 8 tasks fill two 4-CPU nodes), on all its nodes; the program
# itself never names a node. Change --ntasks on the command line (sbatch --ntasks=1 mpi_pi.sh)
# to compare the run times.
echo "tasks per node: $SLURM_TASKS_PER_NODE on $SLURM_JOB_NODELIST"
mpirun python3 mpi_pi.py 4000000
