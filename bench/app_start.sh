#!/usr/bin/env bash
# Issue #20: the app's start to its first frame (goal < 1 s), measured from outside on the real
# program: the time from starting minicluster-gui to the end of its first paint pass, as the
# app reports it with MC_GUI_FIRST_FRAME=1 (gui/app/include/mc/gui/first_frame_probe.h), which
# then quits. Medians over RUNS starts, the first (coldest) apart.
# Usage: bench/app_start.sh [BUILD_DIR] [RUNS]   (default build/release, 5 runs)
# The program runs alone in a temporary folder, with a temporary home and an empty cluster
# directory: no `minicluster` beside it, so its terminal tab starts no cluster, and the user's
# own settings are neither read nor changed. QT_QPA_PLATFORM defaults to offscreen; set it to
# xcb (with a display) to include the window system.
set -euo pipefail
build=${1:-build/release}
runs=${2:-5}
prog=$build/bin/minicluster-gui
[ -x "$prog" ] || { echo "no $prog: build the minicluster-gui target first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/home" "$tmp/cluster"
cp "$prog" "$tmp/bin/minicluster-gui"
out=$tmp/times
for _ in $(seq "$runs"); do
    started=$(date +%s%N)
    line=$(HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local" \
        QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} MC_GUI_FIRST_FRAME=1 \
        "$tmp/bin/minicluster-gui" --dir "$tmp/cluster" 2>&1 | grep 'first frame at' || true)
    [ -n "$line" ] || { echo "minicluster-gui reported no first frame" >&2; exit 1; }
    frame=$(sed -n 's/.*realtime_ns=\([0-9]*\).*/\1/p' <<<"$line")
    echo "$(((frame - started) / 1000000))" >>"$out"
done
python3 - "$out" "$runs" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import statistics, sys
times = [int(v) for v in open(sys.argv[1]).read().split()]
print(f"{sys.argv[2]} starts of minicluster-gui: start to first frame median "
      f"{statistics.median(times)} ms (first start {times[0]} ms, all: "
      f"{', '.join(map(str, times))}; load average {sys.argv[3]})")
PY
