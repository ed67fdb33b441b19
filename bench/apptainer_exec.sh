#!/usr/bin/env bash
# Issue #21 figures: `apptainer exec IMAGE true` inside a job (a step on cn01), as hyperfine
# medians, after the first use (goal < 50 ms) and the first use itself (the SIF's squashfs
# unpacked into the user's cache); then the build time and size of the shipped images, made
# again from the host's Debian packages as the build does.
# Usage: bench/apptainer_exec.sh [BUILD_DIR] [RUNS]   (default build/release, 30)
set -euo pipefail
build=${1:-build/release}
runs=${2:-30}
src=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "$build/bin" && pwd)
images=$(cd "$build/share/minicluster/software/images" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$bin/minicluster" --dir "$dir/c" up >/dev/null

"$bin/minicluster" --dir "$dir/c" shell -c "
set -e
cd
export img=/opt/minicluster/software/images
srun -N1 -w cn01 bash -c '
  for i in debian-12 python-numpy; do
    chmod -R u+rwX ~/.apptainer/cache 2>/dev/null || true; rm -rf ~/.apptainer/cache
    s=\$(date +%s%N); apptainer -q exec \$img/\$i.sif true; e=\$(date +%s%N)
    echo \"first use of \$i.sif (unsquashfs into the cache): \$(( (e - s) / 1000000 )) ms\"
  done
  hyperfine -N --warmup 3 --runs $runs --export-json exec.json \
    \"apptainer exec \$img/debian-12.sif true\" \"apptainer exec \$img/python-numpy.sif true\" \
    \"apptainer exec \$img/python-numpy.sif python3 -c pass\" >/dev/null 2>&1'
python3 - <<'PY'
import json
for r in json.load(open('exec.json'))['results']:
    print(f'{r[\"command\"]:60s} median {r[\"median\"]*1000:7.2f} ms  (min {r[\"min\"]*1000:.2f}, '
          f'max {r[\"max\"]*1000:.2f}, n={len(r[\"times\"])})')
PY
"

# The shipped images, built again as the build does (software/images/CMakeLists.txt).
base="base-files base-passwd bash coreutils dash debianutils diffutils findutils libc-bin grep gzip hostname sed tar ncurses-base"
for name in debian-12 python-numpy; do
  pkgs=$base
  [ "$name" = python-numpy ] && pkgs="$base python3 python3-numpy"
  s=$(date +%s%N)
  python3 "$src/software/images/debian_rootfs.py" --dest "$dir/$name-rootfs" $pkgs >/dev/null
  m=$(date +%s%N)
  sed -e "s|@ROOTFS@|$dir/$name-rootfs|" -e "s/@[A-Z_]*VERSION@/x/g" \
    "$src/software/images/$name.def.in" > "$dir/$name.def"
  APPTAINER_CACHEDIR=$dir/cache "$bin/apptainer" -q build --force "$dir/$name.sif" "$dir/$name.def"
  e=$(date +%s%N)
  echo "$name.sif: rootfs $(du -sm "$dir/$name-rootfs" | cut -f1) MB, $(find "$dir/$name-rootfs" | wc -l) files;" \
    "SIF $(( $(stat -c %s "$dir/$name.sif") / 1048576 )) MB (shipped: $(( $(stat -c %s "$images/$name.sif") / 1048576 )) MB);" \
    "rootfs $(( (m - s) / 1000000 )) ms + apptainer build $(( (e - m) / 1000000 )) ms"
done
