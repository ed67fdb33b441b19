#!/bin/bash
# Teaching point (lesson 11): a hyperparameter sweep as a job array. Each task trains with one
# learning rate and writes its accuracy to results/; %2 lets at most two tasks run at once,
# so a sweep does not take the whole cluster. Submit it with gather.sh after it:
#   jid=$(sbatch --parsable sweep.sh); sbatch --dependency=afterok:$jid gather.sh
#SBATCH --job-name=cnn-sweep
#SBATCH --output=%x-%A_%a.out
#SBATCH --array=0-3%2
#SBATCH --time=00:15:00
#SBATCH --cpus-per-task=1
#SBATCH --mem=2000M

set -e
module load python scipy-stack pytorch
export PYTHONUNBUFFERED=1
rates=(0.2 0.05 0.01 0.002)
lr=${rates[$SLURM_ARRAY_TASK_ID]}
data=$(python -c 'import os, sklearn.datasets as d; print(os.path.join(os.path.dirname(d.__file__), "data", "digits.csv.gz"))')
cp "$data" "$SLURM_TMPDIR/"
mkdir -p results
python train.py --data "$SLURM_TMPDIR/digits.csv.gz" --lr "$lr" --epochs "${1:-5}" \
    --checkpoint "$SLURM_TMPDIR/ckpt.pt" --results "results/lr-$lr.json"
