#!/bin/bash
# Teaching point (lesson 13): a container sees only what is bound into it. Apptainer binds
# $HOME, the working folder, /tmp and (here, as on many sites) $SLURM_TMPDIR by default, but
# not /scratch: add `--bind /scratch` to the apptainer line, or the analysis cannot read its
# data. The result is written to $SLURM_TMPDIR inside the container, then copied to /scratch.
#SBATCH --job-name=container
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=500M

set -e
IMAGE=/opt/minicluster/software/images/python-numpy.sif
DATA=/scratch/$USER/container-data
mkdir -p "$DATA"
seq 1 100 > "$DATA/values.txt"

apptainer exec "$IMAGE" python3 ~/analyse.py "$DATA/values.txt" "$SLURM_TMPDIR/summary.txt"

cp "$SLURM_TMPDIR/summary.txt" "$DATA/summary.txt"
echo "summary copied to $DATA/summary.txt"
