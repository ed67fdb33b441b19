#!/usr/bin/env bash
# Issue #5 figures (the storage node), as medians:
#   1. one storage pass over a scratch tree of FILES files (default 100,000 in 1,000 folders):
#      the walk with a stat of every entry, the purge plan, the notice, the usage snapshot of
#      every user (minicluster-stored --once, no controller), RUNS runs with hyperfine
#      (warm page cache: the figure is the walk's CPU and system-call cost, not the disk's);
#   2. the same pass when the cluster clock is 61 days ahead: every file is listed in the
#      notice (the notice of 100,000 lines is written);
#   3. the storage node's idle cost in a running cluster: its RSS and PSS
#      (/proc/PID/smaps_rollup) and the CPU time it used over IDLE seconds (default 60, one
#      pass per StorageCheckInterval=60 s, the default preset).
# Usage: [STORED=path/to/minicluster-stored] bench/purge_scan.sh [BUILD_DIR] [FILES] [RUNS] [IDLE]
#        (default build/release, 100000, 11, 60; STORED: the binary timed in parts 1 and 2,
#        default BUILD_DIR's). Needs hyperfine. Wall times suffer on a loaded machine: the CPU
#        time (user+sys) is printed beside them.
set -euo pipefail
build=${1:-build/release}
files=${2:-100000}
runs=${3:-11}
idle=${4:-60}
bin=$(cd "$build/bin" && pwd)
stored=${STORED:-$bin/minicluster-stored}
work=$(mktemp -d /tmp/mc-bench-XXXXXX)
cleanup() {
    "$bin/minicluster" --dir "$work/cluster" down >/dev/null 2>&1 || true
    "$bin/minicluster" --dir "$work/idle" down >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# A cluster directory from the default preset (its etc/, homes, scratch), then stopped.
"$bin/minicluster" --dir "$work/cluster" up >/dev/null
"$bin/minicluster" --dir "$work/cluster" down >/dev/null
scratch="$work/cluster/scratch/alice"
python3 - "$scratch" "$files" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
per = 100
for i in range(n):
    d = os.path.join(root, f"d{i // per:04d}")
    if i % per == 0:
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"f{i:06d}"), "wb") as f:
        f.write(b"x" * 100)
PY
echo "scratch tree: $(find "$scratch" -type f | wc -l) files in $(find "$scratch" -type d | wc -l) folders"

now=$(date +%s)
later=$((now + 61 * 86400))
echo "== 1. one pass, nothing to purge (median of $runs)"
hyperfine --warmup 2 --runs "$runs" --style basic --export-json "$work/young.json" \
    "$stored --dir $work/cluster --once --now $now" | grep -E "Time|Range"
echo "== 2. one pass, every file listed in the notice (cluster clock +61 days)"
hyperfine --warmup 1 --runs "$runs" --style basic --export-json "$work/old.json" \
    --prepare "rm -f $work/cluster/run/storage/purge-alice.tsv" \
    "$stored --dir $work/cluster --once --now $later" | grep -E "Time|Range"
"$stored" --dir "$work/cluster" --once --now "$later"
for f in young old; do
    python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; \
print(f'{sys.argv[2]}: wall median {r[\"median\"]*1000:.1f} ms (min {r[\"min\"]*1000:.1f}, max {r[\"max\"]*1000:.1f}, n={len(r[\"times\"])}), CPU user+sys mean {(r[\"user\"]+r[\"system\"])*1000:.1f} ms')" \
        "$work/$f.json" "$f"
done
rm -rf "$scratch"/d*

echo "== 3. idle cost of minicluster-stored over ${idle} s (a fresh default cluster)"
"$bin/minicluster" --dir "$work/idle" up >/dev/null
pid=$(cat "$work/idle/run/stored.pid")
sleep 2
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
t0=$(ticks)
sleep "$idle"
t1=$(ticks)
hz=$(getconf CLK_TCK)
awk '/^Rss|^Pss:/ {printf "%s %d kB  ", $1, $2} END {print ""}' "/proc/$pid/smaps_rollup"
echo "CPU: $(( (t1 - t0) * 1000 / hz )) ms over ${idle} s"
