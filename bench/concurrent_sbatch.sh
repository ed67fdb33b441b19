#!/usr/bin/env bash
# Issue #18 figures: many classmates at once. SHELLS login shells (one per emulated user in
# turn: alice, bob, carol, prof) each submit JOBS short batch jobs with sbatch while running
# `squeue` in a loop beside them; the run ends when the queue is empty. Reported per run and
# as medians over RUNS runs:
#   errors      sbatch or squeue runs that failed (exit status not 0) (goal 0)
#   submitted   jobs sbatch accepted, and jobs sacct shows COMPLETED (goal: SHELLS x JOBS)
#   time        from the first submission to the last job's end, in seconds
# Usage: bench/concurrent_sbatch.sh [BUILD_DIR] [RUNS] [SHELLS] [JOBS]
#        (default build/release, 3, 20, 200)
set -euo pipefail
build=${1:-build/release}
runs=${2:-3}
shells=${3:-20}
jobs=${4:-200}
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
users=(alice bob carol prof)

median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%g (min %g, max %g, n=%d)", m, a[1], a[NR], NR}'; }

for run in $(seq "$runs"); do
    "$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true
    rm -rf "$dir/c" "$dir/out"
    mkdir -p "$dir/out"
    "$bin/minicluster" --dir "$dir/c" up >/dev/null
    t0=$EPOCHREALTIME
    for s in $(seq "$shells"); do
        user=${users[$(((s - 1) % ${#users[@]}))]}
        # Each shell: JOBS sbatch, a squeue after every one; every failure is one line.
        "$bin/minicluster" --dir "$dir/c" --user "$user" shell -c "
            errors=0; ok=0
            for i in \$(seq $jobs); do
                if sbatch -o /dev/null --wrap 'sleep 0.1' >/dev/null 2>>~/bench-errors-$s; then
                    ok=\$((ok + 1)); else errors=\$((errors + 1)); fi
                squeue -h >/dev/null 2>>~/bench-errors-$s || errors=\$((errors + 1))
            done
            echo \$ok \$errors" > "$dir/out/$s" 2>>"$dir/out/launcher-errors" &
    done
    wait
    while [ "$("$bin/minicluster" --dir "$dir/c" shell -c 'squeue -h | wc -l')" != 0 ]; do
        sleep 0.5
    done
    t1=$EPOCHREALTIME
    submitted=$(cat "$dir"/out/[0-9]* | awk '{s += $1} END {print s + 0}')
    errors=$(cat "$dir"/out/[0-9]* | awk '{s += $2} END {print s + 0}')
    [ -s "$dir/out/launcher-errors" ] && errors=$((errors + $(wc -l < "$dir/out/launcher-errors")))
    completed=$("$bin/minicluster" --dir "$dir/c" shell -c 'sacct -a -n -X -P -o JobID,State' \
        | grep -c '|COMPLETED$' || true)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
    echo "run $run: $shells shells x $jobs sbatch (+ a squeue each): errors $errors, submitted $submitted, COMPLETED $completed; $secs s"
    cat "$dir"/c/home/*/bench-errors-* 2>/dev/null | sort | uniq -c | sort -rn | head -5
    echo "$errors $secs" >> "$dir/results"
done
echo "medians over $runs runs:"
echo "  errors $(cut -d' ' -f1 "$dir/results" | median)"
echo "  time   $(cut -d' ' -f2 "$dir/results" | median) s"
