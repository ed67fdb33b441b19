#!/usr/bin/env bash
# Issue #2 figures, as medians over many runs on an idle cluster:
#   1. sbatch round trip (submit, committed to SQLite, reply), timed inside the login shell;
#   2. submission -> the job's first line of output in its file.
# Usage: [MC_UP_ARGS="--limits rlimit"] bench/first_job_latency.sh [BUILD_DIR] [RUNS]
# (default build/release, 100 runs; MC_UP_ARGS are passed to `minicluster up`)
# Timestamps come from bash's $EPOCHREALTIME, as in ../shared/refslurm/perf.sh.
set -euo pipefail
build=${1:-build/release}
runs=${2:-100}
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$bin/minicluster" --dir "$dir/c" ${MC_UP_ARGS:-} up

"$bin/minicluster" --dir "$dir/c" shell -c "
set -e
median() { sort -n | awk '{a[NR]=\$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf \"%.2f ms (min %.2f, max %.2f, n=%d)\", m, a[1], a[NR], NR}'; }
ms() { awk -v a=\"\$1\" -v b=\"\$2\" 'BEGIN {printf \"%.3f\n\", (b-a)*1000}'; }

for i in \$(seq $runs); do
  t0=\$EPOCHREALTIME; sbatch -o /dev/null --wrap true >/dev/null; t1=\$EPOCHREALTIME
  ms \$t0 \$t1
  sleep 0.2 # an idle cluster for each run, as in refslurm/perf.sh (it slept 0.3 s)
done > sbatch.ms
while squeue -h -t PD,R,CG -o %i | grep -q .; do :; done

mkdir -p out
for i in \$(seq $runs); do
  f=out/first-\$i.out
  t0=\$EPOCHREALTIME; sbatch -o \$f --wrap 'echo first line' >/dev/null
  while [ ! -s \$f ]; do :; done
  t1=\$EPOCHREALTIME
  ms \$t0 \$t1
  sleep 0.2
done > first.ms

echo \"sbatch round trip:          \$(median < sbatch.ms)\"
echo \"submit -> first output line: \$(median < first.ms)\"
"
