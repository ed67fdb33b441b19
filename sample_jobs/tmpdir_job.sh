#!/bin/bash
# Teaching point (lesson 5): $SLURM_TMPDIR is a fast folder on the node's own disk, created
# for the job and removed when it ends. Copy inputs in, work there, copy results back to a
# lasting place (here /scratch/<user>/results) before the job ends.
#SBATCH --job-name=tmpdir
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=200M

set -e
# The same 200 small files, written on the shared /scratch and on the node's own disk.
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
mkdir -p "/scratch/$USER/many-files"
start=$(date +%s%N)
for i in $(seq 1 200); do echo "sample $i" > "/scratch/$USER/many-files/part-$i.txt"; done
echo "200 small files on /scratch:       $(ms "$start") ms"
start=$(date +%s%N)
for i in $(seq 1 200); do echo "sample $i" > "$SLURM_TMPDIR/part-$i.txt"; done
echo "200 small files in \$SLURM_TMPDIR: $(ms "$start") ms"
rm -r "/scratch/$USER/many-files"

echo "node-local folder: $SLURM_TMPDIR"
cd "$SLURM_TMPDIR"
tar -cf parts.tar part-*.txt            # one archive instead of many small files
mkdir -p "/scratch/$USER/results"
cp parts.tar "/scratch/$USER/results/parts-$SLURM_JOB_ID.tar"
echo "copied $(ls part-*.txt | wc -l) files back as one archive"
