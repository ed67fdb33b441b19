#!/usr/bin/env bash
# Issue #21 figures: LSF's and PBS's round trips on minicluster, as medians over RUNS runs, next
# to Slurm's own: submit a job that runs `true`, then ask every 20 ms until the vocabulary's
# listing shows it finished (bsub -> bjobs -a DONE; qsub -> qstat -x F; sbatch -> squeue -t all
# COMPLETED). Also the submit and the listing alone. On the dtu preset (queues hpc, gpuv100).
# Usage: bench/lsf_pbs_roundtrip.sh [BUILD_DIR] [RUNS]   (default build/release, 21)
# Timestamps come from bash's $EPOCHREALTIME, as in bench/cmds_latency.sh.
set -euo pipefail
build=${1:-build/release}
runs=${2:-21}
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$bin/minicluster" --dir "$dir/c" --preset dtu up
"$bin/minicluster" --dir "$dir/c" shell -c "
set -e
median() { sort -n | awk '{a[NR]=\$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf \"%8.1f ms (min %.1f, max %.1f, n=%d)\", m, a[1], a[NR], NR}'; }
ms() { awk -v a=\"\$1\" -v b=\"\$2\" 'BEGIN {printf \"%.3f\n\", (b-a)*1000}'; }
# \$1: submit command printing the id's line; \$2: the listing; \$3: what shows it finished.
roundtrip() {
  for i in \$(seq $runs); do
    t0=\$EPOCHREALTIME
    id=\$(eval \"\$1\" | grep -o '[0-9][0-9]*' | head -1)
    until eval \"\$2 \$id\" 2>/dev/null | grep -q -- \"\$3\"; do sleep 0.02; done
    t1=\$EPOCHREALTIME
    ms \$t0 \$t1
  done | median
}
alone() {
  for i in \$(seq $runs); do
    t0=\$EPOCHREALTIME; eval \"\$1\" >/dev/null 2>&1; t1=\$EPOCHREALTIME
    ms \$t0 \$t1
  done | median
}
echo \"round trip, submit -> finished in the listing:\"
echo \"  bsub -> bjobs -a DONE           \$(roundtrip 'bsub -o /dev/null true' 'bjobs -a' ' DONE ')\"
echo \"  qsub -> qstat -x F              \$(roundtrip 'echo true | qsub -j oe -o /dev/null' 'qstat -x' ' F hpc')\"
echo \"  sbatch -> squeue COMPLETED      \$(roundtrip 'sbatch -o /dev/null --wrap true' 'squeue -h -t all -o %T -j' 'COMPLETED')\"
echo \"submit alone (held jobs):\"
echo \"  bsub -H                         \$(alone 'bsub -H -o /dev/null true')\"
echo \"  qsub -h                         \$(alone 'echo true | qsub -h -o /dev/null')\"
echo \"  sbatch --hold                   \$(alone 'sbatch --hold -o /dev/null --wrap true')\"
echo \"listing alone (\$(squeue -h | wc -l) jobs in the queue):\"
echo \"  bjobs                           \$(alone bjobs)\"
echo \"  qstat                           \$(alone qstat)\"
echo \"  squeue                          \$(alone squeue)\"
"
