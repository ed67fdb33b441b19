#!/bin/bash
# Teaching point (lesson 11): a real training job. The data is copied to the node's local disk
# ($SLURM_TMPDIR) first, the DataLoader gets the job's CPUs, and a checkpoint is written each
# epoch in /scratch. --signal=USR1@60 warns the training a minute before the time limit (srun
# passes the signal to its step): it saves and requeues the job, which resumes where it
# stopped. `seff <jobid>` afterwards shows how well the job used what it asked for.
# Run it from the folder that holds train.py:  sbatch train.sh [epochs]
#SBATCH --job-name=cnn-digits
#SBATCH --output=%x-%j.out
#SBATCH --time=00:15:00
#SBATCH --cpus-per-task=2
#SBATCH --mem=2000M
#SBATCH --signal=USR1@60
#SBATCH --requeue

set -e
module load python scipy-stack pytorch
export PYTHONUNBUFFERED=1
# The dataset ships with scikit-learn: copy it to the node's fast local disk.
data=$(python -c 'import os, sklearn.datasets as d; print(os.path.join(os.path.dirname(d.__file__), "data", "digits.csv.gz"))')
cp "$data" "$SLURM_TMPDIR/"
mkdir -p "$SCRATCH/checkpoints"
echo "job $SLURM_JOB_ID on $(hostname), restart ${SLURM_RESTART_COUNT:-0}"
srun python train.py --data "$SLURM_TMPDIR/digits.csv.gz" \
    --checkpoint "$SCRATCH/checkpoints/cnn-digits.pt" --epochs "${1:-10}"
