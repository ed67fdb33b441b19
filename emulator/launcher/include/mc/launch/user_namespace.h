#pragma once
// Isolated users without root (issue #18). As the host's root, each emulated user is a real uid
// of its own (mc/proto/identity.h). Without root, `minicluster` re-executes itself in a user
// namespace whose root is the laptop's owner and whose uids 1..65535 are the owner's
// subordinate ids (/etc/subuid, given to each user by Debian's adduser; mapped by newuidmap
// from the uidmap package). Inside, the daemons are root and give each emulated user its own
// uid exactly as they do as the host's root, so file modes, kill and the spool hold between
// classmates. Every process the cluster starts inherits the namespace; a later `minicluster`
// (another terminal, the app's launcher) enters one of its own with the same map, which sees
// the same owners on every file.

#include <string>

namespace mc::launch {

// Why this process is not isolated in a user namespace of its own ("" when it can be).
std::string userNamespaceObstacle();

// Re-executes this program (argv) in a user namespace of its own when it runs without root,
// outside the cluster, and userNamespaceObstacle() is empty; returns otherwise. Setting
// MINICLUSTER_USERNS=0 turns it off.
void enterUserNamespace(char **argv);

} // namespace mc::launch
