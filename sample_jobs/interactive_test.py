# Teaching point (lesson 3): a short test to run inside an allocation (salloc, then srun), not
# on the login node: it reports where it runs and how many CPUs it may use.
import os
import socket

print("running on", socket.gethostname(), "with", len(os.sched_getaffinity(0)), "CPU(s)")
