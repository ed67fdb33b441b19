#!/bin/bash
# Teaching point (lesson 10): on a site that gives whole nodes to one job (the Inserm layout),
# --exclusive is what you get anyway: the job holds every CPU of its node, so size the job to
# the node, and keep under the site's 30-hour limit.
#SBATCH --job-name=whole-node
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --exclusive
#SBATCH --mem=1G

echo "on $(hostname) with $SLURM_CPUS_ON_NODE CPUs"
