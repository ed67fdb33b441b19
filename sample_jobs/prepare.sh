#!/bin/bash
# Teaching point (lesson 7): first step of a pipeline. It writes the data the next step reads.
#SBATCH --job-name=prepare
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=100M

mkdir -p pipeline
sleep 3 # long enough that a step submitted without a dependency visibly overlaps it
seq 1 100 > pipeline/numbers.txt
echo "prepared $(wc -l < pipeline/numbers.txt) numbers"
