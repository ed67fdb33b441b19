#!/usr/bin/env bash
# Issue #6 figures: client latency of squeue, sacct, sinfo, scontrol and sq with 5,000 pending
# jobs, as medians over RUNS runs, next to real Slurm 22.05 (../shared/reference/perf.md: squeue
# 65 ms, squeue -j 6.8 ms with 5,000 pending; sacct -X 92 ms, sinfo 6.9 ms idle).
#   1. 5,000 held jobs are submitted with `sbatch --hold` in a shell loop (timed), and the
#      controller's heap (Private_Dirty of /proc/PID/smaps_rollup) is read before and after
#      (the issue's goal: under 2 KB per pending job; real Slurm 5 KB);
#   2. each command runs RUNS times inside the login shell, output to /dev/null.
# Usage: bench/cmds_latency.sh [BUILD_DIR] [RUNS] [JOBS]   (default build/release, 21, 5000)
# Timestamps come from bash's $EPOCHREALTIME, as in the reference's perf.sh.
set -euo pipefail
build=${1:-build/release}
runs=${2:-21}
jobs=${3:-5000}
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$bin/minicluster" --dir "$dir/c" up
# Shell functions of the login-shell parts: medians and timings from bash's $EPOCHREALTIME.
helpers="
set -e
median() { sort -n | awk '{a[NR]=\$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf \"%8.2f ms (min %.2f, max %.2f, n=%d)\", m, a[1], a[NR], NR}'; }
ms() { awk -v a=\"\$1\" -v b=\"\$2\" 'BEGIN {printf \"%.3f\n\", (b-a)*1000}'; }
measure() {
  for i in \$(seq $runs); do
    t0=\$EPOCHREALTIME; \"\$@\" >/dev/null; t1=\$EPOCHREALTIME
    ms \$t0 \$t1
  done | median
}
"

"$bin/minicluster" --dir "$dir/c" shell -c "$helpers

echo \"idle cluster:\"
echo \"  squeue                          \$(measure squeue)\"
echo \"  sinfo                           \$(measure sinfo)\"
echo \"  sinfo -N -l                     \$(measure sinfo -N -l)\"

"
# The controller's memory: private dirty pages (its heap) before and after the submissions.
ctld_kb() { awk '/^Private_Dirty:/ {print $2}' "/proc/$(cat "$dir/c/run/ctld.pid")/smaps_rollup"; }
idle_kb=$(ctld_kb)

"$bin/minicluster" --dir "$dir/c" shell -c "$helpers
t0=\$EPOCHREALTIME
for i in \$(seq $jobs); do sbatch --hold -o /dev/null --wrap true >/dev/null; done
t1=\$EPOCHREALTIME
echo \"submitting $jobs held jobs:    \$(ms \$t0 \$t1) ms\"
"
loaded_kb=$(ctld_kb)
awk -v a="$idle_kb" -v b="$loaded_kb" -v n="$jobs" 'BEGIN {
    printf "controller heap: %d kB idle, %d kB with %d pending jobs: %.0f bytes per pending job\n",
        a, b, n, (b - a) * 1024 / n }'

"$bin/minicluster" --dir "$dir/c" shell -c "$helpers
pending=\$(squeue -h -t PD -o %i | wc -l)
echo \"with \$pending pending jobs:\"
last=\$(squeue -h -o %i -S -i | head -n 1)
echo \"  squeue                          \$(measure squeue)\"
echo \"  squeue -u alice                 \$(measure squeue -u alice)\"
echo \"  squeue --me -t PD               \$(measure squeue --me -t PD)\"
echo \"  squeue -j <one id>              \$(measure squeue -j \$last)\"
echo \"  sq                              \$(measure sq)\"
echo \"  sacct -X                        \$(measure sacct -X)\"
echo \"  sacct -X -S now-5minutes        \$(measure sacct -X -S now-5minutes)\"
echo \"  sacct -j <one id>               \$(measure sacct -j \$last)\"
echo \"  sinfo                           \$(measure sinfo)\"
echo \"  scontrol show job <one id>      \$(measure scontrol show job \$last)\"
echo \"  scontrol show partition         \$(measure scontrol show partition)\"
"
after_kb=$(ctld_kb)
awk -v a="$idle_kb" -v b="$after_kb" -v n="$jobs" 'BEGIN {
    printf "controller heap after the commands (row cache filled): %d kB: %.0f bytes per pending job\n",
        b, (b - a) * 1024 / n }'
