#!/usr/bin/env bash
# Issue #20 figures for the app, as medians over several runs of the release build's
# gui.ui_burst_bench (tests/gui/ui_burst_bench.cpp, offscreen):
#   1. main window constructed -> end of its first paint pass (the app's own start; Qt's loading
#      apart), and that plus the test process's time before it (bench/app_start.sh measures the
#      real minicluster-gui's start from outside);
#   2. the longest UI-thread frame (wall clock, and the GUI thread's CPU time) while the window,
#      showing 10,000 jobs on 200 nodes, takes a burst of 1,000 submissions and 60 starts.
# Usage: bench/ui_frames.sh [BUILD_DIR] [RUNS]   (default build/release, 5 runs)
# Goals: first frame < 1 s, longest frame < 50 ms. On a loaded machine the wall-clock frame also
# holds the time the thread waited for a CPU: the CPU-time column is the app's own share.
set -euo pipefail
build=${1:-build/release}
runs=${2:-5}
prog=$build/tests/gui/gui.ui_burst_bench
[ -x "$prog" ] || { echo "no $prog: build the gui.ui_burst_bench target first" >&2; exit 1; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$runs"); do
    QT_QPA_PLATFORM=offscreen "$prog" 2>&1 | grep 'ui_burst_bench:' >>"$out"
done
python3 - "$out" "$runs" <<'PY'
import re, statistics, sys
text = open(sys.argv[1]).read()
def med(pattern):
    values = [float(v) for v in re.findall(pattern, text)]
    return statistics.median(values) if values else float("nan")
own = med(r"constructed to first frame: (\d+) ms")
before = med(r"the process had run (\d+) ms before")
print(f"{sys.argv[2]} runs (medians): main window to first frame {own:.0f} ms, "
      f"process start to first frame {own + before:.0f} ms")
print(f"burst of 1000 submissions on 10000 jobs: longest UI-thread frame "
      f"{med(r'starts: .*longest ([0-9.]+) ms'):.1f} ms wall clock, "
      f"{med(r'CPU time per gap: .*longest ([0-9.]+) ms'):.1f} ms GUI-thread CPU; "
      f"median frame {med(r'starts: .*median ([0-9.]+) ms'):.1f} ms")
PY
