#!/usr/bin/env bash
# Issue #4 figures (nodes: sandboxes, real limits, the job lifecycle), as medians:
#   1. turnaround of one trivial job (submit -> no longer queued), RUNS runs, for each pair of
#      sandbox and limits mode this machine allows: the cost of the sandbox and of the limits
#      on job start;
#   2. 1,000 trivial jobs from the first submission to all COMPLETED (real Slurm 22.05: 54-67 s,
#      ../shared/reference/perf.md; goal under 6 s), REPEAT times;
#   3. idle memory of the whole cluster's daemons (ctld + every noded): RSS and PSS from
#      /proc/PID/smaps_rollup (real Slurm ~190 MB; goal under 60 MB).
# Usage: [MANY_MODES="plain:rlimit bubblewrap:cgroup-v1"] [PARTS="1 2 3"]
#        bench/nodes_lifecycle.sh [BUILD_DIR] [RUNS] [JOBS] [REPEAT]
#        (default build/release, 21, 1000, 3; MANY_MODES: the sandbox:limits pairs of part 2,
#        default auto:auto; PARTS: which of the three parts to run, default all).
#        Timestamps: bash's $EPOCHREALTIME.
set -euo pipefail
build=${1:-build/release}
runs=${2:-21}
jobs=${3:-1000}
repeat=${4:-3}
bin=$(cd "$build/bin" && pwd)
work=$(mktemp -d /tmp/mc-bench-XXXXXX)
current=""
cleanup() {
    if [ -n "$current" ]; then "$bin/minicluster" --dir "$current" down >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

median() {
    sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2;
        printf "%.1f (min %.1f, max %.1f, n=%d)", m, a[1], a[NR], NR}'
}

# start NAME SANDBOX LIMITS: a fresh cluster; returns 1 when this machine cannot run the mode.
start() {
    current="$work/$1"
    "$bin/minicluster" --dir "$current" --sandbox "$2" --limits "$3" up >/dev/null 2>&1
}
stop() {
    "$bin/minicluster" --dir "$current" down >/dev/null 2>&1 || true
    current=""
}
in_shell() { "$bin/minicluster" --dir "$current" shell -c "$1"; }

parts=" ${PARTS:-1 2 3} "
if [[ $parts == *" 1 "* ]]; then
echo "== 1. turnaround of one trivial job, ms (submit -> left the queue; $runs runs)"
for sandbox in plain bubblewrap; do
    for limits in rlimit cgroup-v1 cgroup-v2; do
        if ! start "t-$sandbox-$limits" "$sandbox" "$limits"; then
            printf "  %-10s %-9s  not available on this machine\n" "$sandbox" "$limits"
            continue
        fi
        result=$(in_shell "
            for i in \$(seq $runs); do
                t0=\$EPOCHREALTIME
                j=\$(sbatch --parsable -o /dev/null --wrap true)
                while squeue -h -j \$j -t PD,R,CG -o %i 2>/dev/null | grep -q .; do :; done
                t1=\$EPOCHREALTIME
                awk -v a=\$t0 -v b=\$t1 'BEGIN {printf \"%.3f\n\", (b-a)*1000}'
            done" | median)
        printf "  %-10s %-9s  %s\n" "$sandbox" "$limits" "$result"
        stop
    done
done

fi

if [[ $parts == *" 2 "* ]]; then
echo "== 2. $jobs trivial jobs, first submission -> all COMPLETED, s ($repeat runs each)"
for pair in ${MANY_MODES:-auto:auto}; do
    sandbox=${pair%%:*}
    limits=${pair##*:}
    rm -f "$work"/many-*.txt
    for r in $(seq "$repeat"); do
        if ! start "many-$sandbox-$limits-$r" "$sandbox" "$limits"; then
            echo "  $sandbox/$limits: not available on this machine"
            continue 2
        fi
        in_shell "
            t0=\$EPOCHREALTIME
            for i in \$(seq $jobs); do sbatch -o /dev/null --wrap true >/dev/null; done
            t1=\$EPOCHREALTIME
            while squeue -h -t PD,R,CG -o %i | grep -q .; do sleep 0.02; done
            t2=\$EPOCHREALTIME
            done=\$(sacct -n -X -o State -S now-1hour | grep -c COMPLETED)
            awk -v a=\$t0 -v b=\$t1 -v c=\$t2 -v n=\$done \
                'BEGIN {printf \"%.2f %.2f %d\\n\", c-a, b-a, n}'" >"$work/many-$r.txt"
        stop
    done
    echo "  sandbox $sandbox, limits $limits:"
    awk '{print $1}' "$work"/many-*.txt | median | sed 's/^/    total: /'
    echo
    awk '{print $2}' "$work"/many-*.txt | median | sed 's/^/    of which submitting: /'
    echo
    awk '{print "    completed jobs in sacct:", $3}' "$work"/many-*.txt
done

fi

if [[ $parts == *" 3 "* ]]; then
echo "== 3. idle memory of the daemons (auto modes), MB: right after startup, then with the"
echo "   node sandboxes alive (one job on each CPU node; a sandbox stays a minute after its job)"
start idle auto auto
rss() { # NAME PID
    awk -v n="$1" '/^Rss:/ {r=$2} /^Pss:/ {p=$2}
        END {printf "  %-22s RSS %6.1f  PSS %6.1f\n", n, r/1024, p/1024}' "/proc/$2/smaps_rollup"
}
daemons() {
    for f in "$current"/run/ctld.pid "$current"/run/noded-*.pid "$current"/run/stored.pid \
        "$current"/run/logind.pid; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        rss "$(basename "$f" .pid)" "$pid"
        # a node's sandbox: bubblewrap (the node daemon's child) and minicluster-sandboxd in it
        for b in $(ps -o pid= --ppid "$pid" 2>/dev/null); do
            [ "$(cat /proc/$b/comm)" = bwrap ] || continue
            rss "  $(basename "$f" .pid) bwrap" "$b"
            for s in $(ps -o pid= --ppid "$b"); do rss "  $(basename "$f" .pid) sandboxd" "$s"; done
        done
    done
}
total() { awk '{r+=$(NF-2); p+=$NF} END {printf "  total                  RSS %6.1f  PSS %6.1f\n", r, p}'; }
daemons | tee "$work/mem.txt"
total <"$work/mem.txt"
in_shell "for n in cn01 cn02 cn03 cn04; do sbatch -w \$n -o /dev/null --wrap true >/dev/null; done
          while squeue -h -o %i | grep -q .; do sleep 0.05; done"
echo "  with the four CPU nodes' sandboxes:"
daemons | tee "$work/mem2.txt" | grep -E "bwrap|sandboxd"
total <"$work/mem2.txt"
echo "  limits: $(head -n 1 "$current/run/limits"), sandbox: $(head -n 1 "$current/run/sandbox")"
stop
fi
