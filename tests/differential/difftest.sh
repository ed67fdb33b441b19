#!/bin/bash
# Runs differential cases and writes each case's normalised answer to OUT/<family>/<case>.txt.
#
#   difftest.sh --real OUT [FAMILY.cases...]            real Slurm on this host (as root)
#   difftest.sh --mc MINICLUSTER DIR OUT [FAMILY...]    a running minicluster cluster in DIR
#
# A family file (cases/<command>-<topic>.cases) holds blocks, each starting with a line:
#   @setup [USER]     bash lines run before the cases (as USER, default alice); `dt_keep J1`
#                     passes the variable J1 on to every later block of the family
#   @case NAME [USER] bash lines whose stdout, stderr and exit code are the answer
# Blocks run in order in login shells of their users (scripts/dt_lib.sh sourced,
# current directory ~/difftest/work). At the family's end all its users' jobs are cancelled.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
MODE=$1
shift
if [ "$MODE" = --mc ]; then
    MC=$1 DIR=$2
    shift 2
fi
OUT=$1
shift
[ $# -gt 0 ] || set -- "$HERE"/cases/*.cases

home_of() {
    if [ "$MODE" = --mc ]; then echo "$DIR/home/$1"; else getent passwd "$1" | cut -d: -f6; fi
}

run_as() { # USER SCRIPT
    if [ "$MODE" = --mc ]; then
        "$MC" --dir "$DIR" --user "$1" shell -c "$2"
    else
        runuser -l "$1" -c "$2"
    fi
}

for u in alice bob; do
    h=$(home_of "$u")
    rm -rf "$h/difftest"
    mkdir -p "$h/difftest"
    cp -r "$HERE/scripts/." "$h/difftest/"
    if [ "$MODE" = --mc ]; then
        # As root, minicluster's users have real ids of their own: the home's owner is the user.
        [ "$(id -u)" != 0 ] || chown -R --reference="$h" "$h/difftest"
    else
        chown -R "$u:$u" "$h/difftest"
    fi
done

run_family() { # FILE
    local file=$1 family kind="" name="" user="" body="" seguser="" script="" env="" users=""
    family=$(basename "$file" .cases)
    mkdir -p "$OUT/$family"
    # Consecutive blocks of one user run in one login shell (a segment); a segment's kept
    # variables reach the later segments through the host.
    segment() {
        [ -n "$seguser" ] || return 0
        local h line
        h=$(home_of "$seguser")
        rm -rf "$h/difftest/results" "$h/difftest/keep"
        run_as "$seguser" ". ~/difftest/dt_lib.sh"$'\n'"$env$script" >"$OUT/$family/.segment.log" 2>&1
        for r in "$h"/difftest/results/*.txt; do
            [ -e "$r" ] && cp "$r" "$OUT/$family/"
        done
        if [ -f "$h/difftest/keep" ]; then
            while IFS= read -r line; do
                [[ "$line" =~ ^[A-Za-z_][A-Za-z0-9_]*=[^\'\ ]*$ ]] && env+="export $line"$'\n'
            done <"$h/difftest/keep"
        fi
        script=""
    }
    block() {
        [ -n "$kind" ] || return 0
        case " $users " in *" $user "*) ;; *) users="$users $user" ;; esac
        [ "$user" = "$seguser" ] || { segment; seguser=$user; }
        if [ "$kind" = setup ]; then
            script+=$'dt_setup_begin\n{\n'"$body"$'} >>"$DT_DIR/keep" 2>/dev/null </dev/null\ndt_setup_end\n'
        else
            script+=$'dt_body() {\n:\n'"$body"$'}\n'"dt_case >\"\$DT_DIR/results/$name.txt\""$'\n'
        fi
    }
    while IFS= read -r line || [ -n "$line" ]; do
        case "$line" in
        @setup*)
            block
            kind=setup name="" user=$(echo "$line" | awk '{print $2}') body=""
            user=${user:-alice}
            ;;
        @case\ *)
            block
            kind=case name=$(echo "$line" | awk '{print $2}') user=$(echo "$line" | awk '{print $3}') body=""
            user=${user:-alice}
            ;;
        *) [ -z "$kind" ] || body+="$line"$'\n' ;;
        esac
    done <"$file"
    block
    segment
    for u in $users; do
        run_as "$u" $'. ~/difftest/dt_lib.sh\nscancel -u "$USER" 2>/dev/null; dt_wait_idle' >/dev/null 2>&1
    done
}

start=$(date +%s.%N)
for f in "$@"; do
    run_family "$f"
done
end=$(date +%s.%N)
n=$(find "$OUT" -name '*.txt' | wc -l)
printf 'difftest: %d cases in %.1f s\n' "$n" "$(echo "$end - $start" | bc)"
