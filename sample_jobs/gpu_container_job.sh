#!/bin/bash
# Teaching point (lesson 13): `--nv` gives a container the job's GPUs (CUDA_VISIBLE_DEVICES,
# nvidia-smi and the driver's libraries on a real cluster). Without a GPU request the job has
# none to give. minicluster's GPUs are emulated: no CUDA code runs, but the same lines work
# unchanged on a cluster with real GPUs.
#SBATCH --job-name=gpu-container
#SBATCH --output=%x-%j.out
#SBATCH --partition=gpu
#SBATCH --gres=gpu:1
#SBATCH --time=00:05:00
#SBATCH --mem=500M

IMAGE=/opt/minicluster/software/images/python-numpy.sif
echo "GPUs of the job: ${CUDA_VISIBLE_DEVICES:-none}"
apptainer exec --nv "$IMAGE" sh -c 'echo "GPUs seen in the container: ${CUDA_VISIBLE_DEVICES:-none}"'
