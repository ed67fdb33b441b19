#!/bin/bash
# Teaching point (lesson 7): second step. It must only start once prepare.sh succeeded
# (--dependency=afterok:<prepare's job ID>), since it reads what prepare wrote.
#SBATCH --job-name=compute
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=100M

set -e
test -s pipeline/numbers.txt
awk '{ s += $1 * $1 } END { print s }' pipeline/numbers.txt > pipeline/sum_of_squares.txt
echo "computed the sum of squares"
