-- cuda/12.2: the CUDA environment for minicluster's EMULATED GPUs.
help([[
minicluster's GPUs are emulated: a job that asks for --gres=gpu:N gets CUDA_VISIBLE_DEVICES
and is placed and accounted like a GPU job, but there is no GPU and no CUDA toolkit.
This module sets CUDA_HOME and the variables scripts look for, so that job scripts written
for a real cluster run unchanged; nvcc and CUDA libraries are not provided.
]])
whatis("Description: CUDA 12.2 environment for the emulated GPUs (no toolkit)")
local root = pathJoin(myFileName():match("(.*)/modulefiles/"), "cuda", "12.2")
setenv("CUDA_HOME", root)
setenv("CUDA_PATH", root)
setenv("EBROOTCUDA", root)
setenv("MINICLUSTER_CUDA", "emulated")
