#!/usr/bin/env bash
# Issue #18 figures: at most once under controller crashes. JOBS short batch jobs are
# submitted, then the controller is killed with SIGKILL KILLS times while they run and
# restarted each time with `minicluster up`. Every job appends a line to runs/<its id> when it
# starts, so the jobs count their own executions; sacct counts the records. Reported per run
# and as medians over RUNS runs:
#   ran twice   jobs with more than one execution (goal 0; Slurm requeues none here)
#   lost        jobs that never ran or are not finished in sacct (goal 0)
#   no record   jobs missing from sacct -X (goal 0)
#   time        from the first submission to the last job's end, in seconds
# Usage: bench/controller_kills.sh [BUILD_DIR] [RUNS] [JOBS] [KILLS]
#        (default build/release, 3, 1000, 5)
set -euo pipefail
build=${1:-build/release}
runs=${2:-3}
jobs=${3:-1000}
kills=${4:-5}
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%g (min %g, max %g, n=%d)", m, a[1], a[NR], NR}'; }
inshell() { "$bin/minicluster" --dir "$dir/c" shell -c "$1"; }

for run in $(seq "$runs"); do
    "$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true
    rm -rf "$dir/c"
    "$bin/minicluster" --dir "$dir/c" up >/dev/null
    t0=$EPOCHREALTIME
    inshell "mkdir -p runs; for i in \$(seq $jobs); do
        sbatch -o /dev/null --wrap 'echo \$SLURM_RESTART_COUNT >> runs/\$SLURM_JOB_ID; sleep 0.5' >/dev/null
    done"
    # The kills, spread over the run while jobs remain.
    for k in $(seq "$kills"); do
        sleep 3
        pid=$(cat "$dir/c/run/ctld.pid" 2>/dev/null || true)
        [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
        sleep 0.5
        "$bin/minicluster" --dir "$dir/c" up >/dev/null
    done
    # Wait for the queue to empty.
    while [ "$(inshell 'squeue -h | wc -l')" != 0 ]; do sleep 1; done
    t1=$EPOCHREALTIME
    home=$(inshell 'echo $HOME')
    runsdir="$dir/c/home/$(basename "$home")/runs"
    twice=0; lost=0
    for id in $(seq "$jobs"); do
        n=$(cat "$runsdir/$id" 2>/dev/null | wc -l)
        [ "$n" -gt 1 ] && twice=$((twice + 1))
        [ "$n" -eq 0 ] && lost=$((lost + 1))
    done
    executions=$(cat "$runsdir"/* | wc -l)
    records=$(inshell 'sacct -n -X -P -o JobID,State' | grep '|COMPLETED$' | sort -u | wc -l)
    norecord=$((jobs - records))
    [ "$norecord" -gt "$lost" ] && lost=$norecord
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
    echo "run $run: $jobs jobs, $kills controller kills: $executions executions, sacct COMPLETED $records; ran twice $twice, lost $lost, no record $norecord; $secs s"
    echo "$twice $lost $norecord $secs" >> "$dir/results"
done
echo "medians over $runs runs:"
echo "  ran twice  $(awk '{print $1}' "$dir/results" | median)"
echo "  lost       $(awk '{print $2}' "$dir/results" | median)"
echo "  no record  $(awk '{print $3}' "$dir/results" | median)"
echo "  time (s)   $(awk '{print $4}' "$dir/results" | median)"
