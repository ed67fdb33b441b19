#pragma once
// `ssh NODE` inside the cluster, as pam_slurm_adopt allows it on the Alliance's clusters: a user
// with a running job on NODE lands in that job's allocation there (the newest such job, as
// pam_slurm_adopt's default action_unknown=newest picks); without one, pam_slurm_adopt's refusal
// ("Access denied by pam_slurm_adopt: you have no active jobs on this node", then ssh's
// "Connection closed by ADDR port 22") and ssh's exit code 255.
//
// The hop is not SSH: the login shells' `ssh` is a bash function that, for the cluster's node
// names, runs `srun --jobid=J --overlap -w NODE -N1 -n1` with the remote command (`bash -c`) or a
// login shell (with --pty when stdin is a terminal, as ssh allocates one), so the session lives
// in the job's cgroup and ends with the job. It is a step of the job (Slurm adopts into the
// `extern` step instead). ssh's exit code is the remote command's, without srun's "task 0:
// Exited with exit code N" line, which ssh does not print; a login shell's session ends 0
// (its last command's status is not kept: srun would print that line after `exit`). With a
// command and no -t, the command's stderr reaches the terminal through a pipe. Options that need a
// real SSH channel to the node (-L, -R, -D, -W, -J, -N, -f, -X, -Y, -M, -S, -O) are refused with a
// sentence that says what works: forwarding from the laptop through login1 (`ssh -L 8888:cn01:8888
// CLUSTER`), which login1's sshd serves. Any other name goes to the real ssh.

#include <string>
#include <vector>

namespace mc::ws {

// The bash functions (`ssh` and its helper) for /etc/profile of the login and compute nodes.
// `nodes`: every node name of the cluster, login1 included (`ssh login1` on login1 is a login
// shell there).
std::string nodeSshFunctions(const std::vector<std::string> &nodes);

} // namespace mc::ws
