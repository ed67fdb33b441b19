#!/usr/bin/env bash
# Issue #16 figures, as hyperfine medians in the login shell of a fresh cluster:
#   `srun -N2 -n8 hostname` from the login node (allocation on two nodes, step, release), the
#   same srun as a step inside `salloc -N2 -n8`, and Open MPI's `mpirun` of an mpi4py hello on
#   4 ranks over 2 nodes inside `salloc -N2 -n4` (mpirun's daemons through srun, MPI_Init, an
#   allreduce, MPI_Finalize). When real Slurm answers on this machine (/usr/bin/sinfo), the
#   same three on it.
# Needs hyperfine, openmpi-bin and python3-mpi4py.
# Usage: bench/parallel_latency.sh [BUILD_DIR] [RUNS] [UP_ARGS...]
#   (default build/release, 20; UP_ARGS go to `minicluster up`, e.g. --limits rlimit)
set -euo pipefail
build=${1:-build/release}
runs=${2:-20}
shift $(( $# > 2 ? 2 : $# ))
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$bin/minicluster" --dir "$dir/c" up "$@"

"$bin/minicluster" --dir "$dir/c" shell -c "
set -e
cd
cat > hello.py <<'PY'
from mpi4py import MPI
c = MPI.COMM_WORLD
total = c.allreduce(c.Get_rank(), op=MPI.SUM)
print(f'rank {c.Get_rank()} of {c.Get_size()} on {MPI.Get_processor_name()} sum {total}')
PY
hyperfine -N --warmup 2 --runs $runs --export-json srun.json 'srun -N2 -n8 hostname' >/dev/null 2>&1
salloc -Q -N2 -n8 bash -c 'hyperfine -N --warmup 2 --runs $runs --export-json step.json \"srun -N2 -n8 hostname\"' >/dev/null 2>&1
salloc -Q -N2 -n4 bash -c 'hyperfine -N --warmup 2 --runs $runs --export-json mpi.json \"mpirun /usr/bin/python3 hello.py\"' >/dev/null 2>&1
python3 - <<'PY'
import json
for name, path in (('srun -N2 -n8 hostname (allocation, step, release)', 'srun.json'),
                   ('srun -N2 -n8 hostname (a step, in salloc -N2 -n8)', 'step.json'),
                   ('mpirun mpi4py hello, 4 ranks on 2 nodes (in salloc)', 'mpi.json')):
    r = json.load(open(path))['results'][0]
    print(f'{name:55s} median {r[\"median\"]*1000:8.1f} ms  (min {r[\"min\"]*1000:.1f}, '
          f'max {r[\"max\"]*1000:.1f}, n={len(r[\"times\"])})')
PY
"
# Real Slurm 22.05 on this machine: the same three rows, as the reference cluster's user
# (alice) when run as root (Open MPI refuses root). Its four slurmd share this host, whose
# other interfaces (other clusters' network namespaces) Open MPI's TCP cannot always bind:
# its traffic is kept on lo.
if /usr/bin/sinfo >/dev/null 2>&1; then
    as=()
    if [ "$(id -u)" = 0 ] && id alice >/dev/null 2>&1; then
        as=(runuser -u alice --)
    fi
    real="$dir/real"
    mkdir -p "$real"
    chmod 711 "$dir"
    chmod 777 "$real"
    cat > "$real/hello.py" <<'PY'
from mpi4py import MPI
c = MPI.COMM_WORLD
total = c.allreduce(c.Get_rank(), op=MPI.SUM)
print(f'rank {c.Get_rank()} of {c.Get_size()} on {MPI.Get_processor_name()} sum {total}')
PY
    chmod 644 "$real/hello.py"
    cd "$real"
    "${as[@]}" hyperfine -N --warmup 2 --runs "$runs" --export-json "$real/srun.json" \
        '/usr/bin/srun -p cpu -N2 -n8 hostname' >/dev/null 2>&1
    "${as[@]}" /usr/bin/salloc -Q -p cpu -N2 -n8 -t 30 hyperfine -N --warmup 2 --runs "$runs" \
        --export-json "$real/step.json" '/usr/bin/srun -N2 -n8 hostname' >/dev/null 2>&1
    "${as[@]}" env OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo \
        /usr/bin/salloc -Q -p cpu -N2 -n4 -t 30 hyperfine -N --warmup 2 --runs "$runs" \
        --export-json "$real/mpi.json" "mpirun /usr/bin/python3 $real/hello.py" >/dev/null 2>&1 \
        || echo "real Slurm: mpirun failed (Open MPI over TCP on this host)"
    python3 - "$real" <<'PY'
import json, os, sys
for name, file in (('srun -p cpu -N2 -n8 hostname (allocation, step, release)', 'srun.json'),
                   ('srun -N2 -n8 hostname (a step, in salloc -p cpu -N2 -n8)', 'step.json'),
                   ('mpirun mpi4py hello, 4 ranks on 2 nodes (in salloc -p cpu)', 'mpi.json')):
    path = os.path.join(sys.argv[1], file)
    if not os.path.exists(path):
        continue
    r = json.load(open(path))['results'][0]
    name = 'real Slurm 22.05: ' + name
    print(f"{name:75s} median {r['median']*1000:8.1f} ms  (min {r['min']*1000:.1f}, "
          f"max {r['max']*1000:.1f}, n={len(r['times'])})")
PY
fi
