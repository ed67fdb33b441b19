#!/bin/bash
# Teaching point (lesson 4): a job sized to what it uses. It fills about 150 MB and works a
# few seconds; ask for a little more than that (--mem=300M, --time=00:05:00) and compare what
# you asked for with what it used (sacct's MaxRSS and Elapsed, or seff).
#SBATCH --job-name=right-size
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=300M
#SBATCH --cpus-per-task=1

python3 -c 'import time; a = bytearray(150*1024*1024); time.sleep(3); print("done with", len(a) // 2**20, "MB")'
