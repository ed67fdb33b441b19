#!/usr/bin/env bash
# Issue #4 figure: `srun true` from the login shell, allocation + step + release, as hyperfine
# medians (real Slurm 22.05: 66 ms, ../shared/reference/perf.md; goal < 20 ms). Also `srun true`
# inside a salloc allocation (step only) and `salloc true` (allocation only), for the split.
# Usage: bench/srun_latency.sh [BUILD_DIR] [RUNS] [UP_ARGS...]
#   (default build/release, 50; UP_ARGS go to `minicluster up`, e.g. --limits rlimit)
set -euo pipefail
build=${1:-build/release}
runs=${2:-50}
shift $(( $# > 2 ? 2 : $# ))
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$bin/minicluster" --dir "$dir/c" up "$@"

"$bin/minicluster" --dir "$dir/c" shell -c "
set -e
cd
hyperfine -N --warmup 5 --runs $runs --export-json srun.json 'srun true' 'salloc -Q true' >/dev/null 2>&1
salloc -Q -N1 bash -c 'hyperfine -N --warmup 5 --runs $runs --export-json step.json \"srun true\"' >/dev/null 2>&1
python3 - <<'PY'
import json
for name, path in (('srun true (allocation, step, release)', 'srun.json'),
                   ('salloc true (allocation only)', 'srun.json'),
                   ('srun true inside salloc (step only)', 'step.json')):
    results = json.load(open(path))['results']
    r = results[1] if name.startswith('salloc') else results[0]
    print(f'{name:40s} median {r[\"median\"]*1000:7.2f} ms  (min {r[\"min\"]*1000:.2f}, '
          f'max {r[\"max\"]*1000:.2f}, n={len(r[\"times\"])})')
PY
"
