#!/bin/bash
# Teaching point (lessons 4 and 10): a job that uses more memory than it asked for. It asks
# for 100 MB and fills 400 MB: the node stops it and the job ends OUT_OF_MEMORY; on the Inserm
# preset the whole node restarts instead and the job ends CANCELLED, the cause in its Comment.
#SBATCH --job-name=too-big
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=100M

echo "allocating 400 MB with --mem=100M"
python3 -c 'import time; a = bytearray(400*1024*1024); time.sleep(5)'
echo "python exit code: $?"
