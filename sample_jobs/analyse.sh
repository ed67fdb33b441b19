#!/bin/bash
# Teaching point (lesson 7): last step, after compute.sh succeeded.
#SBATCH --job-name=analyse
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=100M

set -e
echo "sum of the squares of 1..100: $(cat pipeline/sum_of_squares.txt)"
