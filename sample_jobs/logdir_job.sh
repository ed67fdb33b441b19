#!/bin/bash
# Teaching point (lesson 5): Slurm does not create the folder of --output. If
# $SCRATCH/logs (here /scratch/<user>/logs) does not exist, the job cannot open its output
# file and fails at once, leaving no trace to read. Create the folder first:
#     mkdir -p /scratch/$USER/logs
#SBATCH --job-name=logdir
#SBATCH --output=/scratch/%u/logs/%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=100M

echo "my log is in /scratch/$USER/logs"
