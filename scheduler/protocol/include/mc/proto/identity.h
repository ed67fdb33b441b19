#pragma once
// Who is at the other end of a socket, from the kernel (issue #18). When the cluster runs as
// root, every emulated user's processes run as a real uid of their own, kIsolatedIdBase + the
// emulated uid (the same for gids), so file modes, kill and the spool work between classmates;
// the controller takes a client's user from its connection (SO_PEERCRED), never from the
// request. The cluster's owner (the uid the daemons run as: the launcher, the GUI, the
// instructor's own terminal) is trusted to name any user. Without root, `minicluster` enters a
// user namespace of its own when the owner has subordinate ids (newuidmap, /etc/subuid): the
// owner is root inside and the emulated uid N is the namespace's uid N, a real uid of the
// owner's subordinate range outside. Without either, every emulated user is the owner's uid and
// users are not isolated; `minicluster status` says so.

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>

namespace mc::proto {

// As the host's root: emulated uid N is the real uid kIsolatedIdBase + N.
inline constexpr std::uint32_t kIsolatedIdBase = 3000000;

// Whether this process runs in a user namespace (its uid map is not the host's identity map),
// as `minicluster` does without root when newuidmap can give it subordinate ids.
bool inUserNamespace();

// Whether this process is the host's root: root in the initial user namespace. Only it may
// change what is shared with the whole host (the host's network, cgroup v1).
bool hostRoot();

// The first real id of emulated ids: kIsolatedIdBase as the host's root, 0 in a user
// namespace (whose uid N is the emulated uid N).
std::uint32_t isolatedIdBase();

// The real id of emulated uid or gid `id` in an isolated cluster.
inline std::uint32_t isolatedId(std::uint32_t id)
{
    return isolatedIdBase() + id;
}

// The emulated uid of real uid `uid`, if it is one of kIsolatedIdBase's range.
std::optional<std::uint32_t> emulatedUid(uid_t uid);

// Whether emulated users get real ids of their own here: the daemons run as root, the host's
// or their user namespace's.
bool usersIsolated();

// The plain words for `minicluster status` and the app: "isolated (...)" or "not isolated: ...".
std::string isolationDetail();

// The uid of the peer of a connected Unix socket (SO_PEERCRED); nullopt if unknown.
std::optional<uid_t> peerUid(int fd);

} // namespace mc::proto
