#!/usr/bin/env bash
# Times `minicluster-simulate` on a synthetic SWF trace (issue #3 goal: 100,000 jobs < 30 s).
# Usage: bench/sched_simulate.sh [BUILD_DIR] [JOBS] [MEAN_GAP_S] [RUNS]
#   defaults: build/release, 100000 jobs, 77 s between arrivals (about 100% of the 1,000-node
#   cluster offered: mean 56.8 CPUs x 43,200 s per job over 32,000 CPUs; 90 s is about 85%),
#   3 runs; prints each run's wall and user CPU time and their medians (on a shared machine
#   the CPU time is the steadier figure).
set -euo pipefail
build=${1:-build/release}
jobs=${2:-100000}
gap=${3:-77}
runs=${4:-3}
dir=$(mktemp -d /tmp/mc-simbench-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/slurm.conf" <<CONF
ClusterName=bench
NodeName=cn[0001-0900] CPUs=32 RealMemory=128000
NodeName=gpu[001-100] CPUs=32 RealMemory=128000 Gres=gpu:4
PartitionName=all Nodes=ALL Default=YES MaxTime=7-00:00:00
CONF
# SWF: id submit wait run procs cpu mem reqprocs reqtime reqmem status user group app queue
#      partition preceding think; same distributions as bench/sched_workload.h.
awk -v n="$jobs" -v gap="$gap" 'BEGIN {
  srand(42); t = 0
  for (i = 1; i <= n; i++) {
    t += -gap * log(1 - rand()); run = 30 + int(rand() * 86371); p = 2 ^ int(rand() * 9)
    printf "%d %d -1 %d %d -1 -1 %d %d -1 1 %d -1 -1 -1 -1 -1 -1\n", i, t, run, p, p, run + int(run / 2) + 60, i % 50
  }
}' > "$dir/trace.swf"
times=()
cpus=()
for r in $(seq "$runs"); do
  start=$(date +%s.%N)
  /usr/bin/time -f %U -o "$dir/user.txt" \
    "$build/bin/minicluster-simulate" --conf "$dir/slurm.conf" --workload "$dir/trace.swf" > "$dir/out.txt"
  end=$(date +%s.%N)
  s=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}')
  u=$(tail -n 1 "$dir/user.txt")
  times+=("$s")
  cpus+=("$u")
  echo "run $r: ${s} s wall, ${u} s user CPU"
done
cat "$dir/out.txt"
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f", m}'; }
echo "median: $(printf '%s\n' "${times[@]}" | median) s wall, $(printf '%s\n' "${cpus[@]}" | median) s user CPU over $runs runs ($jobs jobs, mean gap $gap s)"
