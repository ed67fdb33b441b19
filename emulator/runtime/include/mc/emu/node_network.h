#pragma once
// A network namespace per node (issue #16), as root: each node daemon, and so every job and
// step of its node, gets its own network stack (its own loopback, its own ports: two jobs on
// two nodes can both listen on port 3000) with one address on the cluster's network,
// 10.N.0.K/24 (K: the node's place in etc/hosts, login1 is .254). The cluster's network is a
// bridge inside a namespace of its own, held by a small process ("cluster-net") that the first
// node daemon starts and that leaves once no node daemon of the cluster lives (the namespace,
// its bridge and every veth go with it: nothing is left on the host). login1 is the host's
// own network: a veth pair joins the host to the bridge as 10.N.0.254, so login1's sshd
// reaches the nodes (`ssh -L 8888:cn01:8888`) and, through the nodes' default route to it,
// the nodes reach the host's addresses (mpirun on login1). N (200-250) is the first subnet no
// address of the host uses, chosen under a lock shared by every cluster on this machine.
// etc/hosts is rewritten in place with the addresses (the sandboxes bind it read-only).
//
// Without root, or when a step fails, the node stays on the host's network and every name is
// 127.0.0.1 (what etc/hosts says before this runs); the returned sentence says why, for the
// daemon's log.

#include "mc/emu/cluster_layout.h"

#include <string>

namespace mc::emu {

// Moves this process into a network namespace of its own joined to the cluster's network.
// Call before any child is started. `made` tells whether it did.
std::string joinClusterNetwork(const ClusterLayout &layout, const std::string &node, bool &made);

} // namespace mc::emu
