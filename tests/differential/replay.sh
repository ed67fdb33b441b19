#!/bin/bash
# Replays every recorded case (cases/*.expected) on a fresh minicluster cluster with the
# reference layout (cluster/*.conf) and requires real Slurm's answers: stdout, stderr and exit
# code after normalisation. A case listed in known-differences.txt ("family/case: reason") may
# differ; if it matches, the list is out of date and the replay fails too.
#
#   replay.sh BUILD_BIN_DIR [cases/FAMILY.cases...]
# Prints the match rate per command, the replay's time, and each unexpected difference.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
MC="$1/minicluster"
shift
[ -x "$MC" ] || { echo "replay.sh: no $MC" >&2; exit 2; }
[ $# -gt 0 ] || set -- "$HERE"/cases/*.cases
TMP=$(mktemp -d /tmp/mc-difftest-XXXXXX)
DIR=$TMP/cluster
cleanup() {
    "$MC" --dir "$DIR" down >/dev/null 2>&1
    [ -n "${KEEP:-}" ] || rm -rf "$TMP"
}
trap cleanup EXIT
mkdir -p "$DIR/etc"
cp "$HERE/cluster/slurm.conf" "$HERE/cluster/minicluster.conf" "$DIR/etc/"
if ! "$MC" --dir "$DIR" up >"$TMP/up.log" 2>&1; then
    echo "replay.sh: minicluster up failed:"
    cat "$TMP/up.log"
    exit 1
fi
# Job ids past 1100 first, as on the recording cluster: small ids would be taken for the small
# numbers of the answers (exit codes, versions, uids) by the normalisation.
"$MC" --dir "$DIR" --user alice shell -c \
    'for i in $(seq 1100); do sbatch --hold --parsable --wrap true; done >/dev/null; scancel -u alice' \
    >"$TMP/warmup.log" 2>&1
start=$(date +%s.%N)
"$HERE/difftest.sh" --mc "$MC" "$DIR" "$TMP/out" "$@"
end=$(date +%s.%N)

known() { grep -q "^$1:" "$HERE/known-differences.txt" 2>/dev/null; }
# "[may match]": a difference of timing (whole seconds that round either way), not of behaviour;
# such a case answering as Slurm in one replay is no sign it was fixed.
may_match() { grep -q "^$1: \[may match\]" "$HERE/known-differences.txt" 2>/dev/null; }
declare -A total same
failures=0 stale=0 cases=0
for f in "$@"; do
    family=$(basename "$f" .cases)
    command=${family%%-*}
    exp="$HERE/cases/$family.expected"
    [ -f "$exp" ] || continue
    mkdir -p "$TMP/expected/$family"
    awk -v dir="$TMP/expected/$family" '/^@case /{file = dir "/" $2 ".txt"; printf "" > file; next} {print > file}' "$exp"
    for e in "$TMP/expected/$family"/*.txt; do
        c=$(basename "$e" .txt)
        a="$TMP/out/$family/$c.txt"
        cases=$((cases + 1))
        total[$command]=$((${total[$command]:-0} + 1))
        if cmp -s "$e" "$a"; then
            same[$command]=$((${same[$command]:-0} + 1))
            if known "$family/$c" && ! may_match "$family/$c"; then
                echo "STALE $family/$c: now answers as Slurm; remove it from known-differences.txt"
                stale=$((stale + 1))
            fi
        elif ! known "$family/$c"; then
            failures=$((failures + 1))
            echo "DIFF $family/$c"
            awk -v c="$c" '/^@/ {p = ($1 == "@case" && $2 == c); next} p' "$f" | sed 's/^/    $ /'
            diff -u --label slurm --label minicluster "$e" "$a" | tail -n +3 | head -n 25
        fi
    done
done
echo
echo "command    cases  identical"
all=0
for c in $(echo "${!total[@]}" | tr ' ' '\n' | sort); do
    printf '%-10s %5d  %5d (%d %%)\n' "$c" "${total[$c]}" "${same[$c]:-0}" $((100 * ${same[$c]:-0} / ${total[$c]}))
    all=$((all + ${same[$c]:-0}))
done
printf '%-10s %5d  %5d (%d %%)\n' all "$cases" "$all" $((cases ? 100 * all / cases : 0))
printf 'replay: %.1f s; %d unexpected differences, %d stale known differences\n' \
    "$(echo "$end - $start" | bc)" "$failures" "$stale"
[ "$failures" = 0 ] && [ "$stale" = 0 ]
