#!/bin/bash
# Records the answers of real Slurm 22.05 to every case (or the families named), twice, and
# stores those that were the same both times in cases/<family>.expected; cases that real Slurm
# answered differently from one run to the other are listed in unstable.md and not stored.
# Needs the reference cluster of ../../../shared/refslurm (setup.sh, as root) with our layout
# (cluster/slurm.conf is the same cluster).
#
#   sudo tests/differential/record.sh [cases/FAMILY.cases...]
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
[ "$(id -u)" = 0 ] || { echo "record.sh must run as root (it runs the cases as alice and bob)" >&2; exit 1; }
command -v sinfo >/dev/null && sinfo -h >/dev/null 2>&1 \
    || { echo "record.sh: real Slurm does not answer; run ../shared/refslurm/setup.sh first" >&2; exit 1; }
[ $# -gt 0 ] || set -- "$HERE"/cases/*.cases
WORK=$(mktemp -d /tmp/difftest-record.XXXXXX)
start=$(date +%s)
"$HERE/difftest.sh" --real "$WORK/run1" "$@"
"$HERE/difftest.sh" --real "$WORK/run2" "$@"
end=$(date +%s)
unstable="$HERE/unstable.md"
{
    echo "# Cases real Slurm answered differently in two recordings (not stored, not replayed)"
    echo
    echo "Recorded $(date -u +%Y-%m-%d) by record.sh on Slurm $(sinfo --version | awk '{print $2}');"
    echo "two runs took $((end - start)) s in all."
    echo
} >"$unstable.new"
for f in "$@"; do
    family=$(basename "$f" .cases)
    exp="$HERE/cases/$family.expected"
    : >"$exp"
    for c in $(grep '^@case ' "$f" | awk '{print $2}'); do
        a="$WORK/run1/$family/$c.txt" b="$WORK/run2/$family/$c.txt"
        if [ -s "$a" ] && cmp -s "$a" "$b"; then
            { echo "@case $c"; cat "$a"; } >>"$exp"
        else
            {
                echo "## $family/$c"
                echo '```diff'
                diff "$a" "$b" | head -n 12
                echo '```'
            } >>"$unstable.new"
        fi
    done
done
if [ $# -lt "$(ls "$HERE"/cases/*.cases | wc -l)" ] && [ -f "$unstable" ]; then
    # a partial recording keeps the notes on the families it did not record
    for f in "$@"; do echo "$(basename "$f" .cases)"; done >"$WORK/families"
    awk -v list="$WORK/families" 'BEGIN { while ((getline l < list) > 0) redone[l] = 1 }
        /^## / { split($2, p, "/"); keep = !(p[1] in redone) } keep' "$unstable" >>"$unstable.new"
fi
mv "$unstable.new" "$unstable"
echo "record.sh: $(grep -c '^@case' "$HERE"/cases/*.expected | awk -F: '{s+=$2} END {print s}') cases stored, $(grep -c '^## ' "$unstable") unstable, $((end - start)) s"
rm -rf "$WORK"
