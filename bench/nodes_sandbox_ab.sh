#!/usr/bin/env bash
# Before/after of the node sandbox (issue #4): 1,000 trivial jobs under bubblewrap + cgroup v1
# with the same binaries, with and without minicluster-sandboxd (without it the node daemon
# falls back to one bwrap per job, the old way), interleaved so both see the same load.
# Usage: bench/nodes_sandbox_ab.sh [BUILD_DIR] [REPEAT]   (default build/release, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
repeat=${2:-5}
without=$(mktemp -d /tmp/mc-ab-XXXXXX)
trap 'rm -rf "$without"' EXIT
cp -a "$build/bin" "$build/share" "$without/"
rm "$without/bin/minicluster-sandboxd"
for r in $(seq "$repeat"); do
    for v in with without; do
        b=$build
        [ $v = without ] && b=$without
        PARTS=2 MANY_MODES=bubblewrap:cgroup-v1 bench/nodes_lifecycle.sh "$b" 21 1000 1 \
            | awk -v v=$v '/total:/ {print v, $2}'
    done
done | tee "$without/ab.txt"
for v in with without; do
    awk -v v=$v '$1 == v {print $2}' "$without/ab.txt" | sort -n \
        | awk -v v=$v '{a[NR]=$1} END {printf "%-8s median %.1f s (n=%d)\n", v, (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2, NR}'
done
