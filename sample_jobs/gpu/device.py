# Teaching point (lesson 15): choose the device from what the job was given. The same lines
# run on a GPU node of a real cluster (device cuda) and here, where the GPUs are emulated and
# torch.cuda.is_available() is False (device cpu). Nothing in the code names a GPU index:
# CUDA_VISIBLE_DEVICES, set by Slurm, already hides the GPUs that are not the job's.
import os
import time

import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("device:", device, "| GPUs torch sees:", torch.cuda.device_count(),
      "| CUDA_VISIBLE_DEVICES:", os.environ.get("CUDA_VISIBLE_DEVICES", "(unset)"))
torch.set_num_threads(int(os.environ.get("SLURM_CPUS_PER_TASK", "1")))

x = torch.randn(1024, 1024, device=device)
start = time.time()
for _ in range(20):
    x = torch.tanh(x @ x / 1024)
print("20 matrix products of 1024x1024 on %s in %.2f s" % (device, time.time() - start))
