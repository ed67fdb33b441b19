#!/bin/bash
# Teaching point (lesson 14): the job of same_slurm.sh in PBS's words: one chunk (node) of two
# CPUs for two MPI ranks and 1000 MB, ten minutes, stdout and stderr joined.
#PBS -N same-pbs
#PBS -q hpc
#PBS -l select=1:ncpus=2:mpiprocs=2:mem=1000mb
#PBS -l walltime=00:10:00
#PBS -j oe
#PBS -o same-pbs.out
cd "$PBS_O_WORKDIR"
echo "PBS job $PBS_JOBID on $(hostname): $(wc -l < "$PBS_NODEFILE") tasks"
