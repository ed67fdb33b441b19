# Estimate pi with many random darts, the work split over the MPI ranks.
# Teaching point (lesson 12): every rank runs this same program; the rank number decides
# which share of the darts it throws, and one collective call (reduce) adds the shares up on
# rank 0.
import random
import sys
import time

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
darts = int(sys.argv[1]) if len(sys.argv) > 1 else 4_000_000
mine = darts // size + (1 if rank < darts % size else 0)

start = time.time()
rng = random.Random(rank)
inside = 0
for _ in range(mine):
    x, y = rng.random(), rng.random()
    inside += x * x + y * y <= 1.0
print(f"rank {rank} of {size} on {MPI.Get_processor_name()}: {mine} darts")

total = comm.reduce(inside, op=MPI.SUM, root=0)
if rank == 0:
    print(f"pi is about {4.0 * total / darts:.5f} with {size} ranks "
          f"in {time.time() - start:.2f} s")
