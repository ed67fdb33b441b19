#!/usr/bin/env bash
# package.deb: builds the .deb from this build tree (CPack), checks its Depends:, unpacks it into
# a fresh root that never saw the build, and there, as a user who is not root, starts a cluster,
# runs a job that uses `module load python`, reads its output and accounting, and stops it.
# Usage: deb_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
work=$(mktemp -d /tmp/mc-deb-test.XXXXXX)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# gzip: the test's package is thrown away, xz would only cost time.
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" \
  -D CPACK_DEBIAN_COMPRESSION_TYPE=gzip >"$work/cpack.log" 2>&1 \
  || { cat "$work/cpack.log"; fail "cpack failed"; }
deb=$(ls "$work"/pkg/minicluster_*.deb)
echo "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

depends=$(dpkg-deb -f "$deb" Depends)
for need in bubblewrap lmod python3-venv openssh-server rsync libqt6widgets6 libqt6charts6 \
    libsqlite3-0 libvterm0; do
  grep -qE "(^|, )$need( |,|$)" <<<"$depends" || fail "Depends: lacks $need: $depends"
done
echo "Depends: names the runtime packages and the libraries"
dpkg-deb -c "$deb" >"$work/contents"
grep -q '\./opt/minicluster/bin/sbatch$' "$work/contents" || fail "no /opt/minicluster/bin/sbatch"
if grep -qE '\./usr/bin/(sbatch|squeue)' "$work/contents"; then
  fail "the package would shadow a real Slurm's /usr/bin commands"
fi
dpkg-deb -e "$deb" "$work/control"
grep -q 'ln -sf /opt/minicluster/bin/minicluster /usr/bin/minicluster' "$work/control/postinst" \
  || fail "postinst does not link /usr/bin/minicluster"

# A fresh root: only what the package holds, owned by a user who is not root.
root="$work/root"
dpkg-deb -x "$deb" "$root"
[ ! -e "$root/opt/minicluster/bin/cmds_client_bench" ] || fail "benchmarks are packaged"
user=nobody
uid=$(id -u $user)
gid=$(id -g $user)
home="$work/home"
mkdir -p "$home"
chown -R "$uid:$gid" "$home"
chmod 755 "$work"
as_user() {
  setpriv --reuid="$uid" --regid="$gid" --clear-groups env -i HOME="$home" USER=$user \
    PATH=/usr/bin:/bin LANG=C.UTF-8 ${ASAN_OPTIONS:+ASAN_OPTIONS=$ASAN_OPTIONS} "$@"
}
mc="$root/opt/minicluster/bin/minicluster"
dir="$home/cluster"
as_user "$mc" --dir "$dir" up >"$work/up.log" 2>&1 || { cat "$work/up.log"; fail "up failed"; }
trap 'as_user "$mc" --dir "$dir" down >/dev/null 2>&1 || true; chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
as_user "$mc" --dir "$dir" status >"$work/status.log" 2>&1 || { cat "$work/status.log"; fail "status"; }
echo "up as $user: $(grep -ci 'cn0' "$work/status.log") node lines in status"

as_user tee "$dir/home/alice/job.sh" >/dev/null <<'JOB'
#!/bin/bash
#SBATCH --output=job.out
hostname
module load python
python -c 'print(6*7)'
JOB
submit=$(as_user "$mc" --dir "$dir" shell -c "sbatch job.sh" 2>&1) || fail "sbatch: $submit"
grep -q '^Submitted batch job [0-9]*$' <<<"$submit" || fail "sbatch said: $submit"
id=${submit##* }
for _ in $(seq 1 300); do
  state=$(as_user "$mc" --dir "$dir" shell -c "sacct -n -X -j $id -o State%20" 2>/dev/null | tr -d ' ')
  case "$state" in COMPLETED|FAILED|CANCELLED*|TIMEOUT|OUT_OF_ME*) break ;; esac
  sleep 0.2
done
out="$dir/home/alice/job.out"
[ "$state" = COMPLETED ] || { cat "$out" 2>/dev/null; fail "job $id ended '$state'"; }
grep -qx 'cn0[1-4]' "$out" || fail "job output lacks the node name: $(cat "$out")"
grep -qx '42' "$out" || fail "module load python; python failed: $(cat "$out")"
owner=$(stat -c %u "$out")
[ "$owner" = "$uid" ] || fail "job output owned by uid $owner, not $uid"
echo "job $id ran from the package as $user: $(tr '\n' ' ' <"$out")"
as_user "$mc" --dir "$dir" down >/dev/null 2>&1 || fail "down failed"
echo "1 passed, 0 failed"
