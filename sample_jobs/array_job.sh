#!/bin/bash
# Teaching point (lesson 7): one script, many tasks. --array=1-6%2 makes six tasks, numbered
# by $SLURM_ARRAY_TASK_ID, of which at most two run at the same time (the %2 throttle).
# %A is the array's job ID and %a the task's index in the output file name.
#SBATCH --job-name=squares
#SBATCH --output=%x-%A_%a.out
#SBATCH --array=1-6%2
#SBATCH --time=00:05:00
#SBATCH --mem=100M

n=$SLURM_ARRAY_TASK_ID
echo "task $n of array $SLURM_ARRAY_JOB_ID: $n squared is $((n * n))"
sleep 2
