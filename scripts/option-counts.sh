#!/usr/bin/env bash
# Issue #6: options per command, implemented vs refused, counted in the man pages the option
# tables generate (every option of Slurm 22.05's page is an entry; a refused one says "Not
# supported by minicluster"). Usage: scripts/option-counts.sh [BUILD_DIR]   (default build/debug)
set -euo pipefail
man=${1:-build/debug}/share/man/man1
printf '%-10s %8s %12s %8s\n' command options implemented refused
for c in sbatch squeue scancel sacct sinfo scontrol sprio sshare sacctmgr; do
    total=$(grep -c '^\.TP' "$man/$c.1" || true)
    refused=$(grep -c '^Not supported by minicluster' "$man/$c.1" || true)
    printf '%-10s %8d %12d %8d\n' "$c" "$total" "$((total - refused))" "$refused"
done
