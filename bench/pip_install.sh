#!/usr/bin/env bash
# Issue #15's pip figure (goal: under 20 s), as medians of RUNS jobs: what a student of the ML
# course types in a job, `module load python`, `virtualenv --no-download $SLURM_TMPDIR/env`, then
# `pip install --no-index torch numpy`, with the course's wheel cache: the offline wheelhouse
# the python module puts on PIP_FIND_LINKS (Debian's torch and numpy as real wheels) and pip's
# own cache in ~/.cache/pip, warmed by one install that is not counted (so the wheelhouse is in
# the page cache, as on a cluster's second and later jobs).
# Each run times, inside the job: the venv (virtualenv), the install (wall and the CPU time of
# pip and its children), and the same install with --no-compile into a second venv, which says
# how much of it is compiling torch's .py files to bytecode.
# Usage: bench/pip_install.sh [BUILD_DIR] [RUNS]   (default build/release, 5 runs)
set -euo pipefail
build=${1:-build/release}
runs=${2:-5}
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }

"$bin/minicluster" --dir "$dir/c" ${MC_UP_ARGS:-} up >/dev/null
home=$dir/c/home/alice
"$bin/minicluster" --dir "$dir/c" shell -c true
cat >"$home/pip.sh" <<'EOF'
#!/bin/bash
#SBATCH -c1 --mem=4000M --time=30 --output=pip-%j.out
module load python
# The CPU time of pip and its children (user + system): bash's `times` for the shell's
# children, read before and after (in this shell, not in a subshell, whose children are not
# pip).
cpu() { awk 'NR == 2 {split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2]}' "$1"; }
t0=$EPOCHREALTIME
virtualenv --no-download $SLURM_TMPDIR/env >/dev/null
t1=$EPOCHREALTIME
times >$SLURM_TMPDIR/times1
$SLURM_TMPDIR/env/bin/pip install --no-index torch numpy >/dev/null
t2=$EPOCHREALTIME
times >$SLURM_TMPDIR/times2
c1=$(cpu $SLURM_TMPDIR/times1)
c2=$(cpu $SLURM_TMPDIR/times2)
virtualenv --no-download $SLURM_TMPDIR/env2 >/dev/null
t3=$EPOCHREALTIME
$SLURM_TMPDIR/env2/bin/pip install --no-index --no-compile torch numpy >/dev/null
t4=$EPOCHREALTIME
$SLURM_TMPDIR/env/bin/python -c 'import torch, numpy' &&
    echo "PIP $(awk -v a=$t0 -v b=$t1 -v c=$t2 -v d=$t3 -v e=$t4 -v x=$c1 -v y=$c2 \
        'BEGIN {printf "%.3f %.3f %.3f %.3f", b - a, c - b, y - x, e - d}')"
EOF
wait_job() {
    while "$bin/minicluster" --dir "$dir/c" shell -c "squeue -h -j $1 -o %T" 2>/dev/null | grep -q .; do
        sleep 1
    done
}
for run in $(seq 0 "$runs"); do
    id=$("$bin/minicluster" --dir "$dir/c" shell -c "sbatch --parsable pip.sh")
    wait_job "$id"
    line=$(grep '^PIP ' "$home/pip-$id.out" || { cat "$home/pip-$id.out" >&2; exit 1; })
    if [ "$run" -gt 0 ]; then # run 0 warms the caches
        echo "${line#PIP }" >>"$dir/runs"
        echo "run $run: venv, install wall, install CPU, install --no-compile wall: ${line#PIP }" >&2
    fi
done
col() { cut -d' ' -f"$1" "$dir/runs" | median; }
echo "pip install --no-index torch numpy into a venv in \$SLURM_TMPDIR, medians of $runs jobs:" \
    "$(col 2) s wall ($(col 3) s CPU), $(col 4) s with --no-compile; virtualenv $(col 1) s;" \
    "load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
