#include "mc/ws/node_ssh.h"

namespace mc::ws {

namespace {

// The node hop, called as `__mc_ssh_node INDEX ARGS...` where ARGS[INDEX] is the destination.
// Option letters are read as OpenSSH's getopt does: a letter of kArgLetters takes the rest of
// the word, or the next word, as its value.
constexpr const char *kNodeHop = R"SH(__mc_ssh_node() {
    local at=$1
    shift
    local dest=${!at} a c k prev= user=$USER tty= notty= i=0
    local node=${dest#*@}
    [ "$dest" != "$node" ] && user=${dest%@*}
    for a in "$@"; do
        i=$((i + 1))
        [ "$i" -ge "$at" ] && break
        if [ -n "$prev" ]; then
            [ "$prev" = l ] && user=$a
            prev=
            continue
        fi
        k=1
        while [ "$k" -lt "${#a}" ]; do
            c=${a:k:1}
            k=$((k + 1))
            case $c in
            [LRDWJNfXYMSO])
                echo "ssh: $node: minicluster does not support ssh -$c to a compute node (ssh NODE gives a shell or runs a command in your job there); forward a port from your laptop through the login node instead: ssh -L 8888:$node:8888 USER@CLUSTER" >&2
                return 255 ;;
            t) tty=1 ;;
            T) notty=1 ;;
            [bcEeFIilmopQw])
                if [ "$k" -ge "${#a}" ]; then prev=$c; elif [ "$c" = l ]; then user=${a:k}; fi
                break ;;
            esac
        done
    done
    if [ "$user" != "$USER" ]; then
        echo "$user@$node: Permission denied (publickey,gssapi-keyex,gssapi-with-mic,hostbased)." >&2
        return 255
    fi
    shift "$at"
    if [ "$node" = login1 ]; then
        if [ "$(hostname)" = login1 ]; then
            if [ $# -eq 0 ]; then bash -l; else bash -c "$*"; fi
            return
        fi
        echo "ssh: login1: minicluster does not support ssh from a compute node to the login node" >&2
        return 255
    fi
    local job
    job=$(command squeue -h -u "$USER" -w "$node" -t RUNNING -o '%S %i' 2>/dev/null | sort | tail -n 1)
    job=${job##* }
    if [ -z "$job" ]; then
        local addr
        addr=$(getent hosts "$node")
        addr=${addr%%[[:space:]]*}
        echo "Access denied by pam_slurm_adopt: you have no active jobs on this node" >&2
        echo "Connection closed by ${addr:-$node} port 22" >&2
        return 255
    fi
    local pty=
    if [ -z "$notty" ] && { [ $# -eq 0 ] || [ -n "$tty" ]; }; then
        if [ -t 0 ]; then
            pty=--pty
        else
            echo "Pseudo-terminal will not be allocated because stdin is not a terminal." >&2
        fi
    fi
    if [ $# -eq 0 ]; then
        command srun --jobid="$job" --overlap -w "$node" -N1 -n1 -Q $pty bash -c 'bash -l; exit 0'
        return
    fi
    { command srun --jobid="$job" --overlap -w "$node" -N1 -n1 -Q $pty bash -c "$*" 2>&1 1>&3 3>&- | grep --line-buffered -v -x "srun: error: $node: task 0: Exited with exit code [0-9]*" >&2; } 3>&1
    return "${PIPESTATUS[0]}"
}
)SH";

} // namespace

std::string nodeSshFunctions(const std::vector<std::string> &nodes)
{
    std::string names;
    for (const auto &n : nodes) {
        names += (names.empty() ? "" : "|") + n;
    }
    // The destination is the first word that is neither an option nor an option's value.
    return std::string("# ssh to the cluster's nodes (mc/ws/node_ssh.h); other hosts: the real "
                       "ssh.\n")
        + kNodeHop
        + "ssh() {\n"
          "    local a skip= i=0\n"
          "    for a in \"$@\"; do\n"
          "        i=$((i + 1))\n"
          "        if [ -n \"$skip\" ]; then skip=; continue; fi\n"
          "        case $a in\n"
          "        -*[bcDEeFIiJLlmOopQRSWw]) skip=1 ;;\n"
          "        -*) ;;\n"
          "        *) case ${a#*@} in\n"
          "           "
        + names
        + ") __mc_ssh_node \"$i\" \"$@\"; return ;;\n"
          "           esac\n"
          "           break ;;\n"
          "        esac\n"
          "    done\n"
          "    command ssh \"$@\"\n"
          "}\n";
}

} // namespace mc::ws
