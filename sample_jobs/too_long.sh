#!/bin/bash
# Teaching point (lesson 4): a job that needs more time than it asked for. It asks for one
# minute and works for three: Slurm sends SIGTERM at the limit, SIGKILL after KillWait, and the
# job ends TIMEOUT. The output stops in the middle: save your work before the limit.
#SBATCH --job-name=too-long
#SBATCH --output=%x-%j.out
#SBATCH --time=00:01:00
#SBATCH --mem=100M

for minute in 1 2 3; do
    echo "working, minute $minute of 3"
    sleep 60
done
echo "finished (you will not see this line)"
