#!/usr/bin/env bash
# Issue #16 figure: `salloc` until its shell answers, median of RUNS, in a pseudo-terminal as a
# student types it. With LaunchParameters=use_interactive_step (the default preset) that shell
# is an interactive step on the first allocated node; real Slurm 22.05 on this machine
# (/usr/bin/salloc, when sinfo answers) starts it on the submit host, as its slurm.conf says.
# One login shell per side stays open; each run types `salloc ARGS` and, at once, the line
# `echo __R$((1+1))__$(hostname)`: the terminal echoes the typed line at once, but "__R2__" is
# printed only when a shell has read and run it, which the new shell does as soon as it reads
# its terminal: the time to a usable prompt. Then `exit` ends the allocation and the next run
# waits for the login shell to answer again.
# Rows: salloc alone, and `salloc ... srun --pty bash` (a prompt on the compute node through a
# step of its own), for minicluster; for real Slurm, salloc alone and `salloc ... srun
# --interactive --preserve-env --pty bash`, what its salloc runs under use_interactive_step.
# Usage: bench/salloc_prompt.sh [BUILD_DIR] [RUNS] [UP_ARGS...]
#   (default build/release, 10; UP_ARGS go to `minicluster up`, e.g. --limits rlimit)
set -euo pipefail
build=${1:-build/release}
runs=${2:-10}
shift $(( $# > 2 ? 2 : $# ))
bin=$(cd "$build/bin" && pwd)
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
"$bin/minicluster" --dir "$dir/c" up "$@" >/dev/null

drive() { # NAME RUNS SALLOC_LINE COMMAND...
    python3 - "$@" <<'PY'
import os, pty, re, select, statistics, sys, time

name, runs, salloc, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
seen = b''

def wait_for(pattern, timeout=120, fatal=True):
    global seen
    end = time.monotonic() + timeout
    while True:
        m = re.search(pattern, seen)
        if m:
            seen = seen[m.end():]
            return m
        left = end - time.monotonic()
        if left <= 0:
            if not fatal:
                return None
            sys.exit(f'{name}: no {pattern!r} within {timeout} s; last output: {seen[-400:]!r}')
        r, _, _ = select.select([fd], [], [], left)
        if r:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                sys.exit(f'{name}: the shell ended; last output: {seen[-400:]!r}')

# The login shell answers again. srun --pty restores the terminal with TCSAFLUSH, which drops
# a line typed ahead while the step ends: the line is typed again until one is answered.
def ready(tag):
    for attempt in range(60):
        os.write(fd, f'echo __{tag}$((1+1))__$(hostname)\n'.encode())
        m = wait_for(rb'__' + tag.encode() + rb'2__(\S+)', 2, fatal=False)
        if m:
            wait_for(rb'[$#] $', 2, fatal=False)  # and the answers to the extra lines
            return m
    sys.exit(f'{name}: the login shell did not answer; last output: {seen[-400:]!r}')

ready('L')
times, hosts = [], set()
for i in range(runs):
    start = time.monotonic()
    os.write(fd, (salloc + '\n' + 'echo __R$((1+1))__$(hostname)\n').encode())
    m = wait_for(rb'__R2__(\S+)')
    times.append(time.monotonic() - start)
    hosts.add(m.group(1).decode())
    os.write(fd, b'exit\n')
    ready('L')
os.write(fd, b'exit\n')
ms = [t * 1000 for t in times]
print(f'{name:64s} median {statistics.median(ms):8.1f} ms  (min {min(ms):.1f}, '
      f'max {max(ms):.1f}, n={len(ms)}, shell on {",".join(sorted(hosts))})')
PY
}

# The shell where salloc puts it (login1 unless the preset has use_interactive_step), then
# a shell on the compute node the way salloc's use_interactive_step starts it (srun --pty).
drive "minicluster: salloc --time=1:00:00 --mem=1G" "$runs" \
    "salloc --time=1:00:00 --mem=1G" "$bin/minicluster" --dir "$dir/c" shell
drive "minicluster: salloc --time=1:00:00 --mem=1G srun --pty bash" "$runs" \
    "salloc --time=1:00:00 --mem=1G srun --pty bash" "$bin/minicluster" --dir "$dir/c" shell
# Real Slurm: its shell on the submit host (LaunchParameters unset there), then the command
# use_interactive_step would run, Slurm's InteractiveStepOptions: the shell as step
# N.interactive on the first node, the figure to compare with minicluster's first row.
# Run as root, the real side is the reference cluster's user alice: salloc's shell reads the
# user's ~/.bashrc, and root's here (pyenv's rehash waiting 60 s on a lock) is not Slurm's time.
if /usr/bin/sinfo >/dev/null 2>&1; then
    as=(env -i HOME="$HOME")
    if [ "$(id -u)" = 0 ] && id alice >/dev/null 2>&1; then
        as=(runuser -u alice -- env -i HOME="$(getent passwd alice | cut -d: -f6)")
    fi
    cd /tmp # a directory every user can enter, for salloc's shell
    for tail in "" " /usr/bin/srun --interactive --preserve-env --pty bash"; do
        drive "real Slurm 22.05: salloc -p cpu --time=1:00:00 --mem=1G${tail:+ srun --interactive -E --pty bash}" \
            "$runs" "/usr/bin/salloc -p cpu --time=1:00:00 --mem=1G$tail" "${as[@]}" \
            TERM=xterm PATH=/usr/bin:/bin SHELL=/bin/bash /bin/bash --norc --noprofile -i
    done
fi
