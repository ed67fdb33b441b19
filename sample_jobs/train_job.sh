#!/bin/bash
# Teaching point (lesson 8): the course's whole workflow. The code snapshot in
# /scratch/<user>/code-snapshots/myproject is copied to the node's fast $SLURM_TMPDIR, the
# training runs there, and its results are copied back to /scratch before the job ends.
# The log folder must exist first: mkdir -p /scratch/$USER/logs
#SBATCH --job-name=train
#SBATCH --output=/scratch/%u/logs/%x-%j.out
#SBATCH --time=00:10:00
#SBATCH --mem=500M
#SBATCH --cpus-per-task=1

set -e
code=${1:-/scratch/$USER/code-snapshots/myproject}
rsync -a "$code/" "$SLURM_TMPDIR/myproject/"
cd "$SLURM_TMPDIR/myproject"
mkdir -p out
python3 train.py out
mkdir -p "/scratch/$USER/results/train-$SLURM_JOB_ID"
cp out/* "/scratch/$USER/results/train-$SLURM_JOB_ID/"
echo "results in /scratch/$USER/results/train-$SLURM_JOB_ID"
