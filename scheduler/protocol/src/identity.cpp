#include "mc/proto/identity.h"

#include <fstream>
#include <sys/socket.h>
#include <unistd.h>

namespace mc::proto {

namespace {
// Ids past this are not ours (an emulated uid is at most this, see site_conf.h's UID=).
constexpr std::uint32_t kIsolatedIdRange = 1000000;
} // namespace

bool inUserNamespace()
{
    // The host's map is "0 0 4294967295"; a user namespace maps less.
    static const bool inside = [] {
        std::ifstream map("/proc/self/uid_map");
        std::uint64_t first = 0;
        std::uint64_t lower = 0;
        std::uint64_t count = 0;
        if (!(map >> first >> lower >> count)) {
            return false;
        }
        return !(first == 0 && lower == 0 && count == 4294967295ULL);
    }();
    return inside;
}

bool hostRoot()
{
    return ::geteuid() == 0 && !inUserNamespace();
}

std::uint32_t isolatedIdBase()
{
    return inUserNamespace() ? 0 : kIsolatedIdBase;
}

std::optional<std::uint32_t> emulatedUid(uid_t uid)
{
    const std::uint32_t base = isolatedIdBase();
    // Uid 0 is the owner (root inside a user namespace), never an emulated user.
    if (uid == 0 || uid < base || uid >= base + kIsolatedIdRange) {
        return std::nullopt;
    }
    return static_cast<std::uint32_t>(uid - base);
}

bool usersIsolated()
{
    return ::geteuid() == 0;
}

std::string isolationDetail()
{
    if (usersIsolated() && inUserNamespace()) {
        return "isolated (a user namespace of your own: each user is a uid of its own from your "
               "subordinate ids in /etc/subuid)";
    }
    if (usersIsolated()) {
        return "isolated (each user is a real uid of its own, " + std::to_string(kIsolatedIdBase)
            + " + the emulated uid)";
    }
    return "not isolated (every user runs as your own uid: classmates can read and kill each "
           "other's work; run minicluster as root, or give your user subordinate ids in "
           "/etc/subuid and /etc/subgid with Debian's uidmap package, to isolate them)";
}

std::optional<uid_t> peerUid(int fd)
{
    ucred cred{};
    socklen_t size = sizeof cred;
    if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) != 0) {
        return std::nullopt;
    }
    return cred.uid;
}

} // namespace mc::proto
