#!/bin/bash
# Teaching point (lesson 2): the smallest useful batch job. The #SBATCH lines right after the
# shebang are options for sbatch; %x is replaced by the job name and %j by the job ID, so
# every run writes its own output file.
#SBATCH --job-name=hello
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=200M

echo "Hello from $(hostname)"
echo "I am job $SLURM_JOB_ID, running as $USER in $(pwd)"
sleep 2
echo "Bye!"
