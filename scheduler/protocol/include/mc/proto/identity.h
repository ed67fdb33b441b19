#pragma once
// Who is at the other end of a socket, from the kernel (issue #18). When the cluster runs as
// root, every emulated user's processes run as a real uid of their own, kIsolatedIdBase + the
// emulated uid (the same for gids), so file modes, kill and the spool work between classmates;
// the controller takes a client's user from its connection (SO_PEERCRED), never from the
// request. The cluster's owner (the uid the daemons run as: the launcher, the GUI, the
// instructor's own terminal) is trusted to name any user. Without root, every emulated user
// is the owner's uid and users are not isolated; `minicluster status` says so.

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>

namespace mc::proto {

inline constexpr std::uint32_t kIsolatedIdBase = 3000000;

// The real id of emulated uid or gid `id` in an isolated cluster.
inline std::uint32_t isolatedId(std::uint32_t id)
{
    return kIsolatedIdBase + id;
}

// The emulated uid of real uid `uid`, if it is one of kIsolatedIdBase's range.
std::optional<std::uint32_t> emulatedUid(uid_t uid);

// Whether emulated users get real ids of their own here: the daemons run as root.
bool usersIsolated();

// The plain words for `minicluster status` and the app: "isolated (...)" or "not isolated: ...".
std::string isolationDetail();

// The uid of the peer of a connected Unix socket (SO_PEERCRED); nullopt if unknown.
std::optional<uid_t> peerUid(int fd);

} // namespace mc::proto
