#!/bin/bash
# Teaching point (lesson 15): a GPU is asked for, never assumed. --gres=gpu:a100:1 asks for one
# GPU of type a100 on a node of the gpu partition; Slurm then tells the job which one it got
# (CUDA_VISIBLE_DEVICES, SLURM_JOB_GPUS) and the program picks its device from what it sees.
# On minicluster the GPUs are emulated: nvidia-smi shows them, torch finds no CUDA device,
# and device.py runs on the CPU, unchanged.
#SBATCH --job-name=gpu_check
#SBATCH --partition=gpu
#SBATCH --gres=gpu:a100:1
#SBATCH --cpus-per-task=2
#SBATCH --time=00:10:00
#SBATCH --output=%x-%j.out

echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES"
echo "SLURM_JOB_GPUS=$SLURM_JOB_GPUS SLURM_GPUS_ON_NODE=$SLURM_GPUS_ON_NODE"
nvidia-smi
module load python scipy-stack pytorch
python device.py
