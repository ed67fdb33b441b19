#!/bin/bash
# Teaching point (lesson 14): the job of same_slurm.sh in LSF's words. Submit it with
# `bsub < same_lsf.sh` (bsub reads the #BSUB lines of the script it gets on its input).
#BSUB -J same-lsf
#BSUB -q hpc
#BSUB -n 2
#BSUB -W 10
#BSUB -R "rusage[mem=500MB]"
#BSUB -o same-lsf-%J.out
echo "LSF job $LSB_JOBID on $(hostname): $LSB_DJOB_NUMPROC slots"
