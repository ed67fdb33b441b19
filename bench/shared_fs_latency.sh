#!/usr/bin/env bash
# What SharedFsLatency= does to the lesson's "many small files" case: `tar cf` of N small files
# read from a shared-filesystem path (slowed by libmc_slowfs.so) versus the same files on
# node-local disk, medians of hyperfine runs.
#   bench/shared_fs_latency.sh [BUILD_DIR] [FILES] [LATENCY_US]
set -euo pipefail
build=${1:-build/release}
files=${2:-1000}
latency=${3:-1000}
lib=$(cd "$build" && pwd)/bin/libmc_slowfs.so
[ -f "$lib" ] || { echo "no $lib: build the mc_slowfs target first" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "hyperfine is needed (scripts/deps.sh)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/shared/data" "$work/local/data"
for i in $(seq "$files"); do
    echo "$i" >"$work/shared/data/f$i"
    echo "$i" >"$work/local/data/f$i"
done
export LD_PRELOAD=$lib MC_SLOWFS_LATENCY_US=$latency MC_SLOWFS_PATHS=$work/shared
hyperfine -N --warmup 1 --runs 5 --export-json "$work/r.json" \
    "tar cf /dev/null -C $work/shared data" "tar cf /dev/null -C $work/local data" >/dev/null
python3 - "$work/r.json" "$files" "$latency" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
shared, local = (x["median"] * 1000 for x in r)
print(f"{sys.argv[2]} files, SharedFsLatency={sys.argv[3]}us: shared {shared:.1f} ms, "
      f"local {local:.1f} ms (median), ratio {shared / local:.1f}x")
PY
