#!/bin/bash
# Teaching point (lesson 5): $SLURM_TMPDIR is a fast folder on the node's own disk, created
# for the job and removed when it ends. Copy inputs in, work there, copy results back to a
# lasting place (here /scratch/<user>/results) before the job ends.
#SBATCH --job-name=tmpdir
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=200M

set -e
echo "node-local folder: $SLURM_TMPDIR"
cd "$SLURM_TMPDIR"
for i in $(seq 1 50); do echo "sample $i" > "part-$i.txt"; done
tar -cf parts.tar part-*.txt            # one archive instead of many small files
mkdir -p "/scratch/$USER/results"
cp parts.tar "/scratch/$USER/results/parts-$SLURM_JOB_ID.tar"
echo "copied $(ls part-*.txt | wc -l) files back as one archive"
