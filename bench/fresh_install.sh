#!/usr/bin/env bash
# Fresh-machine set-up figures (issue #13), in Debian 12 chroots made by debootstrap (minbase):
# the download size and time of the run command's packages, of the test command's, and of
# installing the .deb; then, in the .deb's chroot, a user who is not root starts a cluster and
# runs a job. Each measurement starts from a new copy of the bare chroot; runs N times, prints
# every run and the median.
#   bench/fresh_install.sh DEB [N]        (as root; needs debootstrap and the Debian mirror)
set -euo pipefail
deb=$(realpath "$1")
runs=${2:-3}
src=$(cd "$(dirname "$0")/.." && pwd)
base=${MC_FRESH_ROOT:-/var/tmp/mc-fresh/base}
if [ ! -x "$base/bin/bash" ]; then
  mkdir -p "$(dirname "$base")"
  debootstrap --variant=minbase bookworm "$base" http://deb.debian.org/debian >/dev/null
fi

root=""
cleanup() {
  if [ -n "$root" ]; then
    for m in tmp/.X11-unix proc sys dev; do umount -l "$root/$m" 2>/dev/null || true; done
    rm -rf "$root"
  fi
}
trap cleanup EXIT
fresh() {
  cleanup
  root=$(mktemp -d /var/tmp/mc-fresh/run.XXXXXX)
  cp -a "$base/." "$root/"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mount -t proc proc "$root/proc"
  mount --rbind /sys "$root/sys"
  mount --rbind /dev "$root/dev"
  chroot "$root" apt-get update -qq
}
# install LABEL PACKAGES...: prints the label, MB downloaded and seconds.
install() {
  local label=$1
  shift
  local bytes t0 t1
  bytes=$(chroot "$root" apt-get install -y --no-install-recommends --print-uris "$@" \
    | awk '/^'"'"'/ {s += $3} END {print s + 0}')
  t0=$(date +%s.%N)
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "$@" >/dev/null
  t1=$(date +%s.%N)
  printf '%s\t%.1f MB\t%.1f s\n' "$label" "$(echo "$bytes / 1000000" | bc -l)" \
    "$(echo "$t1 - $t0" | bc -l)"
}
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

mapfile -t run_pkgs < <("$src/scripts/deps.sh" --list run)
mapfile -t test_pkgs < <("$src/scripts/deps.sh" --list test)
out=$(mktemp)
for i in $(seq 1 "$runs"); do
  fresh
  install run "${run_pkgs[@]}" | tee -a "$out"
  install "test (after run)" "${test_pkgs[@]}" | tee -a "$out"
  fresh
  cp "$deb" "$root/tmp/"
  install deb "/tmp/$(basename "$deb")" | tee -a "$out"
done

# The .deb's chroot: a user who is not root starts a cluster and runs a job there.
chroot "$root" useradd -m student
chroot "$root" su - student -c 'minicluster up >/dev/null && printf "#!/bin/bash\nhostname\nmodule load python\npython -c \"print(6*7)\"\n" > ~/job.sh'
chroot "$root" su - student -c 'cp ~/job.sh ~/.local/share/minicluster/default/home/alice/ && minicluster shell -c "sbatch -o job.out job.sh"'
for _ in $(seq 1 100); do
  f="$root/home/student/.local/share/minicluster/default/home/alice/job.out"
  [ -s "$f" ] && grep -q 42 "$f" && break
  sleep 0.2
done
echo "job from the .deb as student: $(tr '\n' ' ' <"$f")"
# The app, on a display of the host's (its socket bound into the chroot), as student.
if command -v Xvfb >/dev/null && command -v import >/dev/null; then
  Xvfb :88 -screen 0 1280x800x24 >/dev/null 2>&1 &
  xvfb=$!
  sleep 1
  mkdir -p "$root/tmp/.X11-unix"
  mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
  chroot "$root" su - student -c 'DISPLAY=:88 minicluster-gui >/dev/null 2>&1 &'
  sleep 8
  DISPLAY=:88 import -window root "${MC_FRESH_SHOT:-/tmp/fresh-deb-app.png}"
  echo "the app from the .deb as student: ${MC_FRESH_SHOT:-/tmp/fresh-deb-app.png}"
  pkill -f "$root/opt/minicluster/bin/minicluster-gui" || true
  sleep 1
  umount "$root/tmp/.X11-unix"
  kill "$xvfb"
fi
chroot "$root" su - student -c 'minicluster status | head -3; minicluster down >/dev/null'

echo "medians over $runs runs:"
for label in run "test (after run)" deb; do
  mb=$(awk -F'\t' -v l="$label" '$1 == l {print $2 + 0}' "$out" | median)
  s=$(awk -F'\t' -v l="$label" '$1 == l {print $3 + 0}' "$out" | median)
  printf '  %-18s %6.1f MB  %6.1f s\n' "$label" "$mb" "$s"
done
rm -f "$out"
