#!/bin/bash
# Teaching point (lesson 9): a job that can be stopped and started again. It counts to 30, one
# step a second (time to requeue it by hand), and writes its progress to a checkpoint after
# each step; --signal=B:USR1@30 asks Slurm to warn the script 30 s before the end (or when
# preempted, as the grace time starts), and the trap saves and exits cleanly. Run again, it
# resumes where it stopped.
#SBATCH --job-name=checkpoint
#SBATCH --output=%x-%j.out
#SBATCH --time=00:15:00
#SBATCH --mem=100M
#SBATCH --signal=B:USR1@30
#SBATCH --requeue

state=$HOME/checkpoint.txt
i=$(cat "$state" 2>/dev/null || echo 0)
echo "starting at step $i"
trap 'echo "warned: saving at step $i"; echo "$i" > "$state"; exit 0' USR1
while [ "$i" -lt 30 ]; do
    i=$((i + 1))
    echo "$i" > "$state"
    sleep 1 &
    wait $!
done
echo "reached 30"
