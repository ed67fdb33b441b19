# Sourced by every differential case in the user's login shell, on real Slurm and on
# minicluster alike, so both sides run and normalise a case the same way.
# A case's answer is framed as the reference transcripts are (--- stdout ---, --- stderr ---,
# --- exit N ---) after normalisation: timestamps become <time>, date lines <date>, the home
# directory <home>, the login host <host>, and job ids are made relative to probe jobs submitted
# just before and after (<J1> is the first id the case used up, <F1> the first of its family's
# set-up), so that the two clusters' different id histories do not matter.

DT_DIR=$HOME/difftest
mkdir -p "$DT_DIR/work" "$DT_DIR/results"
cd "$DT_DIR/work" || exit 99

# The next job id, used up by a held job that is cancelled at once.
dt_probe() {
    local j
    j=$(sbatch --parsable --hold -J dtprobe -o /dev/null --wrap true 2>/dev/null)
    j=${j%%;*}
    scancel "$j" 2>/dev/null
    echo "${j:-0}"
}

# Prints NAME=value for each variable named, for the cases after a set-up block.
dt_keep() {
    local v
    for v in "$@"; do echo "$v=${!v}"; done
}

# Waits (up to $2 s, default 60) until job $1 is no longer pending, running or completing.
dt_wait_end() {
    local i state
    for ((i = 0; i < ${2:-60} * 5; i++)); do
        state=$(squeue -h -t all -j "$1" -o %T 2>/dev/null | head -n1)
        case "$state" in PENDING | RUNNING | COMPLETING | CONFIGURING | SUSPENDED) ;; *) return 0 ;; esac
        sleep 0.2
    done
    return 1
}

# Waits until sacct shows job $1 (allocation line) in a final state with its batch step.
dt_wait_acct() {
    local i s
    dt_wait_end "$1" "${2:-60}"
    for ((i = 0; i < ${2:-60} * 5; i++)); do
        s=$(sacct -n -P -j "$1" -o JobName,State 2>/dev/null)
        case "$s" in
        *allocation* | *PENDING* | *RUNNING* | "") ;;
        *) if [ "$(echo "$s" | grep -c '^batch|')" -ge 1 ] || [ -n "$DT_NO_BATCH" ]; then return 0; fi ;;
        esac
        sleep 0.2
    done
    return 1
}

# Waits until none of the user's jobs is running or completing (cases leave nodes idle).
dt_wait_idle() {
    local i
    for ((i = 0; i < 300; i++)); do
        [ -z "$(squeue -h -u "$USER" -t R,CG,CF -o %A 2>/dev/null)" ] && return 0
        sleep 0.2
    done
}

# Cancels the jobs with ids strictly between $1 and $2, then waits for the nodes.
dt_cancel_range() {
    local ids
    [ "$1" -gt 0 ] && [ "$2" -gt $(($1 + 1)) ] || return 0
    ids=$(seq $(($1 + 1)) $(($2 - 1)))
    # shellcheck disable=SC2086
    scancel $ids >/dev/null 2>&1
    dt_wait_idle
}

dt_norm() {
    DT_HOST=$(hostname) perl -pe '
        BEGIN { ($bf, $ef, $bc, $ec) = map { $ENV{$_} || 0 } qw(DT_BF DT_EF DT_BC DT_EC);
                $home = $ENV{HOME}; $host = $ENV{DT_HOST};
                # an id and the spaces around it: the two clusters ids have different widths,
                # so the padding of a column holding one is kept only as "some" or "none".
                sub id { my ($l, $n, $r) = @_;
                    my $t = ($n > $bc && $n < $ec) ? "<J" . ($n - $bc) . ">"
                          : ($n > $bf && $n < $ef) ? "<F" . ($n - $bf) . ">" : undef;
                    return "$l$n$r" unless defined $t;
                    return ($l eq "" ? "" : " ") . $t . ($r eq "" ? "" : " "); } }
        s/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/<time>/g;
        s/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d+ \d\d:\d\d:\d\d \d{4}/<date>/g;
        s/(AllocNode:Sid=)\S+/$1<host>:<pid>/g;
        s/\Q$home\E/<home>/g;
        s/( *)(?<![\d])(\d+)(?!\d)( *)/id($1, $2, $3)/ge;
        s/\b\Q$host\E\b/<host>/g;
    '
}

# Runs the function dt_body (the case's lines) in a subshell and prints its framed answer.
dt_case() {
    local rc
    DT_BC=$(dt_probe)
    (cd "$DT_DIR/work" && dt_body) >"$DT_DIR/out" 2>"$DT_DIR/err" </dev/null
    rc=$?
    DT_EC=$(dt_probe)
    export DT_BC DT_EC
    dt_cancel_range "$DT_BC" "$DT_EC"
    {
        echo "--- stdout ---"
        cat "$DT_DIR/out"
        [ -z "$(tail -c1 "$DT_DIR/out")" ] || printf '\n\\ No newline at end of stdout\n'
        echo "--- stderr ---"
        cat "$DT_DIR/err"
        [ -z "$(tail -c1 "$DT_DIR/err")" ] || printf '\n\\ No newline at end of stderr\n'
        echo "--- exit $rc ---"
    } | dt_norm
}

# A set-up block's lines run in the segment's shell (their variables stay) with stdout in
# $DT_DIR/keep; its probes bound the ids it used up: DT_BF is the family's first, DT_EF its last.
dt_setup_begin() {
    local p
    p=$(dt_probe)
    [ -n "${DT_BF:-}" ] || { DT_BF=$p; echo "DT_BF=$p" >>"$DT_DIR/keep"; }
    export DT_BF
}
dt_setup_end() {
    local l
    DT_EF=$(dt_probe)
    echo "DT_EF=$DT_EF" >>"$DT_DIR/keep"
    export DT_EF
    while IFS= read -r l; do
        case "$l" in [A-Za-z_]*=*) export "${l%%=*}=${l#*=}" ;; esac
    done <"$DT_DIR/keep"
}
