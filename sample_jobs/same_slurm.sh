#!/bin/bash
# Teaching point (lesson 14): one job, said in Slurm's words. The same two tasks, ten minutes
# and 500 MB per task are said in LSF's words in same_lsf.sh and in PBS's in same_pbs.sh.
#SBATCH --job-name=same-slurm
#SBATCH --partition=hpc
#SBATCH --ntasks=2
#SBATCH --time=00:10:00
#SBATCH --mem-per-cpu=500M
#SBATCH --output=same-slurm-%j.out
echo "Slurm job $SLURM_JOB_ID on $(hostname): $SLURM_NTASKS tasks"
